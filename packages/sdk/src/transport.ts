/**
 * The `fetch` given to openapi-fetch: bearer, 401 renewal, retries, deadlines, redirects and the
 * response size limit, and the token call itself. Every answer it hands back has its body read
 * (within `maxResponseBytes` and the deadline) and the secret redacted, so nothing that reads it
 * later can fail on the network or see the secret.
 */
import { JSON_MEDIA_TYPE, TOKEN_PATH } from "./api.js";
import { createTokenSource, type IssuedToken, readTokenResponse } from "./auth.js";
import {
  apiErrorFor,
  connectionError,
  invalidResponse,
  isCdasError,
  pathOf,
  timeoutError,
} from "./errors.js";
import { type Answer, type RetryPolicy, retryDelay, shouldRetry, sleep } from "./retry.js";

/**
 * The fetch the SDK calls: the standard signature. It receives a Request (with `redirect: "manual"`)
 * and an init whose `signal` carries the deadline and the caller's abort; like every fetch, it must honour it.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

export interface TransportConfig {
  fetch: FetchLike;
  baseUrl: string;
  /** The SDK's headers, for the token call (openapi-fetch adds them to every other call). */
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: RetryPolicy;
  /** Removes the client secret from any text handed back. */
  redact: (text: string) => string;
  /** Builds the token request body; the only place that sees the secret. */
  tokenBody: () => string;
}

/** One call as the retry loop repeats it: its body kept as bytes, so that it can be sent again. */
interface Call {
  method: string;
  url: string;
  headers: Headers;
  body: ArrayBuffer | string | null;
  signal: AbortSignal | undefined;
  /** The token call: never a bearer, never a redirect. */
  isTokenCall: boolean;
}

/** Same-origin redirects of reads followed at most this many times per attempt. */
const MAX_REDIRECTS = 5;

export function createTransport(config: TransportConfig): (request: Request) => Promise<Response> {
  const tokenUrl = `${config.baseUrl}${TOKEN_PATH}`;
  const origin = new URL(config.baseUrl).origin;
  const tokens = createTokenSource(issueToken);

  async function issueToken(): Promise<IssuedToken> {
    const headers = new Headers(config.headers);
    headers.set("content-type", JSON_MEDIA_TYPE);
    const body = config.tokenBody();
    const call = { method: "POST", url: tokenUrl, headers, body, signal: undefined, isTokenCall: true };
    const answer = await withRetries(call);
    if (answer.status < 200 || answer.status > 299) throw apiErrorFor(answer, "POST", tokenUrl, answer.text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      // reported below
    }
    const issued = readTokenResponse(parsed);
    if (issued) return issued;
    throw invalidResponse(`POST ${TOKEN_PATH} answered without a usable token and expires_in`);
  }

  /** The one retry loop, for every call (the token call included), with the 401 renewal. */
  async function withRetries(call: Call): Promise<Answer> {
    const repeatable = call.isTokenCall || call.method === "GET" || call.method === "HEAD";
    let renewed = false;
    for (let retries = 0; ; ) {
      const token = call.isTokenCall ? undefined : await tokens.get(call.signal);
      let outcome: Answer | Error;
      try {
        outcome = await exchange(call, token);
      } catch (error) {
        // The caller's abort rejects with the caller's reason.
        if (call.signal?.aborted || !isCdasError(error)) throw error;
        outcome = error;
      }
      if (token !== undefined && !renewed && !(outcome instanceof Error) && outcome.status === 401) {
        renewed = true;
        tokens.invalidate(token);
        continue;
      }
      if (!shouldRetry(config.retry, repeatable, retries, outcome)) {
        if (outcome instanceof Error) throw outcome;
        return outcome;
      }
      await sleep(retryDelay(config.retry, retries++, outcome), call.signal);
    }
  }

  /** One attempt under one deadline (`AbortSignal.timeout`), same-origin redirects and the body included. */
  async function exchange(call: Call, token: string | undefined): Promise<Answer> {
    const deadline = AbortSignal.timeout(config.timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline;
    const headers = new Headers(call.headers);
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    let url = call.url;
    for (let redirects = 0; ; redirects++) {
      const request = new Request(url, { method: call.method, headers, body: call.body, redirect: "manual" });
      let response: Response;
      try {
        response = await config.fetch(request, { signal });
      } catch (error) {
        throw failure(error, call, url, deadline);
      }
      let next: string | undefined;
      try {
        next = redirectTarget(response, call, url, redirects);
      } catch (error) {
        response.body?.cancel().catch(() => {});
        throw error;
      }
      if (next === undefined) return read(response, call, url, deadline);
      await response.body?.cancel().catch(() => {});
      url = next;
    }
  }

  /**
   * Where a redirect leads when the SDK follows it (a read, to the same origin); undefined for an
   * answer to hand back. Throws for anything else: nothing leaves for another origin.
   */
  function redirectTarget(
    response: Response,
    call: Call,
    url: string,
    redirects: number,
  ): string | undefined {
    const what = `${call.method} ${pathOf(url)} answered HTTP ${response?.status}`;
    if (typeof response?.status !== "number" || typeof response.headers?.get !== "function") {
      throw invalidResponse(
        `${call.method} ${pathOf(url)}: the fetch in use resolved to something that is not a Response`,
      );
    }
    const location = response.headers.get("location");
    const isRedirect =
      response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
    if (isRedirect && call.isTokenCall) {
      throw invalidResponse(
        `${what}: the token endpoint redirected; the SDK never follows a redirect of the token call (it would send the client secret elsewhere)`,
      );
    }
    if (response.status < 200 || response.status > 599)
      throw invalidResponse(`${what}, a status outside 200-599`);
    if (!isRedirect || location === null) return undefined;
    let target: URL;
    try {
      target = new URL(location, url);
    } catch {
      throw invalidResponse(`${what} with a Location that is not an address`);
    }
    if (target.origin !== origin) {
      throw invalidResponse(
        `${what}, a redirect to another origin (${target.protocol}//${target.host}), not followed: only same-origin redirects are`,
      );
    }
    if (call.method !== "GET" && call.method !== "HEAD") return undefined;
    if (target.username || target.password)
      throw invalidResponse(`${what}, a redirect to an address with credentials`);
    if (redirects >= MAX_REDIRECTS) throw invalidResponse(`${what}, more than ${MAX_REDIRECTS} redirects`);
    return target.href;
  }

  async function read(response: Response, call: Call, url: string, deadline: AbortSignal): Promise<Answer> {
    let text: string;
    try {
      text = await readText(response, config.maxResponseBytes, `${call.method} ${pathOf(url)}`);
    } catch (error) {
      throw failure(error, call, url, deadline, " while reading the body");
    }
    const { status, statusText } = response;
    return {
      status,
      statusText,
      headers: redactHeaders(response.headers, config.redact),
      url,
      text: config.redact(text),
    };
  }

  /** What a failed fetch or body read becomes: the caller's abort reason, or the SDK's own error. */
  function failure(error: unknown, call: Call, url: string, deadline: AbortSignal, during = ""): unknown {
    if (call.signal?.aborted) return call.signal.reason;
    if (isCdasError(error)) return error;
    if (deadline.aborted) return timeoutError(call.method, url, config.timeoutMs);
    return connectionError(error, call.method, url, config.redact, during);
  }

  return async (request) => {
    const body = request.body === null ? null : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    // openapi-fetch's JSON media type, with the charset the interface writes.
    if (body !== null && headers.get("content-type") === "application/json")
      headers.set("content-type", JSON_MEDIA_TYPE);
    const { method, url, signal } = request;
    const isTokenCall = method === "POST" && url === tokenUrl;
    return toResponse(await withRetries({ method, url, headers, body, signal, isTokenCall }));
  };
}

/** Reads a body as text, counting its decoded bytes: past `limit`, the body is cancelled and the read fails. */
async function readText(response: Response, limit: number, what: string): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw invalidResponse(
        `${what} answered a body larger than maxResponseBytes (${limit} bytes once decoded)`,
      );
    }
    text += decoder.decode(value, { stream: true });
  }
}

function redactHeaders(headers: Headers, redact: (text: string) => string): Headers {
  for (const [, value] of headers) {
    if (redact(value) !== value) {
      const copy = new Headers();
      for (const [name, item] of headers) copy.append(name, redact(item));
      return copy;
    }
  }
  return headers;
}

/** The Response handed to openapi-fetch: the body already read, the answer's address kept as a fetch's is. */
function toResponse(answer: Answer): Response {
  const { status, statusText, headers, text } = answer;
  const nullBody = status === 204 || status === 205 || status === 304 || text === "";
  const response = new Response(nullBody ? null : text, { status, statusText, headers });
  Object.defineProperty(response, "url", { value: answer.url });
  return response;
}
