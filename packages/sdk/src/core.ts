/** Builds an SDK from one version's client factory and pagination map (version-agnostic). */
import type { Client, ClientOptions, Middleware } from "openapi-fetch";
import { version } from "../package.json";
import { JSON_MEDIA_TYPE, PATH_PREFIX, VERSION_HEADER } from "./api.js";
import {
  bodyReadError,
  failedInCallersCode,
  invalidOptions,
  isObject,
  keptApiError,
  LONGEST_TIMER_MS,
  refuseUnknownOptions,
  unreadableOptions,
} from "./errors.js";
import { createPaginator, type PaginateOptions, type PaginationSpec, type Paginator } from "./paginate.js";
import { type Redact, redactError, secretRedactor, textOf } from "./redact.js";
import { HEADER_TEXT, withUrl } from "./response.js";
import { followAbort } from "./signals.js";
import {
  type CallContext,
  type CallLimits,
  createTransport,
  type FetchLike,
  newCallContext,
  type Transport,
} from "./transport.js";

/** `cdas-sdk/<version of this package>`, the version read from package.json when the SDK is built. */
const SDK_USER_AGENT = `cdas-sdk/${version}`;

/**
 * Bun's fetch, once a compressed body is cancelled, inflates the rest of it whole (a 1 GiB bomb grows
 * the process by 1 GiB): on Bun the default fetch takes bodies as sent (`decompress: false`, Bun's own
 * option) and the SDK inflates them within `maxResponseBytes` itself. So told, Bun asks for no coding:
 * the SDK asks for those Bun's own fetch asks for, which it undoes (response.ts).
 */
const IS_BUN = "Bun" in globalThis;
const BUN_ACCEPT_ENCODING = "gzip, deflate, br, zstd";
const defaultFetch: FetchLike = IS_BUN
  ? (input, init) => {
      if (!input.headers.has("accept-encoding")) input.headers.set("accept-encoding", BUN_ACCEPT_ENCODING);
      return globalThis.fetch(input, Object.assign({ ...init }, { decompress: false }));
    }
  : (input, init) => globalThis.fetch(input, init);

/**
 * The default of each optional `SdkOptions` number and flag, the one place they are written (names and
 * types checked against `SdkOptions`); frozen, as every `createSdk` reads them. `maxResponseBytes`,
 * 32 MiB, is room for a page of 1,000 detailed records many times over.
 */
export const DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  maxResponseBytes: 32 * 1024 * 1024,
  maxRetries: 2,
  retryBaseDelayMs: 250,
  maxRetryDelayMs: 20_000,
  allowInsecureLoopback: false,
} satisfies Partial<SdkOptions>);

/** The options `createSdk` fills in when they are left out: the type of `DEFAULTS`. */
export type SdkDefaults = typeof DEFAULTS;

/** Default of `maxResponseBytes` (kept for code that imports it by this name): `DEFAULTS.maxResponseBytes`. */
export const DEFAULT_MAX_RESPONSE_BYTES = DEFAULTS.maxResponseBytes;

export interface SdkOptions<V extends string = string> {
  /** API version: decides the types and the X-Platform-Version header. */
  version: V;
  /** https address of the service (plain http only for loopback with `allowInsecureLoopback`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** A custom fetch, called with a Request and an init whose `signal` (deadline, caller's abort) it must honour. */
  fetch?: FetchLike | undefined;
  /** Deadline of one attempt, reading the body included (default {@link DEFAULTS}.timeoutMs). */
  timeoutMs?: number | undefined;
  /** Largest body read, counted once decoded (default {@link DEFAULTS}.maxResponseBytes); past it the call fails and the body is cancelled. */
  maxResponseBytes?: number | undefined;
  /** Retries of reads and of the token call (default {@link DEFAULTS}.maxRetries). */
  maxRetries?: number | undefined;
  /** First backoff step, in ms (default {@link DEFAULTS}.retryBaseDelayMs). */
  retryBaseDelayMs?: number | undefined;
  /** Cap of every wait between attempts, Retry-After included, in ms (default {@link DEFAULTS}.maxRetryDelayMs). */
  maxRetryDelayMs?: number | undefined;
  /** Appended to the User-Agent. */
  userAgent?: string | undefined;
  /** Allow plain http when the host is loopback (127.0.0.0/8, ::1, localhost); default {@link DEFAULTS}.allowInsecureLoopback. */
  allowInsecureLoopback?: boolean | undefined;
}

export interface VersionDefinition {
  /** The version's openapi-fetch client; the SDK calls it untyped (`Sdk<V>` types what it hands out). */
  createClient: (options: ClientOptions) => object;
  pagination: Readonly<Record<string, PaginationSpec>>;
}

export interface SdkCore {
  readonly version: string;
  readonly baseUrl: string;
  readonly clientId: string;
  // biome-ignore lint/suspicious/noExplicitAny: narrowed by Sdk<V>.
  readonly client: Client<any>;
  paginate(path: string, init?: unknown, options?: PaginateOptions): Paginator<unknown, unknown>;
  withOptions(options: SdkCallOptions): SdkCore;
}

/** An unpaired UTF-16 surrogate (`String.prototype.isWellFormed` is ES2024). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The options `withOptions` changes: what bounds each call of the SDK it returns. */
export type SdkCallOptions = Pick<
  SdkOptions,
  "timeoutMs" | "maxResponseBytes" | "maxRetries" | "retryBaseDelayMs" | "maxRetryDelayMs"
>;

/** Every option of `SdkCallOptions`, so that a misspelt one is refused rather than ignored (the compiler keeps this whole). */
const CALL_OPTION_NAMES: Record<keyof SdkCallOptions, true> = {
  timeoutMs: true,
  maxResponseBytes: true,
  maxRetries: true,
  retryBaseDelayMs: true,
  maxRetryDelayMs: true,
};
/** Every option of `SdkOptions`, as above. */
const OPTION_NAMES: Record<keyof SdkOptions, true> = {
  version: true,
  baseUrl: true,
  clientId: true,
  clientSecret: true,
  fetch: true,
  ...CALL_OPTION_NAMES,
  userAgent: true,
  allowInsecureLoopback: true,
};

/** `DEFAULTS` as the transport reads them. */
const DEFAULT_LIMITS: CallLimits = {
  timeoutMs: DEFAULTS.timeoutMs,
  maxResponseBytes: DEFAULTS.maxResponseBytes,
  retry: {
    maxRetries: DEFAULTS.maxRetries,
    baseDelayMs: DEFAULTS.retryBaseDelayMs,
    maxDelayMs: DEFAULTS.maxRetryDelayMs,
  },
};

/** The options checked, each wrong one named, and filled in with their defaults. */
interface CheckedOptions {
  definition: VersionDefinition;
  version: string;
  clientId: string;
  clientSecret: string;
  baseUrl: string;
  headers: Record<string, string>;
  fetch: FetchLike;
  inflates: boolean;
  limits: CallLimits;
}

function checkOptions(
  versions: Readonly<Record<string, VersionDefinition>>,
  options: SdkOptions,
): CheckedOptions {
  refuseUnknownOptions("createSdk", options, OPTION_NAMES);
  const missing = (["version", "baseUrl", "clientId", "clientSecret"] as const).filter(
    (name) => options[name] === undefined,
  );
  if (missing.length > 0) throw invalidOptions(`createSdk needs ${missing.join(", ")}`);
  const { version, clientId, clientSecret } = options;
  const definition =
    typeof version === "string" && Object.hasOwn(versions, version) ? versions[version] : undefined;
  if (!definition) {
    throw invalidOptions(
      `version must be one of ${Object.keys(versions).join(", ")} (got ${shown(version)})`,
    );
  }
  if (typeof clientId !== "string" || clientId === "")
    throw invalidOptions(`clientId must be a non-empty string (got ${shown(clientId)})`);
  // Never the value: a secret given in the wrong type is still the secret.
  if (typeof clientSecret !== "string" || clientSecret === "")
    throw invalidOptions(
      `clientSecret must be a non-empty string (got ${clientSecret === "" ? "an empty one" : typeof clientSecret})`,
    );
  // A lone surrogate has no UTF-8: the secret could not be sent, nor its encoded forms taken out.
  if (LONE_SURROGATE.test(clientSecret))
    throw invalidOptions("clientSecret must be well-formed Unicode (it holds a lone surrogate)");
  const allowInsecure = options.allowInsecureLoopback;
  if (allowInsecure !== undefined && typeof allowInsecure !== "boolean")
    throw invalidOptions(`allowInsecureLoopback must be a boolean (got ${shown(allowInsecure)})`);
  const suffix = options.userAgent;
  if (suffix !== undefined && (typeof suffix !== "string" || !HEADER_TEXT.test(suffix))) {
    throw invalidOptions(
      "userAgent must be a string a header can carry: one line of tabs, spaces, visible ASCII or Latin-1 letters",
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function")
    throw invalidOptions("fetch must be a function");
  return {
    definition,
    version,
    clientId,
    clientSecret,
    baseUrl: checkBaseUrl(options.baseUrl, allowInsecure ?? DEFAULTS.allowInsecureLoopback),
    headers: {
      [VERSION_HEADER]: version,
      accept: JSON_MEDIA_TYPE,
      "user-agent": suffix ? `${SDK_USER_AGENT} ${suffix}` : SDK_USER_AGENT,
    },
    fetch: options.fetch ?? defaultFetch,
    inflates: options.fetch === undefined && IS_BUN,
    limits: checkLimits(options, DEFAULT_LIMITS),
  };
}

/** The limits `options` set, each checked; those left out are `base`'s. */
function checkLimits(options: SdkCallOptions, base: CallLimits): CallLimits {
  return {
    timeoutMs: timerLength("timeoutMs", positive("timeoutMs", options.timeoutMs, base.timeoutMs)),
    maxResponseBytes: positive("maxResponseBytes", options.maxResponseBytes, base.maxResponseBytes),
    retry: {
      maxRetries: nonNegativeInteger("maxRetries", options.maxRetries, base.retry.maxRetries),
      baseDelayMs: nonNegative("retryBaseDelayMs", options.retryBaseDelayMs, base.retry.baseDelayMs),
      maxDelayMs: timerLength(
        "maxRetryDelayMs",
        nonNegative("maxRetryDelayMs", options.maxRetryDelayMs, base.retry.maxDelayMs),
      ),
    },
  };
}

/** Builds the SDK of `options.version`, one of `versions`, once every option is checked. */
export function buildSdk(
  versions: Readonly<Record<string, VersionDefinition>>,
  options: SdkOptions,
): SdkCore {
  let checked: CheckedOptions;
  try {
    checked = checkOptions(versions, options);
  } catch (error) {
    throw unreadableOptions(error, "createSdk could not read its options");
  }
  const { definition, version, clientId, clientSecret, baseUrl, headers, limits, ...transportOptions } =
    checked;
  // The secret lives only in these two closures: never on an object the SDK returns or throws.
  const redact = secretRedactor(clientSecret);
  const tokenBody = () => JSON.stringify({ client_id: clientId, client_secret: clientSecret });
  const transport = createTransport({
    ...transportOptions,
    baseUrl,
    clientId,
    version,
    headers,
    limits,
    redact,
    tokenBody,
  });

  // openapi-fetch's documented extension points: the SDK's headers as the client's default headers
  // (a call's own headers win) and the transport as its fetch. (No middleware of the SDK's own: over a
  // loopback socket openapi-fetch's middleware machinery alone costs about a tenth of a call.)
  // openapi-fetch's default fetch is there for form's sake: every method passes a fetch of its call's
  // own (withTypedBodyErrors), the one a middleware also gets as `options.fetch`.
  const engine = definition.createClient({
    baseUrl,
    fetch: (request: Request) => transport(request),
    headers,
    // biome-ignore lint/suspicious/noExplicitAny: the untyped engine, as VersionDefinition says.
  }) as Client<any>;

  const middleware = middlewareOf(engine);

  const typed: Typed = (error, method, path, signal, context) => {
    // The caller's abort rejects with the caller's reason, whenever it comes.
    if (signal?.aborted) return signal.reason;
    const pathOnly = textOf(path).split("?")[0] ?? "";
    if (!context.sent) return failedInCallersCode(error, method, pathOnly, redact, "before sending");
    // The SDK's fetch failed (with its own error) and something else came out: a middleware's onError.
    if (context.failure !== undefined && error !== context.failure)
      return failedInCallersCode(error, method, pathOnly, redact, "on the failure");
    // Answered, and not past every middleware's onResponse: one of them failed (unless the deadline
    // passed meanwhile: a slow onResponse). Past them, the failure is the body read's.
    const { answer } = context;
    const deadlinePassed = context.readDeadline?.timedOut === true;
    if (answer !== undefined && context.watched && !context.pastMiddleware && !deadlinePassed)
      return failedInCallersCode(error, method, pathOnly, redact, "on the answer");
    // The answer's address names the call whole (which page of a walk); the message keeps its path.
    return bodyReadError(error, method, answer?.url || pathOnly, context, redact);
  };

  /**
   * The SDK whose calls are bounded by `callLimits`. Those of `withOptions` share the engine, and with
   * it the transport (the token, its renewal) and the middleware: only the limits of their calls differ.
   */
  const sdkWithin = (callLimits: CallLimits): SdkCore => {
    const client = withTypedBodyErrors(engine, transport, callLimits, typed, redact, middleware);
    const paginatorContext = {
      get: (schemaPath: string, pageInit: unknown) => client.GET(schemaPath as never, pageInit as never),
      baseUrl,
      redact,
    };
    return {
      version,
      baseUrl,
      clientId,
      client,
      paginate(path, init, paginateOptions) {
        const { pagination } = definition;
        const spec =
          typeof path === "string" && Object.hasOwn(pagination, path) ? pagination[path] : undefined;
        if (!spec) {
          const lists = Object.keys(pagination).join(", ");
          throw invalidOptions(
            redact(`${textOf(path)} is not a list operation of ${version} (its list operations: ${lists})`),
          );
        }
        return createPaginator(paginatorContext, path, spec, init as never, paginateOptions);
      },
      withOptions(callOptions) {
        let changed: CallLimits;
        try {
          refuseUnknownOptions("withOptions", callOptions, CALL_OPTION_NAMES);
          changed = checkLimits(callOptions, callLimits);
        } catch (error) {
          throw unreadableOptions(error, "withOptions could not read its options");
        }
        return sdkWithin(changed);
      },
    };
  };
  return sdkWithin(limits);
}

/** The engine's middleware, as the SDK tells a middleware's failure on the answer from a failed body read. */
interface MiddlewareOf {
  /** Puts the SDK's own in place, before the caller's first. */
  needed(): void;
  /** Adds the caller's middleware (after the SDK's own). */
  use(...middleware: Middleware[]): void;
  /**
   * Ties a call's fetch (openapi-fetch hands it to middleware as `options.fetch`) to the call, which is
   * `watched` if a middleware of the caller's runs on it (openapi-fetch fixes the list as a call starts).
   */
  track(fetch: (request: Request) => Promise<Response>, context: CallContext): void;
}

/**
 * Once the caller adds a middleware, one of the SDK's comes first, so that its onResponse runs last
 * (openapi-fetch runs them in reverse) and marks the call's answer as past them all. None before: the
 * machinery costs a call's time. Shared by the SDKs of `withOptions`, as the engine is.
 */
// biome-ignore lint/suspicious/noExplicitAny: the untyped engine.
function middlewareOf(engine: Client<any>): MiddlewareOf {
  const calls = new WeakMap<object, CallContext>();
  let inUse = false;
  const marker: Middleware = {
    // Before any of the caller's: the address a middleware's own answer is then named by.
    onRequest({ options, request }) {
      const context = calls.get(options.fetch);
      if (context) context.requested = request.url;
    },
    onResponse({ options, response }) {
      const context = calls.get(options.fetch);
      // A body a middleware read without a clone cannot be read again: its doing, not the server's.
      if (context && !response.bodyUsed) context.pastMiddleware = true;
    },
  };
  const needed = () => {
    if (!inUse) engine.use(marker);
    inUse = true;
  };
  return {
    needed,
    use(...middleware) {
      needed();
      engine.use(...middleware);
    },
    track(fetch, context) {
      if (!inUse) return;
      context.watched = true;
      calls.set(fetch, context);
    },
  };
}

/** The client's methods; each reads and parses an answer's body. */
const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

/** An HTTP method name: a token (RFC 9110). */
const METHOD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The methods fetch refuses to send (the Fetch standard's forbidden methods). */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The values of openapi-fetch's `parseAs`: any other would call a method of the Response by that name. */
const PARSE_AS: readonly string[] = ["json", "text", "blob", "arrayBuffer", "stream"];

/** What the method wrappers read of a call's own options. */
interface CallOptions {
  signal?: AbortSignal | null;
  parseAs?: string;
  middleware?: unknown;
}

/** What a failure of a client's call becomes (`signal` is the call's own; `context`, what the transport saw of it). */
type Typed = (
  error: unknown,
  method: string,
  path: unknown,
  signal: AbortSignal | null | undefined,
  context: CallContext,
) => unknown;

/**
 * The SDK's fetch hands a 2xx answer back unread; openapi-fetch reads and parses it, and lets a failure
 * of that read through raw (JSON.parse's SyntaxError, a body cut off, the deadline's TimeoutError), as it
 * does a failure to build the request or a middleware's error. Each method of the client turns any of
 * them into the SDK's error, and ends the call's deadline once openapi-fetch is done with the body; it
 * gives openapi-fetch a per-call fetch (the transport with the call's context) only for these two jobs.
 * Everything else of the client is openapi-fetch's own.
 */
function withTypedBodyErrors(
  // biome-ignore lint/suspicious/noExplicitAny: the untyped engine; Sdk<V> types the client.
  client: Client<any>,
  transport: Transport,
  limits: CallLimits,
  typed: Typed,
  redact: Redact,
  middleware: MiddlewareOf,
  // biome-ignore lint/suspicious/noExplicitAny: as above.
): Client<any> {
  const call = (method: string, path: unknown, init: never, run: (init: never) => Promise<unknown>) => {
    let signal: AbortSignal | null | undefined;
    let context = newCallContext(limits);
    let letGo = () => {};
    // Any failure as the SDK's error; one that cannot even be examined (a caller's Proxy whose traps throw) is said so.
    const fail = (error: unknown) => {
      try {
        return typed(error, method, path, signal, context);
      } catch {
        return invalidOptions(`${method} ${textOf(path)}: failed with a value that cannot be examined`);
      }
    };
    let parseAs: string | undefined;
    let pending: Promise<unknown>;
    try {
      const options = init as CallOptions | undefined;
      // Each read once: a getter could answer the check one thing and openapi-fetch another.
      parseAs = options?.parseAs;
      signal = options?.signal;
      if (parseAs !== undefined && !PARSE_AS.includes(parseAs)) {
        const allowed = PARSE_AS.join(", ");
        throw invalidOptions(
          redact(`${method} ${textOf(path)}: parseAs must be one of ${allowed} (got ${shown(parseAs)})`),
        );
      }
      if (signal && typeof signal.addEventListener !== "function")
        throw invalidOptions(
          `${method} ${textOf(path)}: signal must be an AbortSignal (got ${typeof signal})`,
        );
      // undici's Request (Node's fetch) listens to the signal it is built with until the Request is
      // garbage-collected: a long-lived signal of the caller's (a shutdown signal) would gather a
      // listener per call. openapi-fetch builds the call's Request with a signal of the call's own, which
      // follows the caller's (its abort, with the same reason) until the call is over (`over`).
      const own = signal ? new AbortController() : undefined;
      if (own) letGo = followAbort(own, signal);
      context = newCallContext(limits, own?.signal);
      // A call's own middleware (openapi-fetch's `middleware` option) runs before the client's on the answer.
      if (Array.isArray(options?.middleware) && options.middleware.length > 0) middleware.needed();
      const fetch = (request: Request) => transport(request, context);
      middleware.track(fetch, context);
      // Redirects are the transport's to follow (same origin only): the request says so to any fetch.
      const callSignal = own?.signal ?? signal;
      pending = run({ ...options, parseAs, signal: callSignal, fetch, redirect: "manual" } as never);
    } catch (error) {
      letGo();
      return Promise.reject(fail(error)); // a parseAs refused, or a getter of the call's options threw
    }
    const over = () => {
      context.readDeadline?.signal.removeEventListener("abort", over); // added for a stream (below)
      context.readDeadline?.end();
      letGo();
    };
    const answered = (answer: unknown) => {
      const result = withErrorOfStatus(answer as CallResult, method, path, context, redact);
      if (parseAs !== "stream") {
        over(); // openapi-fetch has read the body
        return result;
      }
      // The caller reads the stream under the deadline of the attempt that answered it: the call is over
      // once the stream is read, cancelled or failed, or that deadline fires. A stream the transport did
      // not answer (a middleware's own) has no deadline, and the caller's abort cannot reach it.
      const deadline = context.readDeadline;
      if (deadline && !deadline.signal.aborted)
        deadline.signal.addEventListener("abort", over, { once: true });
      else over();
      return withTypedStream(result, over, fail);
    };
    return pending.then(
      (answer) => {
        try {
          return answered(answer);
        } catch (error) {
          over();
          throw fail(error);
        }
      },
      (error) => {
        over();
        throw fail(error);
      },
    );
  };
  const methods = Object.fromEntries(
    METHODS.map((method) => [
      method,
      (path: never, init: never) => call(method, path, init, (withFetch) => client[method](path, withFetch)),
    ]),
  );
  return {
    ...client,
    ...methods,
    // openapi-fetch throws a plain Error for a middleware that is not one: the SDK's error instead.
    use(...added) {
      try {
        middleware.use(...added);
      } catch (error) {
        throw invalidOptions(redact(`sdk.client.use: ${textOf(error)}`), redactError(error, redact));
      }
    },
    // openapi-fetch upper-cases the method before any promise exists: anything else would throw at once.
    // A name fetch refuses is refused here on every runtime (Bun's fetch sends "" and "g e t" as GET).
    request: ((method: unknown, path: never, init: never) =>
      typeof method === "string" && METHOD_NAME.test(method) && !FORBIDDEN_METHODS.has(method.toUpperCase())
        ? call(method.toUpperCase(), path, init, (withFetch) =>
            client.request(method as never, path, withFetch),
          )
        : Promise.reject(
            invalidOptions(
              redact(
                `sdk.client.request needs a method name fetch sends, not CONNECT, TRACE or TRACK (got ${shown(method)})`,
              ),
            ),
          )) as typeof client.request,
  };
}

/** An option's value as an error names it: a string quoted, so that `"100"` does not read as 100. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : textOf(value);
}

/** What openapi-fetch answers: `data` (with `parseAs: "stream"`, the body unread) or `error`. */
interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * An answer that is not ok keeps an `error` that is the documented body, an object, or the SDK's error of
 * its status. openapi-fetch hands back one without a body (an empty one, a HEAD's, an unfollowed 3xx) as
 * `error: undefined` or `""`, and a JSON `null`, `false` or `0` as itself, which its types say cannot
 * happen with no `data`: `if (error)` would read it as a success. A body that is not JSON (a gateway's
 * HTML 502) it hands back as a string, which the types say is the documented body: `error.message`
 * would be undefined. Such an answer's `error` is the SDK's error of its status instead (the value as
 * its `body`, text not JSON as its `rawBody`). Every answer that is not 2xx has that error kept for
 * `apiErrorOf`.
 */
function withErrorOfStatus(
  result: CallResult,
  method: string,
  path: unknown,
  context: CallContext,
  redact: Redact,
): CallResult {
  const { error, response } = result;
  if (response.ok) return result;
  // Made for every such answer, for `apiErrorOf`: the error `paginate` would throw for it. It names the
  // answer's address, or for an answer without one (a middleware's own) the address the call was sent
  // to, or its path if it was not sent.
  const called = response.url || context.answer?.url || context.requested || textOf(path);
  const typed = keptApiError(response, method, called, error, redact, context.attempts);
  return isObject(error) ? result : { ...result, error: typed };
}

/**
 * The answer with its body as a stream that fails with the SDK's error (the deadline's, a cut
 * connection's) or the caller's abort reason, and ends the call (`over`: its deadline) once read,
 * cancelled or failed; `data` and `response.body` are that one stream.
 */
function withTypedStream(
  result: CallResult,
  over: () => void,
  typed: (error: unknown) => unknown,
): CallResult {
  const { data, response } = result;
  if (!(data instanceof ReadableStream)) {
    over();
    return result;
  }
  const reader = (data as ReadableStream<Uint8Array>).getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        over();
        controller.close();
      } catch (error) {
        over();
        controller.error(typed(error));
      }
    },
    cancel(reason) {
      over();
      return reader.cancel(reason);
    },
  });
  const { status, statusText, headers } = response;
  const typedResponse = withUrl(new Response(stream, { status, statusText, headers }), response.url);
  return { ...result, data: typedResponse.body, response: typedResponse };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
    throw invalidOptions(`${name} must be a positive, finite number (got ${shown(value)})`);
  }
  return value;
}

function timerLength(name: string, value: number): number {
  if (value > LONGEST_TIMER_MS)
    throw invalidOptions(
      `${name} must be at most ${LONGEST_TIMER_MS} ms, the longest a timer waits (got ${value})`,
    );
  return value;
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  const checked = nonNegative(name, value, fallback);
  if (!Number.isInteger(checked)) throw invalidOptions(`${name} must be a whole number (got ${checked})`);
  return checked;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value >= 0) || !Number.isFinite(value)) {
    throw invalidOptions(`${name} must be a non-negative, finite number (got ${shown(value)})`);
  }
  return value;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** https only; plain http only for a loopback host when the caller opted in. */
function checkBaseUrl(raw: string, allowInsecureLoopback: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidOptions("baseUrl is not an absolute URL (expected https://host[:port][/path])");
  }
  if (url.username || url.password) throw invalidOptions("baseUrl must not carry credentials");
  if (url.search || url.hash) throw invalidOptions("baseUrl must not have a query or a fragment");
  if (url.protocol === "http:" && LOOPBACK_HOST.test(url.hostname)) {
    if (!allowInsecureLoopback) {
      throw invalidOptions(
        `baseUrl uses plain http on loopback host ${url.hostname}; pass allowInsecureLoopback: true to allow it (for local testing only)`,
      );
    }
  } else if (url.protocol !== "https:") {
    throw invalidOptions(
      `baseUrl must use https (got ${url.protocol.replace(":", "")}); the service rejects plain http`,
    );
  }
  const path = url.pathname.replace(/\/+$/, "");
  // The paths the SDK calls start with the prefix: a baseUrl that is the origin and it would call
  // /v1/v1/... (a gateway's longer path ending in it is left alone: it may be the mount point).
  if (path.toLowerCase() === PATH_PREFIX)
    throw invalidOptions(
      `baseUrl ends in ${PATH_PREFIX}, which every path of the API starts with: give the service's address without it (got ${url.origin}${path})`,
    );
  return `${url.origin}${path}`;
}
