/**
 * What the SDK does to an answer before handing it on: its body bounded by `maxResponseBytes` (on Bun
 * also inflated by the SDK, on Deno read into the SDK's own buffers), its reason phrase one a Response
 * accepts, its address kept on a Response the SDK builds.
 */
import { type FailedCall, invalidAnswer } from "./errors.js";
import { ERROR_BODY_READ_BYTES } from "./redact.js";

/**
 * The answer with its body bounded by `limit`, counted once decoded: past it the read fails and the
 * body is cancelled. A body that cannot exceed the limit is left as it is: a `content-length` within
 * it, no `content-encoding` and no `transfer-encoding` (fetch delivers no more than `content-length`
 * and fails a shorter body; Bun's and Deno's read a body sent with both lengths as chunked, past it).
 * The pipe ends with `signal` (the deadline, the caller's abort), failing the read itself: a fetch's
 * own body does not always end when its signal aborts (Node 20 and 22 on a gzip body that is not
 * gzip, Deno's piped bodies under load). The pipe lets go of `signal` however it ends. With a fetch
 * that `inflates` nothing (Bun's, core.ts), the content codings are undone here, before the count; a
 * byte stream is read into the SDK's own buffer (`readIntoOwnBuffers`).
 */
export function bounded(
  response: Response,
  limit: number,
  signal: AbortSignal,
  answered: () => FailedCall,
  inflates: boolean,
): Response {
  const { body, headers } = response;
  const length = headers.get("content-length");
  const coding = headers.get("content-encoding");
  const delimited = length !== null && /^\d+$/.test(length) && headers.get("transfer-encoding") === null;
  // An empty body is left as it is, whatever its coding says.
  if (body === null || (delimited && (length === "0" || (Number(length) <= limit && coding === null)))) {
    return response;
  }
  const decoded = inflates && coding !== null ? inflated(body, coding, answered) : body;
  let size = 0;
  const limiter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // A stream of a custom fetch's own may hand out anything: only bytes are counted.
      if (!ArrayBuffer.isView(chunk)) return controller.error(notBytes(answered()));
      size += chunk.byteLength;
      // Deno hands out 4 KiB views of 64 KiB buffers: whoever keeps the chunks (text(), json()) would
      // hold sixteen times the limit. A view of a much larger buffer is copied.
      if (size <= limit) return controller.enqueue(isSmallView(chunk) ? chunk.slice() : chunk);
      controller.error(
        invalidAnswer(
          answered(),
          ` answered a body larger than maxResponseBytes (${limit} bytes once decoded)`,
        ),
      );
    },
  });
  const { status, statusText } = response;
  const init = { status, statusText: acceptedReason(statusText), headers };
  return withUrl(
    new Response(readIntoOwnBuffers(decoded).pipeThrough(limiter, { signal }), init),
    response.url,
  );
}

/**
 * An error answer's body as text, as `Response.text()` reads it, or undefined once it holds more than
 * `ERROR_BODY_READ_BYTES`: it would not be kept, so the rest is not read (the body is cancelled).
 */
export async function errorTextOf(
  response: Response,
  answered: () => FailedCall,
): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const decoder = new TextDecoder();
  let text = "";
  for (let read = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    if (!ArrayBuffer.isView(value)) throw notBytes(answered());
    read += value.byteLength;
    if (read > ERROR_BODY_READ_BYTES) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** A body of a custom fetch's own whose stream hands out something other than bytes. */
function notBytes(call: FailedCall) {
  return invalidAnswer(call, " answered a body whose chunks are not bytes");
}

/** A view of a much larger buffer: whoever keeps it would hold the whole buffer, so it is copied. */
function isSmallView(chunk: Uint8Array): boolean {
  return chunk.byteLength * 2 < chunk.buffer.byteLength;
}

/** Size of the buffer a body is read into. */
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * A byte stream read into a buffer of the SDK's own (a BYOB reader), as its runtime allows: Deno's
 * default reader hands out 4 KiB views of new 64 KiB buffers, garbage that grows the process by
 * several times what is read. A read that fills little of the buffer is handed on as a copy of its
 * own size and the buffer read into again. Any other stream is returned as it is.
 */
function readIntoOwnBuffers(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    return body; // not a byte stream
  }
  let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done || value === undefined) return controller.close();
      const small = isSmallView(value);
      controller.enqueue(small ? value.slice() : value);
      buffer = small ? value.buffer : new ArrayBuffer(READ_BUFFER_BYTES);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The content codings the SDK undoes itself, by their DecompressionStream format (Bun's brotli and zstd included). */
const DECOMPRESSION_FORMATS: Readonly<Record<string, string>> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "brotli",
  zstd: "zstd",
};

/** Content codings undone at most, as undici's fetch (a stream each: a long list costs memory, not bytes). */
const MAX_CODINGS = 5;

/**
 * A body as sent, its content codings undone, the last applied first (`gzip, br`: brotli, then gzip);
 * with a coding it does not know, left as sent, as fetch leaves it.
 */
function inflated(body: ReadableStream<Uint8Array<ArrayBuffer>>, coding: string, answered: () => FailedCall) {
  // Counted as undici counts them, `identity` included.
  const names = coding.split(",").map((name) => name.trim().toLowerCase());
  if (names.length > MAX_CODINGS) {
    body.cancel().catch(() => {});
    throw invalidAnswer(answered(), ` answered ${names.length} content codings, more than ${MAX_CODINGS}`);
  }
  const formats = names
    .filter((name) => name !== "" && name !== "identity")
    .map((name) => DECOMPRESSION_FORMATS[name])
    .reverse();
  if (formats.includes(undefined)) return body;
  return formats.reduce((stream, format) => undone(stream, format as string), body);
}

/**
 * One coding undone as undici's fetch undoes it: an empty body stays empty whatever its coding says
 * (a DecompressionStream fails on nothing), and `deflate` without a zlib header is raw deflate, as
 * some servers send it. Both are told from the first bytes, so the decompressor starts with them.
 */
function undone(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  format: string,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  let decoded: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>> | undefined;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      if (decoded === undefined) {
        let first = await reader.read();
        while (!first.done && first.value.byteLength === 0) first = await reader.read();
        if (first.done) return controller.close();
        // A zlib stream's first byte names the deflate method (its low four bits are 8).
        const raw = format === "deflate" && ((first.value[0] ?? 0) & 0x0f) !== 0x08;
        // brotli and zstd are formats of Bun's, outside the standard's type.
        const decompressor = new DecompressionStream((raw ? "deflate-raw" : format) as CompressionFormat);
        decoded = startingWith(first.value, reader).pipeThrough(decompressor).getReader();
      }
      const { done, value } = await decoded.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => (decoded ?? reader).cancel(reason),
  });
}

/** The rest of a reader's stream, after the chunk already read from it. */
function startingWith(
  chunk: Uint8Array<ArrayBuffer>,
  reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>>,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    start: (controller) => controller.enqueue(chunk),
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Text a header value or a reason phrase may hold: HTAB, SP, visible ASCII, obs-text (no control
 * character, nothing past U+00FF). A server may send other bytes; a Response refuses them.
 */
export const HEADER_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The reason phrase, or none if a Response would refuse it. */
export function acceptedReason(statusText: string): string {
  return HEADER_TEXT.test(statusText) ? statusText : "";
}

/** A Response built by the SDK keeps the answer's address, as a fetch's does. */
export function withUrl(response: Response, url: string): Response {
  Object.defineProperty(response, "url", { value: url, configurable: true });
  return response;
}
