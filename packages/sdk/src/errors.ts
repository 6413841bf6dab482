/** Typed errors of the SDK. Guards use a global symbol so they work across ESM/CJS copies. */

const API_ERROR_BRAND = Symbol.for("@cdas/sdk/CdasApiError");
const ERROR_BRAND = Symbol.for("@cdas/sdk/CdasError");

/** Why a call failed without a usable HTTP answer (`api` is any non-2xx answer). */
export type CdasErrorCode =
  | "api"
  | "network"
  | "timeout"
  | "invalid_response"
  | "pagination_loop"
  | "invalid_options";

/** Base class of every error the SDK throws. */
export class CdasError extends Error {
  readonly code: CdasErrorCode;

  constructor(code: CdasErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    if (this.name === "Error") this.name = "CdasError";
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}
Object.defineProperty(CdasError.prototype, ERROR_BRAND, { value: true });

/** Fields of the two documented error bodies (short and extended). */
export interface CdasErrorBody {
  id?: string;
  name?: string;
  message?: string;
  fault?: boolean;
  temporary?: boolean;
  timeout?: boolean;
}

export interface CdasApiErrorInit {
  status: number;
  method: string;
  url: string;
  /** The parsed JSON body, or the raw text when the body is not JSON. */
  body: unknown;
  /** Set when the body is not JSON. */
  rawBody?: string;
  retryAfterMs?: number;
}

/**
 * A non-2xx answer. `name` is the API's error name (`bad_request`, ...) when the body has one,
 * otherwise "CdasApiError"; `message` is the API's message when present.
 */
export class CdasApiError extends CdasError {
  readonly status: number;
  readonly id: string | undefined;
  readonly fault: boolean | undefined;
  readonly temporary: boolean | undefined;
  readonly timeout: boolean | undefined;
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  readonly rawBody: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: CdasApiErrorInit) {
    const fields = errorFields(init.body);
    super("api", fields.message ?? describeStatus(init));
    this.name = fields.name ?? "CdasApiError";
    this.status = init.status;
    this.id = fields.id;
    this.fault = fields.fault;
    this.temporary = fields.temporary;
    this.timeout = fields.timeout;
    this.method = init.method;
    this.url = init.url;
    this.body = init.body;
    this.rawBody = init.rawBody;
    this.retryAfterMs = init.retryAfterMs;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      id: this.id,
      fault: this.fault,
      temporary: this.temporary,
      timeout: this.timeout,
      method: this.method,
      url: this.url,
    };
  }
}
Object.defineProperty(CdasApiError.prototype, API_ERROR_BRAND, { value: true });

/** True for every error thrown by the SDK. */
export function isCdasError(value: unknown): value is CdasError {
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ERROR_BRAND] === true
  );
}

/** True for a non-2xx answer turned into an error by the SDK. */
export function isCdasApiError(value: unknown): value is CdasApiError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[API_ERROR_BRAND] === true
  );
}

function describeStatus({ status, method, url, rawBody }: CdasApiErrorInit): string {
  const path = safePath(url);
  const suffix = rawBody
    ? ` (non-JSON body: ${rawBody.length > 120 ? `${rawBody.slice(0, 120)}…` : rawBody})`
    : "";
  return `${method} ${path} answered HTTP ${status}${suffix}`;
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** Picks the documented fields, each only when it has the documented type. */
export function errorFields(body: unknown): CdasErrorBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const record = body as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === "string" ? (record[key] as string) : undefined);
  const flag = (key: string) => (typeof record[key] === "boolean" ? (record[key] as boolean) : undefined);
  return {
    id: text("id"),
    name: text("name"),
    message: text("message"),
    fault: flag("fault"),
    temporary: flag("temporary"),
    timeout: flag("timeout"),
  };
}

/**
 * Parses an error body whatever its media type claims (JSON, `application/vnd.goa.error`, or a
 * wrong one): JSON objects become the body, anything else is kept as raw text.
 */
export function parseErrorText(text: string): { body: unknown; rawBody?: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { body: JSON.parse(trimmed) };
    } catch {
      // not JSON after all
    }
  }
  return { body: text, rawBody: text };
}

/** Reads `Retry-After` (delta seconds or an HTTP date) as milliseconds from now. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
