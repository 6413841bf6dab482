/**
 * The Request class and fetch wrapper handed to openapi-fetch: headers, bearer token, 401 renewal,
 * retries and per-attempt deadlines. The token call is made here too, never with a bearer.
 */
import {
  type Attempt,
  type AttemptThen,
  builtWithBearer,
  createAttempt,
  type FetchLike,
  sdkRequest,
  sleep,
  untilAborted,
} from "./attempt.js";
import { createTokenSource, type IssuedToken, readTokenResponse } from "./auth.js";
import { CdasApiError, CdasError, isCdasError, parseErrorText, parseRetryAfter } from "./errors.js";
import { backoffDelay, isTemporaryBody, RETRYABLE_STATUSES, type RetryPolicy, statusDelay } from "./retry.js";

export interface TransportConfig {
  fetch: FetchLike;
  baseUrl: string;
  version: string;
  clientId: string;
  userAgent: string;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Removes the client secret from any text that ends up in an error. */
  redact: (text: string) => string;
  /** Builds the token request body; the only place that sees the secret. */
  tokenBody: () => string;
}

const JSON_MEDIA_TYPE = "application/json; charset=UTF-8";

export interface Transport {
  /** The fetch given to openapi-fetch (and to the paginator for next links). */
  fetch: (request: Request) => Promise<Response>;
  /**
   * The Request class given to openapi-fetch (and used for next links): it adds the SDK's headers,
   * the bearer, and the `client_id` of the institutions list.
   */
  Request: typeof Request;
}

export function createTransport(config: TransportConfig): Transport {
  const { retry, redact } = config;
  const attempt = createAttempt(config.fetch, config.timeoutMs);
  const tokenUrl = `${config.baseUrl}/v1/token`;
  const institutionsUrl = `${config.baseUrl}/v1/institutions`;
  const headers = {
    "x-platform-version": config.version,
    accept: JSON_MEDIA_TYPE,
    "user-agent": config.userAgent,
  };
  const tokens = createTokenSource(() => issueToken(config, attempt, tokenUrl, headers));
  const plainHeaders = new Headers(headers);
  // The same headers with the bearer of the current token, rebuilt when the token changes.
  let bearerHeaders = plainHeaders;
  let bearerToken = "";

  /**
   * The Request class of openapi-fetch (which is given no headers of its own): when a call adds no
   * headers, the request is built from a Headers prepared once per token, so that each header is
   * checked once, by the Request, where openapi-fetch's merge, the Request's copy of it and a later
   * set of the bearer would check each several times (about 3% of a request). A call's own headers
   * are laid over the SDK's, as openapi-fetch's `headers` option would lay them.
   */
  const SdkClientRequest = function SdkClientRequest(input: string | URL, init?: RequestInit): Request {
    const method = init?.method ?? "GET";
    if ((method === "GET" || method === "HEAD") && String(input).startsWith(institutionsUrl))
      input = withClientId(input, institutionsUrl, config.clientId);
    const callHeaders = init?.headers as Headers | undefined;
    if (callHeaders === undefined || isEmptyHeaders(callHeaders)) {
      const token = tokens.current();
      if (token === undefined) return sdkRequest(input, { ...init, headers: plainHeaders });
      if (token !== bearerToken) {
        bearerToken = token;
        bearerHeaders = new Headers(headers);
        bearerHeaders.set("authorization", `Bearer ${token}`);
      }
      return sdkRequest(input, { ...init, headers: bearerHeaders }, token);
    }
    const merged = new Headers(headers);
    for (const [name, value] of callHeaders) merged.set(name, value);
    return sdkRequest(input, { ...init, headers: merged });
  } as unknown as typeof Request;

  function send(request: Request): Promise<Response> {
    const method = request.method;
    // A bearer the request was built with is the current token (built and sent in the same tick).
    const built = builtWithBearer(request);
    const token = method === "GET" || method === "HEAD" ? built || tokens.current() : undefined;
    if (token === undefined) return sendWithRecovery(request);
    // Fast path: a read (never a body) with a fresh token, one attempt whose promise is the result;
    // an answer that is not 2xx, or a failure, continues in the renewal and retry loop.
    if (built !== token) request.headers.set("authorization", `Bearer ${token}`);
    const then: AttemptThen = {
      answer: (response) => (response.ok ? response : sendWithRecovery(request, { token, answer: response })),
      failure: (error) => sendWithRecovery(request, { token, answer: Promise.reject(error) }),
    };
    return attempt(request, then);
  }

  /** Sends with 401 renewal and retries; `first` is the outcome of an attempt already made. */
  async function sendWithRecovery(
    request: Request,
    first?: { token: string; answer: Response | Promise<Response> },
  ): Promise<Response> {
    const signal = request.signal;
    const method = request.method;
    const isRead = method === "GET" || method === "HEAD";
    // A body can be sent once: keep its bytes so that the 401 retry can resend it.
    let bytes: ArrayBuffer | undefined;
    if (request.body !== null) {
      bytes = await request.arrayBuffer();
      request.headers.set("content-type", JSON_MEDIA_TYPE);
    }
    // The token call itself never carries a bearer, and is retried like a read.
    const isTokenCall = method === "POST" && request.url === tokenUrl;
    const retryable = isRead || isTokenCall;
    let renewed = isTokenCall;
    for (let retries = 0; ; ) {
      let token: string;
      let answer: Response | Promise<Response>;
      if (first) {
        ({ token, answer } = first);
        first = undefined;
      } else {
        token = isTokenCall ? "" : (tokens.current() ?? (await untilAborted(tokens.get(), signal)));
        const current = bytes === undefined ? request : rebuild(request, bytes);
        if (!isTokenCall) current.headers.set("authorization", `Bearer ${token}`);
        answer = attempt(current);
      }
      let response: Response;
      try {
        response = await answer;
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        const failure = transportFailure(error, method, request.url, redact);
        if (!retryable || retries >= retry.maxRetries) throw failure;
        await sleep(backoffDelay(retry, retries++), signal);
        continue;
      }
      if (response.status === 401 && !renewed) {
        renewed = true;
        tokens.invalidate(token);
        await drain(response);
        continue;
      }
      if (response.ok || !retryable || retries >= retry.maxRetries) return response;
      let delay: number;
      if (RETRYABLE_STATUSES.has(response.status)) {
        delay = statusDelay(retry, retries, response);
        await drain(response);
      } else {
        const text = await response.text();
        if (!isTemporaryBody(text)) return copyWithBody(response, text);
        delay = backoffDelay(retry, retries);
      }
      retries++;
      await sleep(delay, signal);
    }
  }

  return { fetch: send, Request: SdkClientRequest };
}

/** POST /v1/token with the client credentials; retried like a read. Non-2xx answers throw CdasApiError. */
async function issueToken(
  config: TransportConfig,
  attempt: Attempt,
  url: string,
  headers: Record<string, string>,
): Promise<IssuedToken> {
  const { retry, redact } = config;
  for (let retries = 0; ; ) {
    const request = sdkRequest(url, {
      method: "POST",
      headers: { ...headers, "content-type": JSON_MEDIA_TYPE },
      body: config.tokenBody(),
    });
    let response: Response;
    let text: string;
    try {
      response = await attempt(request);
      text = await response.text();
    } catch (error) {
      const failure = transportFailure(error, "POST", url, redact);
      if (retries >= retry.maxRetries) throw failure;
      await sleep(backoffDelay(retry, retries++));
      continue;
    }
    if (response.ok) {
      const issued = readTokenResponse(parseErrorText(text).body);
      if (issued) return issued;
      throw new CdasError(
        "invalid_response",
        "POST /v1/token answered without a usable token and expires_in",
      );
    }
    const retryable = RETRYABLE_STATUSES.has(response.status) || isTemporaryBody(text);
    if (!retryable || retries >= retry.maxRetries) throw apiError(response, "POST", url, text, redact);
    await sleep(
      RETRYABLE_STATUSES.has(response.status)
        ? statusDelay(retry, retries, response)
        : backoffDelay(retry, retries),
    );
    retries++;
  }
}

/** Whether a Headers (openapi-fetch always passes one) has no entry. */
function isEmptyHeaders(headers: Headers): boolean {
  for (const _ of headers) return false;
  return true;
}

/** A CdasApiError from an answer whose body has been read as text. */
export function apiError(
  response: Response,
  method: string,
  url: string,
  text: string,
  redact: (text: string) => string,
): CdasApiError {
  const parsed = parseErrorText(text);
  return new CdasApiError({
    status: response.status,
    method,
    url,
    body: redactDeep(parsed.body, redact),
    rawBody: parsed.rawBody === undefined ? undefined : redact(parsed.rawBody),
    retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
  });
}

/** Redacts every string (keys included) of a parsed JSON value. */
function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key), redactDeep(item, redact)]),
    );
  }
  return value;
}

function transportFailure(error: unknown, method: string, url: string, redact: (text: string) => string) {
  if (isCdasError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {}
  return new CdasError("network", redact(`${method} ${path} failed: ${reason}`), {
    cause: error instanceof Error ? new Error(redact(error.message)) : undefined,
  });
}

/** The institutions list takes the team's client_id: filled in when the caller left it out. */
function withClientId(input: string | URL, institutionsUrl: string, clientId: string): string | URL {
  const url = new URL(input);
  if (`${url.origin}${url.pathname}` !== institutionsUrl || url.searchParams.get("client_id")) return input;
  url.searchParams.set("client_id", clientId);
  return url;
}

function rebuild(request: Request, body: ArrayBuffer): Request {
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    redirect: request.redirect,
  });
}

function copyWithBody(response: Response, text: string): Response {
  return new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

async function drain(response: Response): Promise<void> {
  try {
    await response.arrayBuffer();
  } catch {
    // the answer is dropped anyway
  }
}
