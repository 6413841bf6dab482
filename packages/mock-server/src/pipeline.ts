/**
 * One request through the sandbox: its path matched against the bundles' paths, then the same steps
 * for every request: version choice, credentials, the operation's checks (checks.ts), its handler,
 * then paging by its `x-cdas-pagination` (replies.ts). Every failure becomes an error in the form
 * the documents give its path in the requested version.
 */
import type { IncomingHttpHeaders, IncomingMessage, RequestListener } from "node:http";
import { parse as parseQuery } from "fast-querystring";
import { VERSION_HEADER, type VersionBundle } from "./bundle.js";
import { checkCredentials, runOperation } from "./checks.js";
import { ApiError, type InputEcho } from "./errors.js";
import type { SandboxState } from "./handlers.js";
import { errorReply, type Reply, resultReply } from "./replies.js";
import type { Routes } from "./routes.js";
import {
  type Answer,
  type BodyReader,
  type ErrorAnswer,
  hasBody,
  transportAnswered,
  writeResponse,
} from "./transport.js";

export interface Pipeline {
  routes: Routes;
  bundles: Map<string, VersionBundle>;
  defaultVersion: string;
  state: SandboxState;
  /** Reads request bodies within the server's budget of bytes held at once. */
  bodies: BodyReader;
}

/** Method, path (never the query or body), status and version of an answered request. */
export interface RequestLogEntry {
  method: string;
  /** The path only: queries and bodies are never passed on, so credentials cannot leak into logs. */
  path: string;
  status: number;
  version: string | undefined;
  milliseconds: number;
}

/** What one request carries once its path is matched and its query parsed. */
interface RequestParts {
  method: string;
  /** The path as sent (still percent-encoded): paging links are built on it. */
  path: string;
  /** The operation path template it matched, e.g. `/v1/banking/products/{product_id}`. */
  template: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** Text of the body; undefined without one. */
  body: string | undefined;
  /**
   * Why the request is refused before its operation runs: an expectation the sandbox cannot meet, or a
   * body not read (too large, or over the server's budget). The answer, at the body's step.
   */
  refusal?: ApiError;
}

// Absolute-form request targets (`GET https://host/path`) are answered like their path.
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** The request target as path and query. */
function originForm(target = "/"): string {
  return target.charCodeAt(0) === 47 ? target : target.replace(ABSOLUTE_FORM, "") || "/";
}

/** The request listener: route, read the body when there is one, run the pipeline, write the reply. */
export function requestListener(
  pipeline: Pipeline,
  onResponse?: (entry: RequestLogEntry) => void,
): RequestListener {
  return (request, response) => {
    const write = (reply: Reply) =>
      writeResponse(response, reply.status, reply.mediaType, reply.body, reply.headers);
    serve(pipeline, request, hasBody(request), write, onResponse);
  };
}

/**
 * The listener of CONNECT requests, which Node hands over without a response: answered as a request
 * of that method without a body (the sandbox is no proxy: a 404 for an address, a 405 on a path).
 */
export function connectListener(
  pipeline: Pipeline,
  onResponse?: (entry: RequestLogEntry) => void,
): (request: IncomingMessage, answer: (reply: Answer) => void) => void {
  return (request, answer) => serve(pipeline, request, false, answer, onResponse);
}

/** Routes a request, reads its body when `readsBody`, runs the pipeline, and hands the reply to `write`. */
function serve(
  pipeline: Pipeline,
  request: IncomingMessage,
  readsBody: boolean,
  write: (reply: Reply) => void,
  onResponse: ((entry: RequestLogEntry) => void) | undefined,
): void {
  const started = onResponse ? performance.now() : 0;
  const method = request.method ?? "GET";
  const url = originForm(request.url);
  const queryStart = url.indexOf("?");
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const respond = (reply: Reply) => {
    if (transportAnswered(request)) return;
    write(reply);
    if (!onResponse) return;
    const { status, version } = reply;
    // A log line repeats the path as error messages do: cut, and without a secret or a token.
    const logged = pipeline.state.echo.text(path);
    onResponse({ method, path: logged, status, version, milliseconds: performance.now() - started });
  };

  let parts: RequestParts;
  try {
    parts = matchRequest(pipeline, request, method, path, url, queryStart);
  } catch (error) {
    respond(errorOnPath(pipeline, method, path, request.headers, error));
    return;
  }
  // An expectation the sandbox cannot meet is answered at once: the client may wait for the answer
  // before it sends the body.
  const expectation = unmetExpectation(request.headers);
  if (expectation !== undefined) parts.refusal = expectationFailed(expectation, pipeline.state.echo);
  if (!readsBody || parts.refusal) {
    respond(handleRequest(pipeline, parts));
    return;
  }
  pipeline.bodies
    .read(request)
    .then((read) => {
      if ("text" in read) parts.body = read.text;
      else parts.refusal = bodyRefusal(read.refused, pipeline.bodies.budgetBytes);
      respond(handleRequest(pipeline, parts));
    })
    // handleRequest turns every failure into a reply; this only guards the write to a socket gone bad.
    .catch(() => request.socket.destroy());
}

/** The answer to a body not read: over 1 MiB (a 400), or over what is left of the server's budget (a 503). */
function bodyRefusal(refused: "too-large" | "over-budget", budgetBytes: number): ApiError {
  if (refused === "too-large")
    return new ApiError(400, "request body is too large", "bad_request", { connection: "close" });
  const message = `the sandbox is receiving all the request bodies it holds at once (${budgetBytes} bytes); retry shortly`;
  const headers = { "retry-after": "1", connection: "close" };
  return new ApiError(503, message, "service_unavailable", headers, true);
}

/** The request's parts once its Host is checked and its path routed; throws an error of the HTTP layer otherwise. */
function matchRequest(
  pipeline: Pipeline,
  request: IncomingMessage,
  method: string,
  path: string,
  url: string,
  queryStart: number,
): RequestParts {
  // HTTP/1.1 requires Host (RFC 9112, 3.2); Node's own check would answer a bare 400.
  if (request.headers.host === undefined && request.httpVersion === "1.1")
    throw new ApiError(
      400,
      "bad request: header Host is required",
      "bad_request",
      { connection: "close" },
      true,
    );
  const route = pipeline.routes.match(path);
  if (!route) {
    const message = `no operation at ${method} ${pipeline.state.echo.text(path)}`;
    throw new ApiError(404, message, "not_found", {}, true);
  }
  return {
    method,
    path,
    template: route.template,
    params: route.params,
    query: parseQuery(queryStart === -1 ? "" : url.slice(queryStart + 1)) as Record<string, unknown>,
    headers: request.headers,
    body: undefined,
  };
}

/**
 * The checks of a routed request, in the order a gateway makes them: the limits of the transport
 * (the body's size), then the credentials the path needs (so a client with a stale token learns it
 * before anything else), then the method, the version header, and the operation's parameters and
 * body; then its handler. Every failure becomes an error in the form the path's operation documents.
 */
function handleRequest(pipeline: Pipeline, request: RequestParts): Reply {
  const { method, template, headers } = request;
  const version = chooseVersion(headers, pipeline);
  const { byMethod, op, onPath } = operationsAt(pipeline, version.version, template, method);
  let reply: Reply;
  try {
    if (request.refusal) throw request.refusal;
    if (!onPath) {
      // Only with bundles whose versions have different paths: this one is in another version only.
      const message = `no operation at ${method} ${template} in ${version.version}`;
      throw new ApiError(404, message, "not_found", {}, true);
    }
    // A wrong method is authenticated as the path's operations are (their scopes are theirs alone).
    const security = op ? op.security : onPath.security && { ...onPath.security, scopes: [] };
    const scopes = checkCredentials(security, headers.authorization, pipeline.state.tokens);
    if (!op) {
      const allowed = [...byMethod!.keys()].join(", ");
      const message = `method ${method} is not allowed on ${template}; use ${allowed}`;
      throw new ApiError(405, message, "method_not_allowed", { allow: allowed }, true);
    }
    if (version.error) throw version.error;
    if (version.defaulted && op.versionHeaderRequired) {
      const message = `header X-Platform-Version is required on ${method} ${template} in ${op.version}`;
      throw new ApiError(400, message, "bad_request");
    }
    reply = resultReply(op, request, runOperation(op, request, scopes, pipeline.state));
  } catch (error) {
    reply = errorReply(onPath, error);
  }
  if (!version.error) reply.version = version.version;
  return reply;
}

/**
 * An error on a request path that routed to no operation (unknown, unreadable), in the form the
 * documents give the nearest operation path (`Routes.nearest`) in the requested version (the
 * default one when the header is absent or names no version): the method's operation, else
 * another on the path. The short shape in JSON on a path near none.
 */
function errorOnPath(
  pipeline: Pipeline,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  error: unknown,
): Reply {
  const template = pipeline.routes.nearest(path);
  if (template === undefined) return errorReply(undefined, error);
  const { version } = chooseVersion(headers, pipeline);
  return errorReply(operationsAt(pipeline, version, template, method).onPath, error);
}

/**
 * The operations of a path in a version: the method's (`op`), and the one whose documents give the
 * form of the path's errors (`onPath`: the method's, else another on the path for a wrong method).
 */
function operationsAt(pipeline: Pipeline, version: string, template: string, method: string) {
  const byMethod = pipeline.bundles.get(version)!.operationsByPath.get(template);
  const op = byMethod?.get(method);
  return { byMethod, op, onPath: op ?? byMethod?.values().next().value };
}

/**
 * An error the HTTP layer answers (a timeout, an unparseable request): in the form of the path of
 * the request it cut short, when there was one, else in the short shape.
 */
export function httpLayerError(
  pipeline: Pipeline,
  status: 400 | 408,
  message: string,
  request: IncomingMessage | undefined,
): ErrorAnswer {
  const error = new ApiError(status, message, status === 408 ? "request_timeout" : "bad_request", {}, true);
  if (!request) return errorReply(undefined, error);
  const [path = "/"] = originForm(request.url).split("?", 1);
  return errorOnPath(pipeline, request.method ?? "GET", path, request.headers, error);
}

/** The version a request names, else the default (with the error of a header naming none). */
function chooseVersion(
  headers: IncomingHttpHeaders,
  { bundles, defaultVersion, state: { echo } }: Pipeline,
): { version: string; defaulted?: boolean; error?: ApiError } {
  const header = headers[VERSION_HEADER];
  if (header === undefined) return { version: defaultVersion, defaulted: true };
  if (typeof header === "string" && bundles.has(header)) return { version: header };
  const got = echo.quotedIfShort(String(header));
  return {
    version: defaultVersion,
    error: new ApiError(
      400,
      `header X-Platform-Version must be one of ${[...bundles.keys()].join(", ")} (got ${got})`,
      "bad_request",
    ),
  };
}

// Node's own test for the one expectation HTTP/1.1 defines (RFC 9110, 10.1.1), which it meets itself.
const CONTINUE_EXPECTATION = /(?:^|\W)100-continue(?:$|\W)/i;

/** The answer to an `Expect` the sandbox cannot meet. */
function expectationFailed(expectation: string, echo: InputEcho): ApiError {
  const message = `header Expect asks for ${echo.quoted(expectation)}, which the sandbox cannot meet; it meets only 100-continue`;
  return new ApiError(417, message, "expectation_failed", {}, true);
}

/** An `Expect` header value other than 100-continue, which the sandbox cannot meet. */
function unmetExpectation(headers: IncomingHttpHeaders): string | undefined {
  const expect = headers.expect;
  return expect === undefined || CONTINUE_EXPECTATION.test(expect) ? undefined : expect;
}
