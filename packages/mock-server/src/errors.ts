/** Errors in the shape and media type the operations of their path document. */
import { randomUUID } from "node:crypto";
import type { ErrorResponseInfo, OperationInfo } from "./bundle.js";

/** Thrown by handlers and checks; turned into the documented error response of the path's operation. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName: string,
    readonly headers: Record<string, string> = {},
    /**
     * True for answers of the HTTP layer rather than of an operation (unknown path, wrong method,
     * unreadable path, timeout): the status is kept, and only the form comes from the path's operation.
     */
    readonly outside = false,
  ) {
    super(message);
  }
}

/** The short shape in JSON, for errors on a path no operation is on (and before any path is known). */
const SHORT_JSON: ErrorResponseInfo = { mediaType: "application/json", extended: false };

/**
 * The status and documented form (media type and shape) of an error of `status` on an operation's
 * path: the form documented for the status (exactly, as `NXX` or as `default`), else that of its 400.
 * An operation's own error of an undocumented status becomes its 400; one of the HTTP layer
 * (`outside`) keeps its status. Without an operation, the short shape in JSON.
 */
export function documentedError(
  op: OperationInfo | undefined,
  status: number,
  outside = false,
): { status: number; info: ErrorResponseInfo } {
  if (!op) return { status, info: SHORT_JSON };
  const documented =
    op.errors.get(String(status)) ?? op.errors.get(`${String(status)[0]}XX`) ?? op.errors.get("default");
  if (documented) return { status, info: documented };
  const badRequest = op.errors.get("400") ?? op.errors.get("4XX") ?? SHORT_JSON;
  return { status: outside ? status : 400, info: badRequest };
}

/** Longest piece of request input (a path) an error message repeats. */
const ECHO_LIMIT = 100;

/** Request input as an error message repeats it: whole when short, else its start and its length. */
export function echoed(text: string): string {
  return text.length <= ECHO_LIMIT
    ? text
    : `${text.slice(0, ECHO_LIMIT)}… (cut; ${text.length} characters in all)`;
}

export function errorBody(
  info: ErrorResponseInfo,
  message: string,
  name: string,
  status: number,
): Record<string, unknown> {
  const body: Record<string, unknown> = { id: randomUUID(), message, name };
  if (info.extended) {
    body.fault = status >= 500;
    body.temporary = status >= 500;
    body.timeout = false;
  }
  return body;
}
