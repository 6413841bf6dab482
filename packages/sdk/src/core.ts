/** Builds an SDK from one version's client factory and pagination map (version-agnostic). */
import type { Client, ClientOptions } from "openapi-fetch";
import type { FetchLike } from "./attempt.js";
import { CdasError } from "./errors.js";
import { createPaginator, type PaginateOptions, type PaginationSpec, type Paginator } from "./paginate.js";
import { apiError, createTransport } from "./transport.js";

export const SDK_USER_AGENT = "cdas-sdk/0.1.0";

export interface SdkOptions<V extends string = string> {
  /** API version: decides the types and the X-Platform-Version header. */
  version: V;
  /** https address of the service (plain http only for loopback with `allowInsecureLoopback`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** A custom fetch, called with a Request and an init whose `signal` (deadline, caller's abort) it must honour. */
  fetch?: FetchLike;
  /** Deadline of one attempt, body included (default 30000; met to within a quarter of it). */
  timeoutMs?: number;
  /** Retries of reads and of the token call (default 2). */
  maxRetries?: number;
  /** First backoff step (default 250 ms). */
  retryBaseDelayMs?: number;
  /** Cap of every wait between attempts, Retry-After included (default 20000 ms). */
  maxRetryDelayMs?: number;
  /** Appended to the User-Agent. */
  userAgent?: string;
  /** Allow plain http when the host is loopback (127.0.0.0/8, ::1, localhost). */
  allowInsecureLoopback?: boolean;
}

export interface VersionDefinition {
  // biome-ignore lint/suspicious/noExplicitAny: each version narrows this through Sdk<V>.
  createClient: (options: ClientOptions) => Client<any>;
  pagination: Readonly<Record<string, PaginationSpec>>;
}

export interface SdkCore {
  readonly version: string;
  readonly baseUrl: string;
  readonly clientId: string;
  // biome-ignore lint/suspicious/noExplicitAny: narrowed by Sdk<V>.
  readonly client: Client<any>;
  paginate(path: string, init?: unknown, options?: PaginateOptions): Paginator<unknown, unknown>;
}

export function buildSdk(definition: VersionDefinition, options: SdkOptions): SdkCore {
  const { version, clientId } = options;
  if (typeof version !== "string" || version === "") invalid("version is required");
  if (typeof clientId !== "string" || clientId === "") invalid("clientId must be a non-empty string");
  // The secret lives only in these two closures: never on an object the SDK returns or throws.
  const secret = options.clientSecret;
  if (typeof secret !== "string" || secret === "") invalid("clientSecret must be a non-empty string");
  const redact = secretRedactor(secret);
  const tokenBody = () => JSON.stringify({ client_id: clientId, client_secret: secret });

  const baseUrl = checkBaseUrl(options.baseUrl, options.allowInsecureLoopback === true);
  const suffix = options.userAgent;
  if (suffix !== undefined && (typeof suffix !== "string" || /[\r\n]/.test(suffix))) {
    invalid("userAgent must be a single-line string");
  }
  const userAgent = suffix ? `${SDK_USER_AGENT} ${suffix}` : SDK_USER_AGENT;
  const fetchImpl = options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init));
  const transport = createTransport({
    fetch: fetchImpl,
    baseUrl,
    version,
    clientId,
    userAgent,
    timeoutMs: positive("timeoutMs", options.timeoutMs, 30_000),
    retry: {
      maxRetries: Math.floor(nonNegative("maxRetries", options.maxRetries, 2)),
      baseDelayMs: nonNegative("retryBaseDelayMs", options.retryBaseDelayMs, 250),
      maxDelayMs: nonNegative("maxRetryDelayMs", options.maxRetryDelayMs, 20_000),
    },
    redact,
    tokenBody,
  });

  // The SDK's headers and the bearer come with the transport's Request class, the rest with its fetch;
  // the version client's own X-Platform-Version default is unset here (null unsets in openapi-fetch),
  // since the Request class sends it. (Not middleware: openapi-fetch's middleware machinery alone costs
  // about 15% of a request.)
  const client = definition.createClient({
    baseUrl,
    fetch: transport.fetch,
    Request: transport.Request,
    headers: { "X-Platform-Version": null },
  });

  const paginatorContext = {
    get: (path: string, init: unknown) => client.GET(path as never, init as never),
    send: transport.fetch,
    Request: transport.Request,
    baseUrl,
    toApiError: (body: unknown, response: Response, url: string) =>
      apiError(
        response,
        "GET",
        url,
        typeof body === "string" ? body : body === undefined ? "" : (JSON.stringify(body) ?? ""),
        redact,
      ),
  };

  return {
    version,
    baseUrl,
    clientId,
    client,
    paginate(path, init, paginateOptions) {
      const spec = definition.pagination[path];
      if (!spec) invalid(`${path} is not a list operation of ${version}`);
      return createPaginator(paginatorContext, path, spec, init as never, paginateOptions);
    },
  };
}

function invalid(message: string): never {
  throw new CdasError("invalid_options", message);
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value))
    invalid(`${name} must be a positive number`);
  return value;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value >= 0) || !Number.isFinite(value)) {
    invalid(`${name} must be a non-negative number`);
  }
  return value;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** https only; plain http only for a loopback host when the caller opted in. */
export function checkBaseUrl(raw: string, allowInsecureLoopback: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    invalid("baseUrl is not an absolute URL (expected https://host[:port][/path])");
  }
  if (url.username || url.password) invalid("baseUrl must not carry credentials");
  if (url.search || url.hash) invalid("baseUrl must not have a query or a fragment");
  if (url.protocol === "http:" && LOOPBACK_HOST.test(url.hostname)) {
    if (!allowInsecureLoopback) {
      invalid(
        `baseUrl uses plain http on loopback host ${url.hostname}; pass allowInsecureLoopback: true to allow it (for local testing only)`,
      );
    }
  } else if (url.protocol !== "https:") {
    invalid(`baseUrl must use https (got ${url.protocol.replace(":", "")}); the service rejects plain http`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** Replaces the secret (raw, JSON-escaped and URL-encoded) in text that may reach an error. */
function secretRedactor(secret: string): (text: string) => string {
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
  return (text) => {
    let result = text;
    for (const form of forms) if (result.includes(form)) result = result.split(form).join("[redacted]");
    return result;
  };
}
