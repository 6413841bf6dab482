/**
 * One request through the sandbox: its path matched against the bundles' paths, then the same steps
 * for every request: version choice, the operation's checks (checks.ts), its handler, then paging
 * by its `x-cdas-pagination` (replies.ts). Every failure becomes its documented error.
 */
import type { IncomingHttpHeaders, IncomingMessage, RequestListener } from "node:http";
import { parse as parseQuery } from "fast-querystring";
import { type OperationInfo, VERSION_HEADER, type VersionBundle } from "./bundle.js";
import { runOperation } from "./checks.js";
import { ApiError } from "./errors.js";
import type { SandboxState } from "./handlers.js";
import { errorReply, type Reply, resultReply } from "./replies.js";
import type { Routes } from "./routes.js";
import { hasBody, readBody, writeResponse } from "./transport.js";

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

/** The request listener: route, read the body when there is one, run the pipeline, write the reply. */
export function requestListener(
  pipeline: Pipeline,
  onResponse?: (entry: RequestLogEntry) => void,
): RequestListener {
  return (request, response) => {
    const started = onResponse ? performance.now() : 0;
    const method = request.method ?? "GET";
    let url = request.url ?? "/";
    if (url.charCodeAt(0) !== 47) url = url.replace(ABSOLUTE_FORM, "") || "/";
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
      respond(errorReply(undefined, error));
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

/** The request's parts once its Host is checked and its path routed; throws the short-shape error otherwise. */
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
  if (!route) throw new ApiError(404, `no operation at ${method} ${path}`, "not_found", {}, true);
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

/** Version choice, then the operation's checks and handler; every failure becomes its documented error. */
function handleRequest(pipeline: Pipeline, request: RequestParts): Reply {
  const { bundles, defaultVersion } = pipeline;
  const { method, template } = request;
  let op: OperationInfo | undefined;
  let served: string | undefined;
  let reply: Reply;
  try {
    const version = chooseVersion(request.headers, bundles, defaultVersion);
    if (!version.error) served = version.version;
    const byMethod = bundles.get(version.version)!.operationsByPath.get(template);
    op = byMethod?.get(method);
    if (!op) {
      const allowed = [...(byMethod?.keys() ?? [])].join(", ");
      const message = `method ${method} is not allowed on ${template}; use ${allowed}`;
      throw new ApiError(405, message, "method_not_allowed", { allow: allowed }, true);
    }
    if (version.error) throw version.error;
    if (request.body === null)
      throw new ApiError(400, "request body is too large", "bad_request", { connection: "close" });
    if (version.defaulted && op.versionHeaderRequired) {
      const message = `header X-Platform-Version is required on ${method} ${template} in ${op.version}`;
      throw new ApiError(400, message, "bad_request");
    }
    reply = resultReply(op, request, runOperation(op, request, pipeline.state));
  } catch (error) {
    reply = errorReply(op ?? operationForErrors(bundles, defaultVersion, method, template), error);
  }
  reply.version = served;
  return reply;
}

/** The operation whose documented errors shape an answer when the request named no valid one. */
function operationForErrors(
  bundles: Map<string, VersionBundle>,
  version: string,
  method: string,
  path: string,
): OperationInfo | undefined {
  const byMethod = bundles.get(version)!.operationsByPath.get(path);
  return byMethod?.get(method) ?? byMethod?.values().next().value;
}

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
