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
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { Socket } from "node:net";

/** Largest request body read; a larger one is refused without reading it. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** How long a slow client may take; each bound closes the connection when passed. */
export interface TransportTimeouts {
  /** From connection to the end of the TLS handshake (HTTPS only). Default 10 000. */
  handshakeMs?: number;
  /** From the first byte of a request to the end of its headers. Default 30 000. */
  headersMs?: number;
  /** From the first byte of a request to the end of its body. Default 60 000. */
  requestMs?: number;
  /** Idle time between two requests on one connection. Default 72 000. */
  keepAliveMs?: number;
}

const DEFAULT_TIMEOUTS: Required<TransportTimeouts> = {
  handshakeMs: 10_000,
  headersMs: 30_000,
  requestMs: 60_000,
  keepAliveMs: 72_000,
};

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

/** The request whose body a connection is reading: an error of the HTTP layer meanwhile is on its path. */
const bodiesBeingRead = new WeakMap<Socket, IncomingMessage>();

/**
 * Reads the body as UTF-8 text. Resolves with `null` when it is over the limit: a declared length
 * over it is refused before reading, a chunked body as soon as it passes it. Rejects when the client
 * goes away mid-body.
 */
export function readBody(request: IncomingMessage): Promise<string | null> {
  if (Number(request.headers["content-length"]) > BODY_LIMIT_BYTES) return Promise.resolve(null);
  bodiesBeingRead.set(request.socket, request);
  const done = () => bodiesBeingRead.delete(request.socket);
  return new Promise<string | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        request.off("data", onData);
        request.off("end", onEnd);
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString("utf8"));
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", reject);
  }).finally(done);
}

/** Bytes of an error answer written straight on a socket (the HTTP stack has no response for it), then closed. */
function rawErrorResponse(status: 400 | 408, answer: ErrorAnswer): string {
  const reason = status === 408 ? "Request Timeout" : "Bad Request";
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${answer.mediaType}\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\nconnection: close\r\n\r\n${answer.body}`;
}

/** The media type and body of an error answered by the HTTP layer. */
export interface ErrorAnswer {
  mediaType: string;
  body: string;
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
  listener: RequestListener;
  timeouts?: TransportTimeouts;
  /**
   * An error answered by the HTTP layer, for a status and message: in the form of the path of
   * `request` when one was being read (a body too slow), else in the short shape.
   */
  errorAnswer: (status: 400 | 408, message: string, request?: IncomingMessage) => ErrorAnswer;
}

const PLAIN_HTTP_MESSAGE =
  "This service accepts HTTPS only; plain HTTP is rejected. Use https:// with the sandbox CA.";

/** Starts listening; resolves once the port is bound. */
export async function listen(options: TransportOptions): Promise<Transport> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const serverOptions = {
    keepAliveTimeout: timeouts.keepAliveMs,
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    // Checked often enough that a short test timeout is met (Node's default check is every 30 s).
    connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersMs / 4)),
    // A request without Host is answered by the pipeline, in its path's error form, not by Node's bare 400.
    requireHostHeader: false,
  };
  const server: Server = options.tls
    ? createHttpsServer(
        {
          ...serverOptions,
          key: options.tls.key,
          cert: options.tls.cert,
          handshakeTimeout: timeouts.handshakeMs,
        },
        options.listener,
      )
    : createHttpServer(serverOptions, options.listener);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(error, socket, options.errorAnswer),
  );
  if (options.tls) {
    server.on("tlsClientError", (error: NodeJS.ErrnoException, socket: Socket) =>
      answerPlainHttp(error, socket, options.errorAnswer),
    );
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

/**
 * A request the HTTP stack refused (unparseable, headers too large, or too slow): an error, in the
 * form of the path of a request whose body was being read, else in the short shape; then a close.
 */
function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Socket,
  errorAnswer: TransportOptions["errorAnswer"],
): void {
  // TLS failures reach "clientError" too; the TLS listener answers the one it can (plain HTTP).
  if (error.code?.startsWith("ERR_SSL") || error.code?.startsWith("ERR_TLS")) return;
  if (socket.writable && !socket.writableEnded) {
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      const message = "request timeout: the request was not received in time";
      socket.end(rawErrorResponse(408, errorAnswer(408, message, bodiesBeingRead.get(socket))));
    } else {
      const reason =
        error.code === "HPE_HEADER_OVERFLOW" ? "request headers are too large" : "malformed HTTP request";
      socket.end(
        rawErrorResponse(400, errorAnswer(400, `bad request: ${reason}`, bodiesBeingRead.get(socket))),
      );
    }
  }
  socket.destroy();
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
    tcp.end(rawErrorResponse(400, errorAnswer(400, PLAIN_HTTP_MESSAGE)));
    return;
  }
  tlsSocket.destroy();
}
