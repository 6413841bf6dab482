/** Errors in the shape and media type the operations of their path document. */
import { randomUUID } from "node:crypto";
import type { ErrorResponseInfo, OperationInfo } from "./bundle.js";
import { ISSUED_TOKEN } from "./tokens.js";

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

/** Longest piece of request input an error message repeats. */
const ECHO_LIMIT = 100;
/** Longest value repeated of a header that may carry a credential sent in the wrong place. */
const SHORT_ECHO_LIMIT = 16;
const REDACTED = "[redacted]";

/**
 * How error messages repeat request input (a path, a parameter's name or value, a body member's
 * name, a header value), decided here only. The clients' secrets, as sent or percent-encoded, and
 * anything of the form of an issued token become `[redacted]`, before the cut, so that no part of
 * them shows; then the input is repeated whole up to 100 characters, else its start and its length.
 */
export class InputEcho {
  private readonly secrets: readonly string[];

  constructor(secrets: readonly string[]) {
    const forms = secrets.flatMap((secret) => [secret, ...percentEncodings(secret)]);
    // Longest first, so that a secret containing another is redacted whole.
    this.secrets = [...new Set(forms)].filter((form) => form !== "").sort((a, b) => b.length - a.length);
  }

  /** The input as a message repeats it, unquoted (a path, a name). */
  text(input: string): string {
    const shown = this.redacted(input);
    return shown.length <= ECHO_LIMIT ? shown : `${shown.slice(0, ECHO_LIMIT)}${cutNote(input)}`;
  }

  /** The input as a JSON string (a value), the note of a cut after the quotes. */
  quoted(input: string): string {
    const shown = this.redacted(input);
    return shown.length <= ECHO_LIMIT
      ? JSON.stringify(shown)
      : `${JSON.stringify(shown.slice(0, ECHO_LIMIT))}${cutNote(input)}`;
  }

  /**
   * A header value that may be a credential sent in the wrong header: quoted when short, else only
   * its length (no part of it).
   */
  quotedIfShort(input: string): string {
    if (input.length > SHORT_ECHO_LIMIT) return `a value of ${input.length} characters`;
    return JSON.stringify(this.redacted(input));
  }

  private redacted(input: string): string {
    let shown = input.replace(ISSUED_TOKEN, REDACTED);
    for (const secret of this.secrets) if (shown.includes(secret)) shown = shown.replaceAll(secret, REDACTED);
    return shown;
  }
}

/**
 * The ways a client may percent-encode a secret in a path or a query: either letter case of the hex
 * digits, and a space as `+` (a form's encoding of a query).
 */
function percentEncodings(secret: string): string[] {
  const upper = encodeURIComponent(secret);
  const lower = upper.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());
  return [upper, lower].flatMap((form) => [form, form.replaceAll("%20", "+")]);
}

function cutNote(input: string): string {
  return `… (cut; ${input.length} characters in all)`;
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
