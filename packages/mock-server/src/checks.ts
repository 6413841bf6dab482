/** The checks of one request: its credentials, then (once the operation is known) parameters, then the body. */
import type { IncomingHttpHeaders } from "node:http";
import { describeValidationError, type OperationInfo } from "./bundle.js";
import { ApiError, type InputEcho } from "./errors.js";
import { type HandlerContext, type HandlerResult, handlers, type SandboxState } from "./handlers.js";
import type { TokenStore } from "./tokens.js";

// Query numbers are plain decimal literals: no hex, no blanks, no empty value (Ajv coercion would take them).
const INTEGER_TEXT = /^-?\d{1,16}$/;
const NUMBER_TEXT = /^-?(\d{1,16}(\.\d{1,16})?|\.\d{1,16})$/;
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
const NO_SCOPES: ReadonlySet<string> = new Set();

/** What the checks read of a request. */
interface CheckedRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** Text of the body; undefined without one. */
  body: string | undefined;
}

/**
 * Checks the parameters and the body, then runs the operation's handler (synchronously: no await per
 * request). The credentials (`checkCredentials`) are checked before, by the pipeline, in its order.
 */
export function runOperation(
  op: OperationInfo,
  request: CheckedRequest,
  scopes: ReadonlySet<string>,
  state: SandboxState,
): HandlerResult {
  const { echo } = state;
  const { query, params } = checkParameters(op, request, echo);
  const body = op.hasBody ? parseBody(op, request, echo) : undefined;
  const asked = askedFailure(op, request.headers.prefer, echo);
  if (asked !== undefined)
    throw new ApiError(asked, `the failure asked for with Prefer: code=${asked}`, failureName(asked));
  const handler = handlers[op.operationId];
  if (!handler)
    throw new ApiError(404, `operation ${op.operationId} is not implemented by the sandbox`, "not_found");
  const context: HandlerContext = { op, query, params, body, scopes, state };
  return handler(context);
}

/**
 * The scopes of the bearer; a 401 when the security needs one that is missing, unknown, expired or
 * short of one of its scopes.
 */
export function checkCredentials(
  security: OperationInfo["security"],
  authorization: string | undefined,
  tokens: TokenStore,
): ReadonlySet<string> {
  if (!security) return NO_SCOPES;
  const check = tokens.check(authorization);
  if (!check.ok) {
    if (security.optional && check.reason === "missing") return NO_SCOPES;
    const message =
      check.reason === "expired"
        ? "token has expired; request a new one"
        : check.reason === "missing"
          ? "missing bearer token in the Authorization header"
          : "invalid bearer token";
    throw new ApiError(401, message, "unauthorized");
  }
  const missingScope = security.scopes.find((scope) => !check.scopes.has(scope));
  if (missingScope) throw new ApiError(401, `token lacks the scope ${missingScope}`, "unauthorized");
  return check.scopes;
}

/** Query, path and header parameters validated against the bundle, with the query's defaults filled in. */
function checkParameters(
  op: OperationInfo,
  request: CheckedRequest,
  echo: InputEcho,
): { query: Record<string, unknown>; params: Record<string, unknown> } {
  const rawQuery = request.query;
  for (const name in rawQuery) {
    const value = rawQuery[name];
    if (Array.isArray(value))
      throw new ApiError(400, `parameter ${echo.text(name)} is repeated; give it once`, "bad_request");
    if (value === "" && op.requiredQuery.has(name))
      throw new ApiError(400, `parameter ${name} must not be empty`, "bad_request");
  }
  for (const [name, type] of op.numericQuery) {
    const value = rawQuery[name];
    if (typeof value === "string" && !(type === "integer" ? INTEGER_TEXT : NUMBER_TEXT).test(value)) {
      const plain = type === "integer" ? "whole number such as 25" : "decimal such as 12.5 or -0.01";
      const message = `parameter ${name} must be of type ${type}, written as a plain ${plain} (got ${echo.quoted(value)})`;
      throw new ApiError(400, message, "invalid_field_type");
    }
  }
  const query: Record<string, unknown> = { ...rawQuery };
  if (!op.validateQuery(query)) throw validationError(op.validateQuery.errors![0]!, "query", echo);
  const params: Record<string, unknown> = { ...request.params };
  if (op.validatePath && !op.validatePath(params))
    throw validationError(op.validatePath.errors![0]!, "path", echo);
  if (op.validateHeaders && !op.validateHeaders({ ...request.headers }))
    throw validationError(op.validateHeaders.errors![0]!, "header", echo);
  for (const [name, value] of op.defaults)
    if (query[name] === undefined && name in query === false) query[name] = value;
  return { query, params };
}

/** The JSON body, validated against the bundle; undefined when there is none and none is required. */
function parseBody(op: OperationInfo, request: CheckedRequest, echo: InputEcho): unknown {
  const raw = request.body;
  if (raw === undefined || raw.length === 0) {
    if (op.bodyRequired) throw new ApiError(400, "request body is required (JSON)", "bad_request");
    return undefined;
  }
  if (!JSON_MEDIA_TYPE.test(String(request.headers["content-type"] ?? ""))) {
    throw new ApiError(400, "header content-type must be application/json", "bad_request");
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ApiError(400, "request body is not valid JSON", "bad_request");
  }
  if (op.validateBody && !op.validateBody(body))
    throw validationError(op.validateBody.errors![0]!, "body", echo);
  if (op.bodyProperties && body && typeof body === "object" && !Array.isArray(body)) {
    const unknown = Object.keys(body).find((key) => !op.bodyProperties!.has(key));
    if (unknown !== undefined)
      throw new ApiError(400, `body field ${echo.text(unknown)} is not allowed here`, "bad_request");
  }
  return body;
}

function validationError(
  error: Parameters<typeof describeValidationError>[0],
  location: "query" | "path" | "header" | "body",
  echo: InputEcho,
): ApiError {
  const described = describeValidationError(error, location, echo);
  return new ApiError(400, described.message, described.name);
}

// `Prefer: code=500` (Prism's convention): a valid request answered with an error status the operation
// documents, in its documented form, so that a caller's handling of it (retries, renewal) can be tried.
const PREFER_CODE = /(?:^|[\s,;])code\s*=\s*"?([^",;\s]*)"?/i;

/** The error status `Prefer: code=` asks for, when the operation documents it (exactly or as `NXX`). */
function askedFailure(
  op: OperationInfo,
  prefer: string | string[] | undefined,
  echo: InputEcho,
): number | undefined {
  const asked = prefer === undefined ? undefined : PREFER_CODE.exec(String(prefer))?.[1];
  if (asked === undefined) return undefined;
  const documented = [...op.errors.keys()].filter((status) => /^[45]/.test(status));
  const status = Number(asked);
  if (/^[45]\d\d$/.test(asked) && (op.errors.has(asked) || op.errors.has(`${asked[0]}XX`))) return status;
  if (/^2\d\d$/.test(asked)) return undefined;
  const message = `header Prefer asks for code=${echo.quoted(asked)}, which ${op.method.toUpperCase()} ${op.path} does not document; it documents ${documented.join(", ")} (and its success)`;
  throw new ApiError(400, message, "bad_request");
}

/** The error `name` an asked-for failure carries, as the sandbox's own errors of that status do. */
function failureName(status: number): string {
  if (status >= 500) return "fault";
  return { 401: "unauthorized", 404: "not_found", 429: "too_many_requests" }[status] ?? "bad_request";
}
