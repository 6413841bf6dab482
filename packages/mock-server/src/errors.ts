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

/** The documented response of this operation for a status: exact code, then `4XX`, then `default`, then its 400. */
export function errorResponseFor(op: OperationInfo | undefined, status: number): ErrorResponseInfo {
  if (!op) return SHORT_JSON;
  const family = `${String(status)[0]}XX`;
  return (
    op.errors.get(String(status)) ??
    op.errors.get(family) ??
    op.errors.get("default") ??
    op.errors.get("400") ??
    op.errors.get("4XX") ??
    SHORT_JSON
  );
}

/** The status the operation documents for this condition: the status itself when documented, else 400. */
export function documentedStatus(op: OperationInfo | undefined, status: number): number {
  if (!op) return status;
  if (op.errors.has(String(status)) || op.errors.has(`${String(status)[0]}XX`) || op.errors.has("default"))
    return status;
  return 400;
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
