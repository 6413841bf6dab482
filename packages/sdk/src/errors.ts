/**
 * Every error the SDK throws, and the only place they are built. One class per kind, as stripe-node:
 * `error.name` is the class name; the guards use a global symbol so they work across ESM/CJS copies.
 */

import { causeChain, type Redact, redactError, redactedCopy, redactHeaders, textOf } from "./redact.js";

const API_ERROR_BRAND = Symbol.for("@cdas/sdk/CdasApiError");
const ERROR_BRAND = Symbol.for("@cdas/sdk/CdasError");

/** The kind of failure; `api` is any non-2xx answer. */
export type CdasErrorCode =
  | "api"
  | "network"
  | "timeout"
  | "invalid_response"
  | "pagination_loop"
  | "invalid_options";

/** Base class of every error the SDK throws; each kind is a subclass with its own `name` and `code`. */
export class CdasError extends Error {
  override name = "CdasError";
  readonly code: CdasErrorCode = "invalid_response";

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}
Object.defineProperty(CdasError.prototype, ERROR_BRAND, { value: true });

/** The call a failure of the wire belongs to, as `CdasApiError` has it: `url` with the secret taken out. */
export interface FailedCall {
  method: string;
  url: string;
}

/** A failed call as the retry loop leaves it: `attempts`, how many times the SDK sent it. */
interface AttemptedCall extends FailedCall {
  attempts?: number | undefined;
}

/** The connection failed (refused, reset, untrusted certificate, ...); `cause` keeps the chain, redacted. */
export class CdasConnectionError extends CdasError {
  override name = "CdasConnectionError";
  override readonly code = "network";
  /** Whether trying again may help: not for a certificate or protocol failure. */
  readonly retryable: boolean;
  readonly method: string;
  /** The address called, query included (which page of a walk), the client secret taken out. */
  readonly url: string;
  /** How many times the SDK sent the call, retries included: this failure was the last of them. */
  readonly attempts: number | undefined;

  constructor(message: string, options: AttemptedCall & { cause: unknown; retryable: boolean }) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable;
    this.method = options.method;
    this.url = options.url;
    this.attempts = options.attempts;
  }

  override toJSON(): Record<string, unknown> {
    const { method, url, retryable, attempts } = this;
    return { ...super.toJSON(), method, url, retryable, attempts };
  }
}

/** An attempt (answer and body) took longer than `timeoutMs`. */
export class CdasTimeoutError extends CdasError {
  override name = "CdasTimeoutError";
  override readonly code = "timeout";
  readonly method: string;
  /** The address called, query included, the client secret taken out. */
  readonly url: string;
  /** How many times the SDK sent the call, retries included (each had `timeoutMs`): this one timed out. */
  readonly attempts: number | undefined;

  constructor(message: string, call: AttemptedCall) {
    super(message);
    this.method = call.method;
    this.url = call.url;
    this.attempts = call.attempts;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), method: this.method, url: this.url, attempts: this.attempts };
  }
}

/** What an invalid answer or a loop says of the call it came from, when it came from one. */
interface CallErrorOptions extends ErrorOptions {
  call?: FailedCall | undefined;
}

/** An error that names the call it came from, when it came from one, as `CdasApiError` does. */
abstract class CdasCallError extends CdasError {
  readonly method: string | undefined;
  /** The address called, query included (which page of a walk), the client secret taken out. */
  readonly url: string | undefined;

  constructor(message: string, options?: CallErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.method = options?.call?.method;
    this.url = options?.call?.url;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), method: this.method, url: this.url };
  }
}

/**
 * The server answered something the SDK cannot use: bad JSON, a bad status, a refused redirect, too
 * large. `method` and `url` name the call that was answered.
 */
export class CdasInvalidResponseError extends CdasCallError {
  override name = "CdasInvalidResponseError";
  override readonly code = "invalid_response";
}

/**
 * A list sent the walk back to a page or cursor it had already read; `url` is the page whose link did
 * (for a redirect back, the link that was redirected).
 */
export class CdasPaginationLoopError extends CdasCallError {
  override name = "CdasPaginationLoopError";
  override readonly code = "pagination_loop";
}

/** An option or argument given to the SDK is wrong; the message names it. */
export class CdasInvalidOptionsError extends CdasError {
  override name = "CdasInvalidOptionsError";
  override readonly code = "invalid_options";
}

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
  /** The answer's headers (copied; the SDK's own errors pass them with the client secret taken out). */
  headers?: Headers;
  /** How many times the SDK sent the call (see `CdasApiError.attempts`). */
  attempts?: number | undefined;
}

/**
 * A non-2xx answer. `apiErrorName` and `apiMessage` are the API's own error name (`bad_request`, ...)
 * and message when the body has them; `message` names the call and its status, then gives the API's
 * message (`GET /v1/accounts answered HTTP 400: end_user_id is required`). Subclasses by status: see
 * `apiErrorFor`.
 */
export class CdasApiError extends CdasError {
  override name = "CdasApiError";
  override readonly code = "api";
  readonly status: number;
  readonly apiErrorName: string | undefined;
  readonly apiMessage: string | undefined;
  readonly id: string | undefined;
  readonly fault: boolean | undefined;
  readonly temporary: boolean | undefined;
  readonly timeout: boolean | undefined;
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  readonly rawBody: string | undefined;
  readonly retryAfterMs: number | undefined;
  /**
   * How many times the SDK sent the call, retries and a 401's renewal included: this answer is the
   * last one's (0 when a middleware of yours answered without sending it).
   */
  readonly attempts: number | undefined;
  /**
   * The answer's headers, a copy with the client secret taken out as everywhere else (a value that
   * holds it reads `[redacted]`, a name that does `x-redacted`). Neither in `toJSON` nor enumerable (so
   * `console.error` and `util.inspect` leave it out too), and not writable: a log line written from the
   * error keeps its fields, not whatever cookies or tokens a server sent.
   */
  declare readonly headers: Headers;

  constructor(init: CdasApiErrorInit) {
    const fields = errorFields(init.body);
    super(describeStatus(init, fields.message));
    this.status = init.status;
    this.apiErrorName = fields.name;
    this.apiMessage = fields.message;
    this.id = fields.id;
    this.fault = fields.fault;
    this.temporary = fields.temporary;
    this.timeout = fields.timeout;
    this.method = init.method;
    this.url = init.url;
    this.body = init.body;
    this.rawBody = init.rawBody;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
    // A copy: the caller's (or the answer's) Headers may change after the error is made.
    Object.defineProperty(this, "headers", { value: new Headers(init.headers), enumerable: false });
  }

  override toJSON(): Record<string, unknown> {
    const { status, apiErrorName, apiMessage, id, fault, temporary, timeout, method, url } = this;
    const { retryAfterMs, attempts } = this;
    return {
      ...super.toJSON(),
      status,
      apiErrorName,
      apiMessage: apiMessage === undefined ? undefined : quoted(apiMessage, API_MESSAGE_QUOTED),
      id,
      fault,
      temporary,
      timeout,
      method,
      url,
      retryAfterMs, // the wait the server asked for: what an on-call reader of a 429 or 503 needs
      attempts,
    };
  }
}
Object.defineProperty(CdasApiError.prototype, API_ERROR_BRAND, { value: true });

/** 400 or 422: the request was refused as invalid. */
export class CdasInvalidRequestError extends CdasApiError {
  override name = "CdasInvalidRequestError";
}
/** 401: the credentials or the token were refused. */
export class CdasAuthenticationError extends CdasApiError {
  override name = "CdasAuthenticationError";
}
/** 403: the token lacks a scope or a consent. */
export class CdasPermissionError extends CdasApiError {
  override name = "CdasPermissionError";
}
/** 404. */
export class CdasNotFoundError extends CdasApiError {
  override name = "CdasNotFoundError";
}
/** 429, after the retries. */
export class CdasRateLimitError extends CdasApiError {
  override name = "CdasRateLimitError";
}
/** 5xx, after the retries of reads. */
export class CdasServerError extends CdasApiError {
  override name = "CdasServerError";
}

/**
 * Any error the SDK throws, as the union of its kinds: `switch (error.code)` narrows it to the class
 * of each (`case "api"`: a `CdasApiError`, with its `status`), as `CdasError` alone cannot.
 */
export type AnyCdasError =
  | CdasApiError
  | CdasConnectionError
  | CdasTimeoutError
  | CdasInvalidResponseError
  | CdasPaginationLoopError
  | CdasInvalidOptionsError;

/** True for every error thrown by the SDK. */
export function isCdasError(value: unknown): value is AnyCdasError {
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

// ---------------------------------------------------------------------------------------------
// Building errors from what the transport and the paginator meet
// ---------------------------------------------------------------------------------------------

/**
 * The error of a non-2xx answer, of the class of its status; `body` is parsed JSON or raw text (the
 * secret already taken out); `url` and the headers have it taken out here (a caller may have put it in
 * a query; a middleware of the caller's may hand paginate an answer the transport never redacted).
 */
export function apiErrorFor(
  answer: { status: number; headers: Headers },
  method: string,
  url: string,
  body: unknown,
  redact: Redact,
  attempts?: number,
): CdasApiError {
  const text = typeof body === "string" ? body : undefined;
  const parsed = text === undefined ? { body } : parseErrorText(text);
  const init: CdasApiErrorInit = {
    status: answer.status,
    method,
    url: redact(url),
    body: parsed.body,
    rawBody: parsed.rawBody,
    retryAfterMs: retryAfterOf(answer.headers),
    headers: redactHeaders(answer.headers, redact),
    attempts,
  };
  const status = answer.status;
  if (status === 400 || status === 422) return new CdasInvalidRequestError(init);
  if (status === 401) return new CdasAuthenticationError(init);
  if (status === 403) return new CdasPermissionError(init);
  if (status === 404) return new CdasNotFoundError(init);
  if (status === 429) return new CdasRateLimitError(init);
  if (status >= 500) return new CdasServerError(init);
  return new CdasApiError(init);
}

/**
 * Where the SDK keeps the error of an answer that was not 2xx on its Response: one key for every copy of
 * the package (its ESM and CommonJS builds), as the guards' (`isCdasError`) are.
 */
const KEPT_API_ERROR = Symbol.for("@cdas/sdk/apiError");

/** `apiErrorFor` an answer of `sdk.client` that was not 2xx, kept on it for `apiErrorOf` (core.ts). */
export function keptApiError(
  response: Response,
  method: string,
  url: string,
  body: unknown,
  redact: Redact,
  attempts: number,
): CdasApiError {
  const error = apiErrorFor(response, method, url, body, redact, attempts);
  Object.defineProperty(response, KEPT_API_ERROR, { value: error, configurable: true });
  return error;
}

/**
 * The SDK's error of an `sdk.client` result whose answer was not 2xx, the one `paginate` would throw:
 * of the class of its status (`CdasRateLimitError` with `retryAfterMs`, ...), the API's error fields
 * read from its body. For code that throws rather than returns `{ error }`:
 * `if (result.error) throw apiErrorOf(result)`. Undefined for a 2xx answer, and for a result that no
 * SDK's client made.
 */
export function apiErrorOf(result: { response: Response }): CdasApiError | undefined {
  const kept: unknown = (result?.response as { [KEPT_API_ERROR]?: unknown } | undefined)?.[KEPT_API_ERROR];
  return isCdasApiError(kept) ? kept : undefined;
}

export function invalidOptions(message: string, cause?: unknown): CdasInvalidOptionsError {
  return new CdasInvalidOptionsError(message, cause === undefined ? undefined : { cause });
}

/**
 * Refuses what `what` was given for its options unless it is an options object (not an array) whose
 * every name is one of `names`: a misspelt option is refused rather than ignored.
 */
export function refuseUnknownOptions(
  what: string,
  options: unknown,
  names: Readonly<Record<string, true>>,
): void {
  if (!isObject(options)) throw invalidOptions(`${what} needs an options object`);
  const unknown = Object.keys(options).filter((name) => !Object.hasOwn(names, name));
  if (unknown.length > 0) {
    throw invalidOptions(
      `${what} has no option ${unknown.join(", ")} (its options: ${Object.keys(names).join(", ")})`,
    );
  }
}

/**
 * A failure while the SDK read a caller's options: a refusal of its own as it is, anything else (a
 * getter or Proxy of the caller's threw) as an invalid-options error with that error as its cause.
 */
export function unreadableOptions(error: unknown, couldNot: string): CdasError {
  if (isCdasError(error)) return error;
  return invalidOptions(`${couldNot}: a getter or Proxy of theirs threw (its error is the cause)`, error);
}

/** Where in the caller's own code a call failed (see `failedInCallersCode`). */
export type CallersStage = "before sending" | "on the answer" | "on the failure";

const CALLERS_FAILURE: Record<CallersStage, string> = {
  "before sending":
    "failed before it was sent (openapi-fetch could not build the request, or a middleware's onRequest threw or answered it)",
  "on the answer": "a middleware failed on the answer (it threw, or read the body without a clone)",
  "on the failure":
    "failed after a middleware's onError took over the SDK's failure (it threw, returned an error, or answered with a body that failed)",
};

/**
 * A call that failed in the caller's own input or code, not on the wire: before its request reached
 * the SDK's fetch (openapi-fetch could not build it, or a middleware's `onRequest` threw or answered
 * the call itself; nothing was sent), once answered, before openapi-fetch read the body (a
 * middleware's `onResponse` threw), or once failed (a middleware's `onError` put its own error in place).
 */
export function failedInCallersCode(
  error: unknown,
  method: string,
  path: string,
  redact: Redact,
  stage: CallersStage,
): CdasError {
  if (isCdasError(error)) return error;
  // A middleware may hand openapi-fetch a body of the server's: JSON.parse's excerpt of it goes, as below.
  const shown = error instanceof SyntaxError ? withoutExcerpt(error) : error;
  const reason = redact(textOf(shown));
  // The caller's path may hold the secret too (a query of theirs).
  return new CdasInvalidOptionsError(redact(`${method} ${path}: ${CALLERS_FAILURE[stage]} (${reason})`), {
    cause: redactError(shown, redact),
  });
}

/**
 * An answer the SDK could not even examine: what a fetch of the caller's resolved to looked like a
 * Response until one of its parts threw or was missing (a status getter, headers, a body that is not
 * a stream).
 */
export function unreadableAnswer(error: unknown, method: string, url: string, redact: Redact): CdasError {
  const reason = redact(textOf(error));
  const call = redactedCall(method, url, redact);
  return invalidAnswer(
    call,
    `: the fetch in use gave an answer or a failure that cannot be examined (${reason})`,
    redactedCopy(error, redact),
  );
}

/** An invalid answer to `call` (its url already without the secret). */
export function invalidResponse(
  message: string,
  call: FailedCall,
  cause?: unknown,
): CdasInvalidResponseError {
  return new CdasInvalidResponseError(message, { call, cause });
}

/**
 * An invalid answer to `call`, said as the call (`GET /v1/accounts`) followed by `saying` (" answered
 * ...", ": ..."); its url already without the secret.
 */
export function invalidAnswer(call: FailedCall, saying: string, cause?: unknown): CdasInvalidResponseError {
  return invalidResponse(`${calledAs(call)}${saying}`, call, cause);
}

/** A loop found on the page `call` read (its url already without the secret). */
export function paginationLoop(message: string, call: FailedCall): CdasPaginationLoopError {
  return new CdasPaginationLoopError(message, { call });
}

/** A call as errors name it: its url with the secret taken out. */
export function redactedCall(method: string, url: string, redact: Redact): FailedCall {
  return { method, url: redact(url) };
}

/** A call as messages name it: its method and path (never its query, which may carry ids). */
export function calledAs({ method, url }: FailedCall): string {
  return `${method} ${pathOf(url)}`;
}

function timeoutError(call: AttemptedCall, timeoutMs: number): CdasTimeoutError {
  return new CdasTimeoutError(`${calledAs(call)} timed out after ${timeoutMs} ms (its body included)`, call);
}

/**
 * What a failure while a 2xx body is read becomes: the SDK's transport hands such an answer back
 * unread, and the body is read later (by openapi-fetch, or the token call), still under the attempt's
 * deadline. A CdasError (the size limit) stays as it is; the caller's abort is the caller's to check.
 * A read that failed once the deadline had fired is a timeout, whatever the error says (Node's fetch
 * fails a read begun after its signal aborted with a plain AbortError).
 */
export function bodyReadError(
  error: unknown,
  method: string,
  url: string,
  read: BodyRead,
  redact: Redact,
): CdasError {
  if (error instanceof SyntaxError) {
    const cause = redactError(withoutExcerpt(error), redact);
    const call = redactedCall(method, url, redact);
    return invalidAnswer(call, " answered 2xx with a body that is not JSON", cause);
  }
  // The deadline rejects the read with its reason, a TimeoutError.
  const timedOut = read.readDeadline?.timedOut === true || (error as Error | null)?.name === "TimeoutError";
  const { attempts, limits } = read;
  const { timeoutMs } = limits;
  return wireFailure(error, method, url, {
    timedOut,
    timeoutMs,
    redact,
    attempts,
    during: " while reading the body",
  });
}

/** What `bodyReadError` reads of the call whose body failed (the transport's `CallContext`). */
interface BodyRead {
  limits: { timeoutMs: number };
  /** The deadline of the attempt that answered: once it has fired, a failed read is its doing. */
  readDeadline?: { timedOut: boolean } | undefined;
  attempts: number;
}

/**
 * JSON.parse's error without the piece of the body it quotes (V8: `Unexpected token 'c', "{"a": cs_li"...
 * is not valid JSON`; Bun: `Unexpected identifier "cs_li"`): the server chooses that text and where it
 * is cut, so redaction, which finds the whole secret, could miss the part of it quoted there.
 */
function withoutExcerpt(error: SyntaxError): SyntaxError {
  const message = error.message.replace(/".*"/s, '"…"');
  if (message === error.message) return error;
  const copy = new SyntaxError(message);
  if (typeof error.stack === "string") copy.stack = error.stack.replace(error.message, message);
  return copy;
}

/**
 * What a failure on the wire becomes: a CdasError (the size limit, a refused redirect) as it is, a
 * timeout when the attempt's deadline passed, a connection error naming its cause otherwise.
 */
export function wireFailure(error: unknown, method: string, url: string, how: WireFailureOf): CdasError {
  if (isCdasError(error)) return error;
  // After a redirect the address is the server's Location: redacted like everything of the server's.
  const call = { method, url: how.redact(url), attempts: how.attempts };
  if (how.timedOut) return timeoutError(call, how.timeoutMs);
  return connectionError(error, call, how.redact, how.during);
}

/** What `wireFailure` needs to know of a failed attempt. */
interface WireFailureOf {
  timedOut: boolean;
  timeoutMs: number;
  redact: Redact;
  /** Where the failure came, in words (` while reading the body`). */
  during?: string;
  /** How many times the call was sent, this attempt included. */
  attempts: number | undefined;
}

/**
 * What a connection failure's code means: words for the message, whether trying again cannot cure it
 * (the certificate or the protocol is wrong, not the moment), and what to do about it.
 */
interface ConnectionCause {
  words: string;
  lasting?: true;
  hint?: string;
}

const UNTRUSTED: ConnectionCause = {
  words: "certificate not trusted",
  lasting: true,
  hint: "; to trust a private CA, see the SDK README's “Trusting a private CA”",
};
const EXPIRED: ConnectionCause = { words: "certificate expired", lasting: true };
const WRONG_HOST: ConnectionCause = { words: "certificate does not name this host", lasting: true };
const NOT_TLS: ConnectionCause = { words: "TLS handshake failed (a plain-http port?)", lasting: true };

/** The codes a connection fails with (Node, undici, OpenSSL, Bun); others are shown with their own message. */
const CAUSES: Record<string, ConnectionCause> = {
  ECONNREFUSED: { words: "connection refused" },
  ECONNRESET: { words: "connection reset" },
  ENOTFOUND: { words: "host not found" },
  EAI_AGAIN: { words: "host name lookup failed" },
  ETIMEDOUT: { words: "connection timed out" },
  UND_ERR_CONNECT_TIMEOUT: { words: "connection timed out" },
  UND_ERR_SOCKET: { words: "connection closed by the server" },
  SELF_SIGNED_CERT_IN_CHAIN: UNTRUSTED,
  DEPTH_ZERO_SELF_SIGNED_CERT: UNTRUSTED,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNTRUSTED,
  CERT_HAS_EXPIRED: EXPIRED,
  ERR_TLS_CERT_ALTNAME_INVALID: WRONG_HOST,
  ERR_SSL_WRONG_VERSION_NUMBER: NOT_TLS,
  EPROTO: NOT_TLS,
};

/**
 * Causes that come without a code, known by their words instead: Deno's fetch (hyper and rustls) names
 * none, and fetch refuses some ports outright (Node's `bad port`). The match is shown in place of a code.
 */
const CAUSES_BY_WORDS: ReadonlyArray<readonly [RegExp, ConnectionCause]> = [
  [/Connection refused \(os error \d+\)/, CAUSES.ECONNREFUSED!],
  [/Connection reset by peer \(os error \d+\)/, CAUSES.ECONNRESET!],
  [/dns error: [^:]+/, CAUSES.ENOTFOUND!],
  [/invalid peer certificate: Expired\w*/, EXPIRED],
  [/invalid peer certificate: NotValidForName\w*/, WRONG_HOST],
  [/invalid peer certificate: [\w()]+/, UNTRUSTED],
  [/received corrupt message of type InvalidContentType/, NOT_TLS],
  [/^bad port$|Requests to port \d+ are blocked/, { words: "port refused by fetch", lasting: true }],
  // Deno without the permission (its NotCapable error): trying again cannot grant it.
  [
    /Requires net access to "[^"]*"/,
    { words: "network access not permitted", lasting: true, hint: "; run Deno with --allow-net" },
  ],
  // Not retried: the same answer again would only open another socket (undici can crash on one, mid-body).
  [/too many content-encodings/, { words: "more content codings than fetch undoes", lasting: true }],
];

/**
 * A failure of the connection, named by the deepest code in its cause chain (`connection refused
 * (ECONNREFUSED)`), or by known words where the runtime gives no code (`connection refused (Connection
 * refused (os error 111))` on Deno), with a redacted copy of that chain as its cause.
 */
function connectionError(
  error: unknown,
  call: AttemptedCall,
  redact: Redact,
  during = "",
): CdasConnectionError {
  const { cause, detail } = knownCause(causeChain(error).reverse());
  const reason = cause ? `${cause.words} (${detail})${cause.hint ?? ""}` : detail;
  return new CdasConnectionError(redact(`${calledAs(call)} failed${during}: ${reason}`), {
    ...call,
    cause: redactedCopy(error, redact),
    retryable: cause?.lasting !== true,
  });
}

/**
 * What failed, from the chain innermost first: the deepest code (`detail` is the code), else known
 * words (`detail` is what matched), else nothing known (`detail` is the innermost message).
 */
function knownCause(chain: unknown[]): { cause?: ConnectionCause; detail: string } {
  const messages = chain.map((link) => pathsOnly(textOf(link)));
  const coded = chain.findIndex((link) => typeof (link as { code?: unknown } | null)?.code === "string");
  if (coded >= 0) {
    const code = (chain[coded] as { code: string }).code;
    const cause = CAUSES[code];
    return cause ? { cause, detail: code } : { detail: `${messages[coded]} (${code})` };
  }
  for (const [words, cause] of CAUSES_BY_WORDS) {
    for (const message of messages) {
      const match = words.exec(message);
      if (match) return { cause, detail: match[0] };
    }
  }
  return { detail: messages[0] ?? "no reason given" };
}

/**
 * A runtime's message as the SDK's messages are written: addresses by their path only (never a query
 * or a port), without Deno's opening (the address and the sockets) and Bun's advice about fetch options.
 */
function pathsOnly(message: string): string {
  return message
    .replace(/^error sending request (?:from \S+ )?for (?:url \(\S*\)|\S+ \(\S*\)): /, "")
    .replace(/\. For more information, pass `verbose: true` in the second argument to fetch\(\)$/, "")
    .replace(/\bhttps?:\/\/[^\s"'()]+/g, (address) => pathOf(address));
}

/**
 * `GET /v1/accounts answered HTTP 400`, then the API's message, or the start of the body: one that is
 * not JSON, or what the SDK put in place of one it withheld or did not keep (which may have been JSON).
 */
function describeStatus({ status, method, url, rawBody }: CdasApiErrorInit, apiMessage?: string): string {
  const call = `${method} ${pathOf(url)} answered HTTP ${status}`;
  if (apiMessage !== undefined) return `${call}: ${quoted(apiMessage, API_MESSAGE_QUOTED)}`;
  if (!rawBody) return call;
  return `${call} (body: ${quoted(rawBody, RAW_BODY_QUOTED)})`;
}

/**
 * Characters of the API's message that `message` and `toJSON` quote: a server's message of any length
 * would otherwise make every log line of the error as long (`apiMessage` and `body` keep it whole).
 */
const API_MESSAGE_QUOTED = 1000;
/** Characters of a body that is not JSON (an HTML page, a proxy's text) that `message` quotes. */
const RAW_BODY_QUOTED = 120;

/** Text cut to `limit` characters (not inside a surrogate pair), an ellipsis marking the cut. */
function quoted(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, end)}…`;
}

/** The path of a URL for messages (never its query, which may carry ids). */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** A JSON object (an options object): not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Picks the documented fields, each only when it has the documented type. */
export function errorFields(body: unknown): CdasErrorBody {
  if (!isObject(body)) return {};
  const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : undefined);
  const flag = (key: string) => (typeof body[key] === "boolean" ? (body[key] as boolean) : undefined);
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

/**
 * The three forms of an HTTP date (RFC 9110 5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the
 * obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_NAME = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const MONTH = `(?<month>${MONTHS.join("|")})`;
const TIME = "(?<time>\\d{2}:\\d{2}:\\d{2})";
const HTTP_DATES = [
  `^${DAY_NAME}, (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`,
  `^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (?<day>\\d{2})-${MONTH}-(?<year>\\d{2}) ${TIME} GMT$`,
  `^${DAY_NAME} ${MONTH} (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`,
].map((form) => new RegExp(form));

/** The longest wait a timer keeps (2^31 - 1 ms, about 24.8 days): a longer one fires at once. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Reads `Retry-After` as milliseconds from now: a non-negative integer of seconds or an HTTP date,
 * at most `LONGEST_TIMER_MS` (so that a caller's `setTimeout` waits it). Anything else (`-5`, `1.5`,
 * `soon`) is ignored: undefined, and the backoff applies.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, LONGEST_TIMER_MS);
  const written = HTTP_DATES.map((form) => form.exec(trimmed)?.groups).find(Boolean);
  if (written === undefined) return undefined;
  // asctime has no zone and means GMT.
  const date = Date.parse(trimmed.endsWith(" GMT") ? trimmed : `${trimmed} GMT`);
  if (Number.isNaN(date)) return undefined;
  // Date.parse rolls what the calendar lacks over (31 Nov is 1 Dec, 24:00:00 the next day) and reads
  // the year 0026 as 2026: the date it read must be the one written.
  const read = new Date(date);
  const { day, month, year = "", time } = written;
  const readYear = year.length === 2 ? read.getUTCFullYear() % 100 : read.getUTCFullYear();
  if (
    Number(day) !== read.getUTCDate() ||
    month !== MONTHS[read.getUTCMonth()] ||
    Number(year) !== readYear ||
    time !== read.toISOString().slice(11, 19)
  )
    return undefined;
  return Math.min(Math.max(0, date - now), LONGEST_TIMER_MS);
}

/**
 * The wait an answer's `Retry-After` asks for, in ms from `now` (see `parseRetryAfter`): the one
 * reading of the header, for an error's `retryAfterMs` and for the retry loop's wait alike.
 */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  return parseRetryAfter(headers.get("retry-after"), now);
}
