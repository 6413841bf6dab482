/**
 * HTTP plumbing of the sandbox on the `node:http`/`node:https` servers that Node, Bun and Deno all
 * provide: one server listens (no TCP front, so every runtime's own TLS listener is used), slow
 * clients are timed out (TLS handshake, headers, whole request), and what the HTTP stack refuses is
 * answered as an error (in its path's form when the path is known, else in the short JSON shape).
 * No framework sits between the socket and the pipeline: the routes are a few dozen fixed paths, so
 * a framework's router and hooks would only add cost to every request.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Socket } from "node:net";

/** Largest request body read; a larger one is refused without reading it. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** How long a slow client may take; each bound closes the connection when passed. */
export interface TransportTimeouts {
  /** From connection to the end of the TLS handshake (HTTPS only). Default: `10 000`. */
  handshakeMs?: number;
  /** From the first byte of a request to the end of its headers. Default: `30 000`. */
  headersMs?: number;
  /** From the first byte of a request to the end of its body. Default: `60 000`. */
  requestMs?: number;
  /** Idle time between two requests on one connection. Default: `72 000`. */
  keepAliveMs?: number;
  /**
   * A connection the sandbox closes (after a 408, a 400 or a CONNECT's answer): how long its client
   * may go without reading the answers due, then, once they are all sent, how long it has to read
   * them and close its side. Default: `10 000`.
   */
  closeGraceMs?: number;
}

/**
 * Writes a whole response with the media type exactly as the documents declare it: JSON has no
 * charset parameter (RFC 8259 makes it UTF-8 always).
 */
export function writeResponse(
  response: ServerResponse,
  status: number,
  mediaType: string,
  body: string,
  headers?: Record<string, string>,
): void {
  const head: Record<string, string | number> = {
    "content-type": mediaType,
    "content-length": Buffer.byteLength(body),
  };
  if (headers) Object.assign(head, headers);
  response.writeHead(status, head);
  response.end(body);
}

/** Whether the request announces a body (a length above zero, or chunked framing). */
export function hasBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined;
}

/** A body as read: its text, or why it was not read whole. */
export type BodyRead = { text: string } | { refused: "too-large" | "over-budget" };

/**
 * Reads request bodies within a budget of bytes held at once by all the connections of a server,
 * so that slow uploads, each up to 1 MiB, cannot together run the sandbox out of memory. Bytes are
 * held as they arrive, until the read ends: a declared length reserves nothing (64 connections that
 * each declared 1 MiB and sent a byte would otherwise have locked every body out).
 */
export class BodyReader {
  private heldBytes = 0;

  constructor(readonly budgetBytes: number) {
    if (!(budgetBytes >= 1)) throw new RangeError("the body budget is at least one byte");
  }

  /**
   * Reads the body as UTF-8 text. Refuses it, without reading on, when it is over 1 MiB (a declared
   * length before reading, a chunked body as soon as it passes it) or when a chunk does not fit in
   * what is left of the budget. Rejects when the client goes away mid-body.
   */
  read(request: IncomingMessage): Promise<BodyRead> {
    if (Number(request.headers["content-length"]) > BODY_LIMIT_BYTES)
      return Promise.resolve({ refused: "too-large" });
    let held = 0;
    return new Promise<BodyRead>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = (read: BodyRead) => {
        request.off("data", onData);
        request.off("end", onEnd);
        chunks.length = 0;
        resolve(read);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > BODY_LIMIT_BYTES) return stop({ refused: "too-large" });
        if (this.heldBytes + chunk.length > this.budgetBytes) return stop({ refused: "over-budget" });
        this.heldBytes += chunk.length;
        held += chunk.length;
        chunks.push(chunk);
      };
      const onEnd = () => resolve({ text: Buffer.concat(chunks).toString("utf8") });
      request.on("data", onData);
      request.once("end", onEnd);
      request.once("error", reject);
      // A request destroyed mid-body (its connection closed or timed out) ends neither way.
      request.once("close", () => reject(new Error("the request closed before its body was read")));
    }).finally(() => {
      this.heldBytes -= held;
    });
  }
}

/** A whole answer: what the pipeline replies, and what the HTTP layer writes itself. */
export interface Answer {
  status: number;
  mediaType: string;
  body: string;
  headers?: Record<string, string>;
}

/** The media type and body of an error answered by the HTTP layer. */
export type ErrorAnswer = Pick<Answer, "mediaType" | "body">;

/** Bytes of an answer written straight on a socket (the HTTP stack has no response for it), before a close. */
function rawResponse(answer: Answer): string {
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}\r\ncontent-type: ${answer.mediaType}\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\n`;
  for (const [name, value] of Object.entries(answer.headers ?? {}))
    if (name !== "connection") head += `${name}: ${value}\r\n`;
  return `${head}connection: close\r\n\r\n${answer.body}`;
}

interface Transport {
  /** The port bound. */
  port: number;
  close(): Promise<void>;
}

interface TransportOptions {
  tls: { key: string; cert: string } | null;
  port: number;
  host: string;
  /** Answers requests, those with an `Expect` other than 100-continue included. */
  listener: RequestListener;
  /** Answers a CONNECT request, which Node hands over without a response: `answer` writes it, then closes. */
  connectListener: (request: IncomingMessage, answer: (reply: Answer) => void) => void;
  timeouts: Required<TransportTimeouts>;
  /**
   * An error answered by the HTTP layer, for a status and message: in the form of the path of
   * `request` when one was being read (a body too slow), else in the short shape.
   */
  errorAnswer: (status: 400 | 408, message: string, request?: IncomingMessage) => ErrorAnswer;
}

// Node's own HTTP parser reads the sockets (Bun and Deno parse HTTP natively, with their own flow control).
const NODE_HTTP_PARSER = !("Bun" in globalThis) && !("Deno" in globalThis);

const PLAIN_HTTP_MESSAGE =
  "This service accepts HTTPS only; plain HTTP is rejected. Use https:// with the sandbox CA.";

/**
 * What the transport knows of a connection: the latest request handed to the listener, with its
 * response and the response before it (a connection's answers are written in order), and whether the
 * HTTP layer has given up on it.
 */
interface Connection {
  request?: IncomingMessage;
  response?: ServerResponse;
  previousResponse?: ServerResponse;
  givenUp?: boolean;
}

const connections = new WeakMap<Socket, Connection>();

/** Requests the HTTP layer has answered itself (a 408 or a 400 cut them short). */
const answeredByTransport = new WeakSet<IncomingMessage>();

/**
 * Whether the HTTP layer has answered `request` itself: a reply the pipeline makes for it later (its
 * body came after the 408) would be a second answer to one request.
 */
export function transportAnswered(request: IncomingMessage): boolean {
  return answeredByTransport.has(request);
}

function connectionOf(socket: Socket): Connection {
  let connection = connections.get(socket);
  if (!connection) {
    connection = {};
    connections.set(socket, connection);
  }
  return connection;
}

/** The listener, with each request and its response recorded on their connection. */
function tracking(listener: RequestListener): RequestListener {
  return (request, response) => {
    const connection = connectionOf(request.socket);
    connection.previousResponse = connection.response;
    connection.request = request;
    connection.response = response;
    listener(request, response);
  };
}

/** Starts listening; resolves once the port is bound. */
export async function listen(options: TransportOptions): Promise<Transport> {
  const { timeouts } = options;
  const serverOptions = {
    keepAliveTimeout: timeouts.keepAliveMs,
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    // Checked often enough that a short test timeout is met (Node's default check is every 30 s).
    connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersMs / 4)),
    // A request without Host is answered by the pipeline, in its path's error form, not by Node's bare 400.
    requireHostHeader: false,
  };
  const listener = tracking(options.listener);
  const server: Server = options.tls
    ? createHttpsServer(
        {
          ...serverOptions,
          key: options.tls.key,
          cert: options.tls.cert,
          handshakeTimeout: timeouts.handshakeMs,
        },
        listener,
      )
    : createHttpServer(serverOptions, listener);
  // Node answers an Expect other than 100-continue with a bare 417 unless this event is listened to;
  // the pipeline answers it in the path's error form.
  server.on("checkExpectation", listener);
  // Node closes a CONNECT without a word unless this event is listened to; the pipeline answers it.
  server.on("connect", (request: IncomingMessage, socket: Socket) =>
    answerConnect(request, socket, options.connectListener, timeouts.closeGraceMs),
  );
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(error, socket, options.errorAnswer, timeouts.closeGraceMs),
  );
  if (options.tls) {
    server.on("tlsClientError", (error: NodeJS.ErrnoException, socket: Socket) =>
      answerPlainHttp(error, socket, options.errorAnswer),
    );
  }
  if (options.tls && NODE_HTTP_PARSER) {
    // Node's HTTP parser reads a TLS socket straight from its native handle, and the TLS layer goes on
    // handing it decrypted bytes after Node pauses the socket for a deep pipeline (over 16 KiB of
    // answers waiting): the parser fails with HPE_PAUSED and the requests already read lose their
    // answers. A `data` listener makes Node read the socket as a stream instead, where pausing holds.
    server.on("secureConnection", (socket: Socket) => socket.on("data", readAsStream));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;

  let closed: Promise<void> | undefined;
  return {
    port,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** The `data` listener that turns Node's HTTP parser to reading a TLS socket as a stream; the parser's own listener reads the bytes. */
function readAsStream(): void {}

/**
 * A request the HTTP stack refused (unparseable, headers too large, or too slow): an error, in the
 * form of the path of a request whose body was being read, else in the short shape; then a close.
 * The requests read before it are answered first. A request already answered (before its body was
 * read: an unknown path) gets no second answer: the connection just closes.
 */
function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Socket,
  errorAnswer: TransportOptions["errorAnswer"],
  graceMs: number,
): void {
  // TLS failures reach "clientError" too; the TLS listener answers the one it can (plain HTTP).
  if (error.code?.startsWith("ERR_SSL") || error.code?.startsWith("ERR_TLS")) return;
  const connection = connectionOf(socket);
  // The parser fails again on every later chunk: the first failure decides.
  if (connection.givenUp) return;
  connection.givenUp = true;
  const { request, response } = connection;
  const cutShort = request !== undefined && !request.complete;
  if (cutShort && response!.headersSent) {
    closeAfter(response, socket, undefined, graceMs);
    return;
  }
  const status = error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const message =
    status === 408
      ? "request timeout: the request was not received in time"
      : error.code === "HPE_HEADER_OVERFLOW"
        ? "bad request: request headers are too large"
        : "bad request: malformed HTTP request";
  const answer = rawResponse({ status, ...errorAnswer(status, message, cutShort ? request : undefined) });
  if (cutShort) answeredByTransport.add(request);
  // The answer of a request cut short is this one: it comes after the answer before it.
  closeAfter(cutShort ? connection.previousResponse : response, socket, answer, graceMs);
}

/**
 * A CONNECT request (the sandbox is no proxy): answered as any request without a body would be (a
 * 404 for an address, a 405 on a path), after the answers before it; then a close.
 */
function answerConnect(
  request: IncomingMessage,
  socket: Socket,
  connectListener: TransportOptions["connectListener"],
  graceMs: number,
): void {
  // Node takes its own error listener off a socket it hands over: a client that resets it meanwhile
  // would otherwise throw an unhandled 'error' and end the process.
  socket.on("error", () => socket.destroy());
  const { response } = connectionOf(socket);
  connectListener(request, (reply) => closeAfter(response, socket, rawResponse(reply), graceMs));
}

/**
 * Once `previous` (the last answer due before) is written, writes the HTTP layer's own answer, if
 * any, and closes without losing an answer: the end of the output goes after the answers, then the
 * close lingers until the client closes its side, `graceMs` at most. A client that stops reading
 * before the answers are all sent is cut off after `graceMs` idle.
 */
function closeAfter(
  previous: ServerResponse | undefined,
  socket: Socket,
  answer: string | undefined,
  graceMs: number,
): void {
  // No more requests are read: Node's HTTP parser reads through the socket's `data` listeners (and a
  // `data` listener makes it stop reading the socket's handle itself), replaced by one that drops the
  // bytes. Nothing is read until the answers are all sent: bytes coming in would keep a client that
  // reads none of them from going idle.
  socket.removeAllListeners("data");
  socket.on("data", () => {
    if (!socket.writableFinished) socket.pause();
  });
  socket.pause();
  socket.setTimeout(graceMs, () => socket.destroy());
  // What the client sends is read and dropped until it closes its side: a socket closed with bytes
  // unread is reset, and a reset makes the client's system drop the answers it has not read yet.
  const linger = () => {
    if (socket.readableEnded) return socket.destroy();
    socket.once("end", () => socket.destroy());
    const timer = setTimeout(() => socket.destroy(), graceMs);
    socket.once("close", () => clearTimeout(timer));
    socket.resume();
  };
  const close = () => {
    if (socket.destroyed) return;
    if (socket.writable && !socket.writableEnded) socket.end(answer ?? "");
    if (socket.writableFinished) linger();
    else socket.once("finish", linger);
  };
  if (previous && !previous.writableFinished && !previous.destroyed) previous.once("close", close);
  else close();
}

/**
 * Plain HTTP on the HTTPS port. Node's OpenSSL recognises an HTTP request where a TLS record should
 * be (`ERR_SSL_HTTP_REQUEST`); the answer goes, unencrypted, on the TCP socket under the TLS one
 * (`_parent`, Node's name for it; Bun and Deno neither report this error nor expose that socket, so
 * there the connection is closed by their TLS layer). Every other TLS failure just closes.
 */
function answerPlainHttp(
  error: NodeJS.ErrnoException,
  tlsSocket: Socket,
  errorAnswer: TransportOptions["errorAnswer"],
): void {
  const tcp = (tlsSocket as Socket & { _parent?: Socket })._parent;
  if (error.code === "ERR_SSL_HTTP_REQUEST" && tcp?.writable) {
    tcp.end(rawResponse({ status: 400, ...errorAnswer(400, PLAIN_HTTP_MESSAGE) }));
    return;
  }
  tlsSocket.destroy();
}
