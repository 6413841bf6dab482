/**
 * HTTP plumbing of the sandbox on Node's own `http`/`https` servers: reading a bounded request body,
 * writing a response, answering unparseable requests, and the TCP front that lets TLS through to the
 * HTTPS server and answers plain HTTP on that port with a clear 400. No framework sits between the
 * socket and the pipeline: the routes are 25 fixed paths, so a framework's router and hooks would
 * only add cost to every request.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";

/** Largest request body read; a larger one is refused without reading it. */
const BODY_LIMIT_BYTES = 1024 * 1024;
const FIRST_BYTE_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** Writes a whole response; JSON media types carry `charset=utf-8`. */
export function writeResponse(
  response: ServerResponse,
  status: number,
  mediaType: string,
  body: string,
  headers?: Record<string, string>,
): void {
  const head: Record<string, string | number> = {
    "content-type": mediaType.includes("json") ? `${mediaType}; charset=utf-8` : mediaType,
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

/**
 * Reads the body as UTF-8 text. Resolves with `null` when it is over the limit: a declared length
 * over it is refused before reading, a chunked body as soon as it passes it. Rejects when the client
 * goes away mid-body.
 */
export function readBody(request: IncomingMessage): Promise<string | null> {
  if (Number(request.headers["content-length"]) > BODY_LIMIT_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
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
  });
}

/** Bytes of a response to a request Node could not parse (sent as-is on the socket, then closed). */
function clientErrorResponse(body: string): string {
  return `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

export interface Transport {
  /** The socket that listens: the TLS front, or the HTTP server itself. */
  listening: NetServer;
  close(): Promise<void>;
}

export interface TransportOptions {
  tls: { key: string; cert: string } | null;
  port: number;
  host: string;
  listener: RequestListener;
  /** Body of the 400 sent for a request Node cannot parse, and for plain HTTP on the HTTPS port. */
  errorBody: (message: string) => string;
}

/** Starts listening; resolves once the port is bound. */
export async function listen(options: TransportOptions): Promise<Transport> {
  const serverOptions: ServerOptions = { keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS };
  const server: Server = options.tls
    ? createHttpsServer({ ...serverOptions, key: options.tls.key, cert: options.tls.cert }, options.listener)
    : createHttpServer(serverOptions, options.listener);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && !socket.writableEnded) {
      const reason =
        error.code === "HPE_HEADER_OVERFLOW" ? "request headers are too large" : "malformed HTTP request";
      socket.end(clientErrorResponse(options.errorBody(`bad request: ${reason}`)));
    }
    socket.destroy();
  });

  const sockets = new Set<Socket>();
  let listening: NetServer = server;
  if (options.tls) {
    const target = server;
    listening = createNetServer({ pauseOnConnect: true }, (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
      // A connection that never says anything is dropped rather than held open.
      socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
      socket.once("data", (chunk: Buffer) => {
        socket.pause();
        socket.setTimeout(0);
        if (chunk[0] === 0x16) {
          // A TLS handshake record: the HTTPS server takes the connection from here.
          socket.unshift(chunk);
          target.emit("connection", socket);
          return;
        }
        socket.end(
          clientErrorResponse(
            options.errorBody(
              "This service accepts HTTPS only; plain HTTP is rejected. Use https:// with the sandbox CA.",
            ),
          ),
        );
      });
      socket.resume();
    });
  }
  await new Promise<void>((resolve, reject) => {
    listening.once("error", reject);
    listening.listen(options.port, options.host, () => {
      listening.off("error", reject);
      resolve();
    });
  });

  let closed: Promise<void> | undefined;
  return {
    listening,
    close() {
      closed ??= (async () => {
        const servers: NetServer[] = listening === server ? [server] : [listening, server];
        const stopped = servers.map((each) => new Promise<void>((resolve) => each.close(() => resolve())));
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        await Promise.all(stopped);
      })();
      return closed;
    },
  };
}
