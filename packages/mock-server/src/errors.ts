/** Errors in the shape and media type each operation documents. */
import { randomUUID } from "node:crypto";
import type { ErrorResponseInfo, OperationInfo } from "./bundle.js";

/** Thrown by handlers and checks; turned into the operation's documented error response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName: string,
    readonly headers: Record<string, string> = {},
    /** True for answers outside any operation (unknown path, wrong method): short shape, status kept. */
    readonly outside = false,
  ) {
    super(message);
  }
}

/** The short shape in JSON, for answers outside any operation (unknown path, wrong method). */
export const SHORT_JSON: ErrorResponseInfo = { mediaType: "application/json", extended: false };

/**
 * The status and documented response of this operation for an error of `status`: the status itself
 * when the operation documents it (exactly, as `NXX` or as `default`), else its 400 (`400`, `4XX`).
 */
export function documentedError(
  op: OperationInfo,
  status: number,
): { status: number; info: ErrorResponseInfo } {
  const documented =
    op.errors.get(String(status)) ?? op.errors.get(`${String(status)[0]}XX`) ?? op.errors.get("default");
  if (documented) return { status, info: documented };
  return { status: 400, info: op.errors.get("400") ?? op.errors.get("4XX") ?? SHORT_JSON };
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
