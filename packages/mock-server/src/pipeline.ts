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
import { ApiError, echoed } from "./errors.js";
import type { SandboxState } from "./handlers.js";
import { errorReply, type Reply, resultReply } from "./replies.js";
import type { Routes } from "./routes.js";
import { type ErrorAnswer, hasBody, readBody, writeResponse } from "./transport.js";

export interface Pipeline {
  routes: Routes;
  bundles: Map<string, VersionBundle>;
  defaultVersion: string;
  state: SandboxState;
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
  /** Text of the body; undefined without one, null when it was over the size limit. */
  body: string | undefined | null;
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
    const started = onResponse ? performance.now() : 0;
    const method = request.method ?? "GET";
    const url = originForm(request.url);
    const queryStart = url.indexOf("?");
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const respond = (reply: Reply) => {
      writeResponse(response, reply.status, reply.mediaType, reply.body, reply.headers);
      if (!onResponse) return;
      const { status, version } = reply;
      onResponse({ method, path, status, version, milliseconds: performance.now() - started });
    };

    let parts: RequestParts;
    try {
      parts = matchRequest(pipeline, request, method, path, url, queryStart);
    } catch (error) {
      respond(errorOnPath(pipeline, method, path, request.headers, error));
      return;
    }
    if (!hasBody(request)) {
      respond(handleRequest(pipeline, parts));
      return;
    }
    readBody(request)
      .then((body) => {
        parts.body = body;
        respond(handleRequest(pipeline, parts));
      })
      // handleRequest turns every failure into a reply; this only guards the write to a socket gone bad.
      .catch(() => response.destroy());
  };
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
  if (!route) throw new ApiError(404, `no operation at ${method} ${echoed(path)}`, "not_found", {}, true);
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
  const version = chooseVersion(headers, pipeline.bundles, pipeline.defaultVersion);
  const { byMethod, op, onPath } = operationsAt(pipeline, version.version, template, method);
  let reply: Reply;
  try {
    if (request.body === null)
      throw new ApiError(400, "request body is too large", "bad_request", { connection: "close" });
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
  const { version } = chooseVersion(headers, pipeline.bundles, pipeline.defaultVersion);
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
  bundles: Map<string, VersionBundle>,
  defaultVersion: string,
): { version: string; defaulted?: boolean; error?: ApiError } {
  const header = headers[VERSION_HEADER];
  if (header === undefined) return { version: defaultVersion, defaulted: true };
  if (typeof header === "string" && bundles.has(header)) return { version: header };
  // Echoed only when short: a long value may be a credential sent in the wrong header.
  const value = String(header);
  const got = value.length <= 16 ? JSON.stringify(value) : `a value of ${value.length} characters`;
  return {
    version: defaultVersion,
    error: new ApiError(
      400,
      `header X-Platform-Version must be one of ${[...bundles.keys()].join(", ")} (got ${got})`,
      "bad_request",
    ),
  };
}
