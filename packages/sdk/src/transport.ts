/**
 * The `fetch` given to openapi-fetch: bearer, 401 renewal, retries, deadlines, redirects and the
 * response size limit, and the token call itself. An error answer is read whole and the secret
 * taken out of it; a 2xx answer is handed back unread, its body bounded by `maxResponseBytes` and
 * still under the attempt's deadline, which the client's method wrappers end once openapi-fetch has
 * read it (they also type a failure while reading it).
 */
import { FILLED_QUERY, JSON_MEDIA_TYPE, TOKEN_PATH, VERSION_HEADER } from "./api.js";
import { createTokenSource, type IssuedToken, readTokenResponse } from "./auth.js";
import {
  apiErrorFor,
  bodyReadError,
  calledAs,
  invalidAnswer,
  invalidOptions,
  invalidResponse,
  isCdasError,
  redactedCall,
  unreadableAnswer,
  wireFailure,
} from "./errors.js";
import {
  decodingBudget,
  type Redact,
  redactBody,
  redactHeaders,
  withoutToken,
  withTokenRedacted,
} from "./redact.js";
import { acceptedReason, bounded, errorTextOf, withUrl } from "./response.js";
import {
  type ErrorAnswer,
  isErrorAnswer,
  type Outcome,
  type RetryPolicy,
  retryDelay,
  shouldRetry,
  sleep,
} from "./retry.js";
import { followAbort } from "./signals.js";

/**
 * The fetch the SDK calls: the standard signature. It receives a Request (with `redirect: "manual"`)
 * and an init whose `signal` carries the deadline and the caller's abort; like every fetch, it must honour it.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** The SDK's fetch for openapi-fetch: a call's Request, and what the client's method wrapper knows of the call. */
export type Transport = (request: Request, context?: CallContext) => Promise<Response>;

/**
 * What bounds one call: its deadline, the body it reads and its retries. `createSdk`'s options, or an
 * SDK's of `withOptions`; the token call keeps `createSdk`'s.
 */
export interface CallLimits {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly retry: RetryPolicy;
}

/** What the client's method wrapper and the transport share about one call. */
export interface CallContext {
  readonly limits: CallLimits;
  /**
   * The call's abort signal, if the caller gave one (the request's own follows it): for `sdk.client`'s
   * calls, one of the call's own that follows the caller's while the call runs (core.ts), aborting with
   * the caller's reason itself, the object `failure` hands back.
   */
  readonly callerSignal: AbortSignal | undefined;
  /** Set when the request reaches the transport: a failure before that was never sent. */
  sent: boolean;
  /** How many times the call has been sent (retries and a 401's renewal included): errors say it. */
  attempts: number;
  /** The address of the request openapi-fetch built, when a middleware may answer it in the transport's place. */
  requested: string | undefined;
  /** The response handed back to openapi-fetch: a failure while its body is still unread is not the wire's. */
  answer: Response | undefined;
  /**
   * The deadline of a 2xx answer handed back unread: ended once its body has been read; once it has
   * fired, a failed read is the wire's.
   */
  readDeadline: Deadline | undefined;
  /** What the transport failed with, if it did: anything else thrown for the call came from a middleware's onError. */
  failure: unknown;
  /** Whether a middleware of the caller's runs on the call (then the SDK's own marks `pastMiddleware`). */
  watched: boolean;
  /** Set once the answer is past every middleware's onResponse: a failure after that is the body read's. */
  pastMiddleware: boolean;
}

/** A context of a call's own, for a caller that does not share one (the token call, a middleware's own fetch). */
export function newCallContext(limits: CallLimits, callerSignal?: AbortSignal | null): CallContext {
  return {
    limits,
    callerSignal: callerSignal ?? undefined,
    sent: false,
    attempts: 0,
    requested: undefined,
    answer: undefined,
    readDeadline: undefined,
    failure: undefined,
    watched: false,
    pastMiddleware: false,
  };
}

export interface TransportConfig {
  fetch: FetchLike;
  /** The fetch hands bodies back as sent, content codings undone by the SDK (Bun's, see core.ts). */
  inflates: boolean;
  baseUrl: string;
  clientId: string;
  /** The SDK's version: every call sends it as `X-Platform-Version`, the one its types describe. */
  version: string;
  /** The SDK's headers, for the token call (openapi-fetch adds them to every other call). */
  headers: Record<string, string>;
  /** The limits of a call without a context of its own: the token call, a middleware's own fetch. */
  limits: CallLimits;
  /** Removes the client secret from any text handed back. */
  redact: Redact;
  /** Builds the token request body; the only place that sees the secret. */
  tokenBody: () => string;
}

/** One call as the retry loop repeats it. */
interface Call {
  /** Sent as it is when it has no body; each attempt of a call with a body sends a copy with `body`. */
  request: Request;
  /** The body, kept so that it can be sent again. */
  body: ArrayBuffer | string | null;
  /** The token call: never a bearer, never a redirect. */
  isTokenCall: boolean;
  context: CallContext;
  /** The bearer token the attempt in progress sent (none for the token call). */
  token?: string | undefined;
  /**
   * What is taken out of everything the call hands back or throws: the secret, and the bearer token the
   * attempt in progress sent (a server may echo it).
   */
  redact: Redact;
}

/** One attempt's deadline, ended by `end()`. */
interface Deadline {
  /** Aborts with a TimeoutError `timeoutMs` after the start, or with the reason of the signal it follows. */
  signal: AbortSignal;
  /** Whether the time ran out (not the followed signal). */
  timedOut: boolean;
  end: () => void;
}

/**
 * A controller and a timer, not `AbortSignal.timeout`: that one cannot be ended, so its weak timer and
 * finalizer live on for `timeoutMs` after a call that took a millisecond (about 8 µs a call on Node 20,
 * against 0.2 µs for a timer cleared); and one referenced only by an `AbortSignal.any` is
 * garbage-collected with its timer, so a stalled body would never time out. This timer holds its
 * controller until it fires or the attempt ends. The request's own signal (the caller's abort) is
 * followed (`followAbort`) until the attempt ends: every page of a walk has a signal.
 */
function startDeadline(timeoutMs: number, follows: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  const letGo = followAbort(controller, follows);
  const timer = setTimeout(() => {
    deadline.timedOut = true;
    deadline.end(); // lets go of `follows`, even if nothing ends the attempt (a stream never read)
    controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
  }, timeoutMs);
  // A deadline never keeps the process alive (Node, Bun, and Deno running npm code have `unref`).
  (timer as { unref?: () => void }).unref?.();
  const deadline = {
    signal: controller.signal,
    timedOut: false,
    end: () => {
      clearTimeout(timer);
      letGo();
    },
  };
  return deadline;
}

/** Same-origin redirects of reads followed at most this many times per attempt. */
const MAX_REDIRECTS = 5;

/**
 * The transport. It runs past 80 lines as one closure on purpose: its steps (query filling, the token
 * call, the retry loop, one attempt, redirects, reading an error answer) share the config and the token
 * source, and each is a short function of its own below.
 */
export function createTransport(config: TransportConfig): Transport {
  const tokenUrl = `${config.baseUrl}${TOKEN_PATH}`;
  const origin = new URL(config.baseUrl).origin;
  const onOrigin = `${origin}/`;
  const tokens = createTokenSource(issueToken);
  const filledQueries = Object.entries(FILLED_QUERY).map(([path, name]) => ({
    listUrl: `${config.baseUrl}${path}`,
    withQuery: `${config.baseUrl}${path}?`,
    name,
  }));

  /** A GET of a list whose query the SDK fills in (the institutions' client_id), filled when the caller left it out. */
  function withFilledQuery(method: string, url: string): string {
    if (method !== "GET") return url;
    for (const { listUrl, withQuery, name } of filledQueries) {
      if (url !== listUrl && !url.startsWith(withQuery)) continue;
      const target = new URL(url);
      if (target.searchParams.get(name)) return url;
      target.searchParams.set(name, config.clientId);
      return target.href;
    }
    return url;
  }

  /** A call as errors name it; after a redirect `url` is the server's Location, redacted as all of its text is. */
  const callOf = (method: string, url: string) => redactedCall(method, url, config.redact);
  const called = (method: string, url: string) => calledAs(callOf(method, url));
  const tokenCall = callOf("POST", tokenUrl);
  /** The call an answer came for, as its errors name it (`call.redact`: the bearer token taken out too). */
  const answeredCall = (call: Call, url: string) => redactedCall(call.request.method, url, call.redact);

  /** The token call; `signal` aborts it once no caller waits for it (auth.ts). */
  async function issueToken(signal: AbortSignal): Promise<IssuedToken> {
    const headers = new Headers(config.headers);
    headers.set("content-type", JSON_MEDIA_TYPE);
    const body = config.tokenBody();
    const request = new Request(tokenUrl, { method: "POST", headers, redirect: "manual", signal });
    const context = newCallContext(config.limits, signal);
    const call: Call = { request, body, isTokenCall: true, context, redact: config.redact };
    const answer = await withRetries(call);
    if (isErrorAnswer(answer))
      throw apiErrorFor(answer, "POST", tokenUrl, answer.errorText, config.redact, call.context.attempts);
    let text: string;
    try {
      text = await answer.text();
    } catch (error) {
      throw bodyReadError(error, "POST", tokenUrl, call.context, config.redact);
    } finally {
      call.context.readDeadline?.end();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // reported below
    }
    const issued = readTokenResponse(parsed);
    if (!issued)
      throw invalidResponse(`POST ${TOKEN_PATH} answered without a usable token and expires_in`, tokenCall);
    // The token goes with every call (and middleware sees it): one that spells the secret would carry it.
    if (config.redact(issued.token) !== issued.token)
      throw invalidResponse(
        `POST ${TOKEN_PATH} answered a token that holds the client secret; it is not used`,
        tokenCall,
      );
    return issued;
  }

  /** The one retry loop, for every call (the token call included), with the 401 renewal. */
  async function withRetries(call: Call): Promise<Response | ErrorAnswer> {
    const retried = { method: call.request.method, isTokenCall: call.isTokenCall };
    const signal = call.context.callerSignal;
    const { retry } = call.context.limits;
    let renewed = false;
    for (let retries = 0; ; ) {
      const token = call.isTokenCall ? undefined : (tokens.fresh() ?? (await tokens.get(signal)));
      let outcome: Outcome;
      call.context.attempts++;
      try {
        outcome = await exchange(call, token);
      } catch (error) {
        // The caller's abort rejects with the caller's reason.
        if (signal?.aborted) throw error;
        // Anything but the SDK's own error came from an answer it could not examine (a custom fetch's).
        const { method, url } = call.request;
        outcome = isCdasError(error) ? error : unreadableAnswer(error, method, url, call.redact);
      }
      if (token !== undefined && !renewed && isErrorAnswer(outcome) && outcome.status === 401) {
        renewed = true;
        tokens.invalidate(token);
        continue;
      }
      if (!shouldRetry(retry, retried, retries, outcome)) {
        if (outcome instanceof Error) throw outcome;
        return outcome;
      }
      await sleep(retryDelay(retry, retries++, outcome), signal);
    }
  }

  /**
   * One attempt under one deadline, same-origin redirects included. The deadline ends here unless the
   * answer is a 2xx handed back unread: then it runs on while the body is read (`context.readDeadline`).
   */
  async function exchange(call: Call, token: string | undefined): Promise<Response | ErrorAnswer> {
    // Without a signal of the caller's, the request's own can never abort: it is not followed.
    const follows = call.context.callerSignal && call.request.signal;
    const deadline = startDeadline(call.context.limits.timeoutMs, follows);
    const { signal } = deadline;
    call.token = token;
    call.redact = withTokenRedacted(config.redact, token);
    if (token !== undefined) call.request.headers.set("authorization", `Bearer ${token}`);
    // Redirects are the SDK's to follow: a custom fetch may honour the request's own mode, not the init's
    // (a middleware's new Request, or the token call, would otherwise follow them, secret and all).
    const manual = call.request.redirect === "manual";
    let request =
      call.body === null && manual
        ? call.request
        : new Request(call.request, { body: call.body, redirect: "manual" });
    let handedBack = false;
    try {
      for (let redirects = 0; ; redirects++) {
        const url = request.url;
        let response: Response;
        try {
          response = await config.fetch(request, { signal, redirect: "manual" });
        } catch (error) {
          throw failure(error, call, url, deadline);
        }
        let next: string | undefined;
        try {
          next = redirectTarget(response, call, url, redirects);
        } catch (error) {
          discard(response);
          throw error;
        }
        if (next === undefined) {
          if (!response.ok) return await readError(response, call, url, deadline);
          const limited = withSizeLimit(response, call, url, signal);
          // An answer names the address it came from, as a fetch's does; a custom fetch's may not.
          if (limited.url === "" && limited instanceof Response) withUrl(limited, url);
          const answer = redactedAnswer(limited, call.redact);
          handedBack = true;
          call.context.readDeadline = deadline;
          return answer;
        }
        await discard(response);
        request = new Request(next, { method: request.method, headers: request.headers, redirect: "manual" });
      }
    } finally {
      if (!handedBack) deadline.end();
    }
  }

  /**
   * Where a redirect leads when the SDK follows it (a read, to the same origin); undefined for an
   * answer to hand back. Throws for anything else: nothing leaves for another origin.
   */
  function redirectTarget(
    response: Response,
    call: Call,
    url: string,
    redirects: number,
  ): string | undefined {
    const { method } = call.request;
    // Not `instanceof Response`: a custom fetch may return another implementation's (undici's from npm).
    const isResponse =
      Number.isInteger(response?.status) &&
      typeof response.headers?.get === "function" &&
      typeof response.headers[Symbol.iterator] === "function" &&
      typeof response.url === "string" &&
      typeof response.statusText === "string" &&
      typeof response.text === "function" &&
      (response.body === null || typeof response.body?.getReader === "function");
    if (!isResponse) {
      throw invalidAnswer(
        answeredCall(call, url),
        ": the fetch in use resolved to something that is not a Response",
      );
    }
    const { status } = response;
    // A Location is the server's to write: the message shows none of the secret.
    const refused = (why: string) => {
      const answered = answeredCall(call, url);
      return invalidResponse(call.redact(`${calledAs(answered)} answered HTTP ${status}${why}`), answered);
    };
    // An answer of a fetch that followed a redirect itself (ignoring the request's mode): none for the
    // token call, none from another origin.
    if (response.redirected === true) {
      if (call.isTokenCall)
        throw refused(
          " after a redirect the fetch in use followed: the token endpoint redirected; the SDK never uses the answer of a redirected token call",
        );
      if (!URL.canParse(response.url) || new URL(response.url).origin !== origin)
        throw refused(", after a redirect the fetch in use followed to another origin: not used");
    }
    if (status >= 200 && status < 300) return undefined;
    const location = response.headers.get("location");
    const isRedirect = response.type === "opaqueredirect" || (status >= 300 && status < 400);
    if (isRedirect && call.isTokenCall) {
      throw refused(
        ": the token endpoint redirected; the SDK never follows a redirect of the token call (it would send the client secret elsewhere)",
      );
    }
    if (status < 200 || status > 599) throw refused(", a status outside 200-599");
    if (!isRedirect || location === null) return undefined;
    let target: URL;
    try {
      target = new URL(location, url);
    } catch {
      throw refused(" with a Location that is not an address");
    }
    if (target.origin !== origin) {
      const where = originShown(target, location);
      throw refused(
        `, a redirect to another origin${where ? ` (${where})` : ""}, not followed: only same-origin redirects are`,
      );
    }
    if (method !== "GET" && method !== "HEAD") return undefined;
    if (target.username || target.password) throw refused(", a redirect to an address with credentials");
    // The secret goes in the token call's body alone, never in an address (logs and proxies keep those).
    if (config.redact(target.href) !== target.href)
      throw refused(", a redirect to an address that holds the client secret: not followed");
    if (redirects >= MAX_REDIRECTS) throw refused(`, more than ${MAX_REDIRECTS} redirects`);
    return target.href;
  }

  /** The answer with its body bounded by `maxResponseBytes` and ended by `signal`; the error names the call. */
  function withSizeLimit(response: Response, call: Call, url: string, signal: AbortSignal): Response {
    const answered = () => answeredCall(call, url);
    return bounded(response, call.context.limits.maxResponseBytes, signal, answered, config.inflates);
  }

  /**
   * An error answer, read whole here (within the limit and the deadline), the secret and the bearer
   * token the attempt sent taken out (the token as written first: a JSON key that echoes it is then
   * not read as spelling the secret).
   */
  async function readError(
    response: Response,
    call: Call,
    url: string,
    deadline: Deadline,
  ): Promise<ErrorAnswer> {
    let errorText: string | undefined;
    try {
      errorText = await errorTextOf(withSizeLimit(response, call, url, deadline.signal), () =>
        answeredCall(call, url),
      );
    } catch (error) {
      throw failure(error, call, url, deadline, " while reading the body");
    }
    const { budget, ...parts } = shownParts(url, response.statusText, response.headers, call.redact);
    const body = errorText === undefined ? undefined : withoutToken(errorText, call.token);
    return { status: response.status, ...parts, errorText: redactBody(body, config.redact, budget) };
  }

  /**
   * A 2xx answer as handed back: without the secret in its address (a caller may have put it in the
   * query), its reason phrase or its headers (a server may echo it), nor the bearer token (`redact`, the
   * call's); its body is the caller's to read.
   */
  function redactedAnswer(response: Response, redact: Redact): Response {
    const { status, statusText: reason, headers: received, url: address } = response;
    const { url, statusText, headers } = shownParts(address, reason, received, redact);
    if (url === address && statusText === reason && headers === received) return response;
    return withUrl(new Response(response.body, { status, statusText, headers }), url);
  }

  /**
   * An answer's address, reason phrase and headers as handed back: without the secret (what `redact`
   * takes out), and no reason phrase a Response would refuse. They and the error body share the
   * answer's one `budget` of decoding work.
   */
  function shownParts(url: string, statusText: string, headers: Headers, redact: Redact) {
    const budget = decodingBudget();
    return {
      url: redact(url, undefined, budget),
      statusText: redact(acceptedReason(statusText), undefined, budget),
      headers: redactHeaders(headers, redact, budget),
      budget,
    };
  }

  /** What a failed fetch or body read becomes: the caller's abort reason, or the SDK's own error. */
  function failure(error: unknown, call: Call, url: string, deadline: Deadline, during = ""): unknown {
    const { callerSignal } = call.context;
    if (callerSignal?.aborted) return callerSignal.reason;
    return wireFailure(error, call.request.method, url, {
      timedOut: deadline.timedOut,
      timeoutMs: call.context.limits.timeoutMs,
      redact: call.redact,
      during,
      attempts: call.context.attempts,
    });
  }

  /**
   * The SDK's token goes to the API's origin alone: a call that openapi-fetch builds for another
   * (a per-call `baseUrl`) or that a middleware sends elsewhere (a Request of its own) is refused.
   */
  function checkOrigin(request: Request): void {
    // A Request's address is serialised whole: one on the origin starts with it (parsed only otherwise).
    if (request.url.startsWith(onOrigin)) return;
    const target = new URL(request.url);
    if (target.origin === origin) return;
    const elsewhere = originShown(target, request.url) ?? "another origin";
    throw invalidOptions(
      config.redact(
        `${called(request.method, request.url)}: the SDK sends its calls, and its token, only to ${origin} (baseUrl's origin), not to ${elsewhere} (a per-call baseUrl or a middleware's Request)`,
      ),
    );
  }

  /**
   * An address's scheme and host as a message names them, or undefined when the address holds the secret: the
   * origin alone is a cut of it (a secret holding `/` or `@` is cut at the host), which redaction of
   * the message cannot see.
   */
  function originShown(address: URL, written: string): string | undefined {
    const { redact } = config;
    if (redact(written) !== written || redact(address.href) !== address.href) return undefined;
    return `${address.protocol}//${address.host}`; // not `origin`, which is "null" for a scheme like data:
  }

  /**
   * A call's own headers win over the SDK's, but not on the version: an answer of another version (or of
   * the console's pinned one, without the header) would come back typed as the SDK's.
   */
  function checkVersion(request: Request): void {
    const sent = request.headers.get(VERSION_HEADER);
    if (sent === config.version) return;
    const got = sent === null ? "none" : JSON.stringify(sent);
    throw invalidOptions(
      config.redact(
        `${called(request.method, request.url)}: ${VERSION_HEADER} must be ${config.version}, the SDK's version (got ${got}); for another version, create an SDK of that version`,
      ),
    );
  }

  return async (request, context = newCallContext(config.limits)) => {
    context.sent = true;
    const body = request.body === null ? null : await request.arrayBuffer();
    // openapi-fetch's JSON media type, with the charset the interface writes.
    if (body !== null && request.headers.get("content-type") === "application/json") {
      request.headers.set("content-type", JSON_MEDIA_TYPE);
    }
    const url = request.url;
    const filled = withFilledQuery(request.method, url);
    if (filled !== url) request = new Request(filled, request);
    const isTokenCall = request.method === "POST" && filled === tokenUrl;
    let answer: Response | ErrorAnswer;
    try {
      checkOrigin(request);
      checkVersion(request);
      answer = await withRetries({ request, body, isTokenCall, context, redact: config.redact });
    } catch (error) {
      context.failure = error;
      throw error;
    }
    context.answer = isErrorAnswer(answer) ? toResponse(answer) : answer;
    return context.answer;
  };
}

/** Lets go of an answer's body unread (nothing to do for a fetch that resolved to something else). */
function discard(response: Response | null | undefined): Promise<void> {
  const body = response?.body;
  try {
    return Promise.resolve(body?.cancel()).catch(() => {});
  } catch {
    return Promise.resolve(); // a body-like thing whose cancel is not a function
  }
}

/** The Response handed to openapi-fetch for an error answer: its redacted text. */
function toResponse(answer: ErrorAnswer): Response {
  const { status, statusText, headers, errorText } = answer;
  const nullBody = status === 204 || status === 205 || status === 304 || errorText === "";
  return withUrl(new Response(nullBody ? null : errorText, { status, statusText, headers }), answer.url);
}
