/**
 * The `fetch` given to openapi-fetch: bearer, 401 renewal, retries, deadlines, redirects and the
 * response size limit, and the token call itself. Every answer it hands back has its body read
 * (within `maxResponseBytes` and the deadline) and the secret redacted, so nothing that reads it
 * later can fail on the network or see the secret.
 */
import { FILLED_QUERY, JSON_MEDIA_TYPE, TOKEN_PATH } from "./api.js";
import { createTokenSource, type IssuedToken, readTokenResponse } from "./auth.js";
import {
  apiErrorFor,
  connectionError,
  invalidResponse,
  isCdasError,
  pathOf,
  timeoutError,
} from "./errors.js";
import { type Answer, type RetryPolicy, retryDelay, shouldRetry, sleep } from "./retry.js";

/**
 * The fetch the SDK calls: the standard signature. It receives a Request (with `redirect: "manual"`)
 * and an init whose `signal` carries the deadline and the caller's abort; like every fetch, it must honour it.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

export interface TransportConfig {
  fetch: FetchLike;
  baseUrl: string;
  clientId: string;
  /** The SDK's headers, for the token call (openapi-fetch adds them to every other call). */
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: RetryPolicy;
  /** Removes the client secret from any text handed back. */
  redact: (text: string) => string;
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
}

/** Same-origin redirects of reads followed at most this many times per attempt. */
const MAX_REDIRECTS = 5;

export function createTransport(config: TransportConfig): (request: Request) => Promise<Response> {
  const tokenUrl = `${config.baseUrl}${TOKEN_PATH}`;
  const origin = new URL(config.baseUrl).origin;
  const tokens = createTokenSource(issueToken);
  const filledQueries = Object.entries(FILLED_QUERY).map(([path, name]) => [
    `${config.baseUrl}${path}`,
    name,
  ]);

  /** A GET of a list whose query the SDK fills in (the institutions' client_id), filled when the caller left it out. */
  function withFilledQuery(method: string, url: string): string {
    if (method !== "GET") return url;
    for (const [listUrl = "", name = ""] of filledQueries) {
      if (url !== listUrl && !url.startsWith(`${listUrl}?`)) continue;
      const target = new URL(url);
      if (target.searchParams.get(name)) return url;
      target.searchParams.set(name, config.clientId);
      return target.href;
    }
    return url;
  }

  async function issueToken(): Promise<IssuedToken> {
    const headers = new Headers(config.headers);
    headers.set("content-type", JSON_MEDIA_TYPE);
    const body = config.tokenBody();
    const request = new Request(tokenUrl, { method: "POST", headers });
    const answer = await withRetries({ request, body, isTokenCall: true });
    if (typeof answer.body === "string") throw apiErrorFor(answer, "POST", tokenUrl, answer.body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(answer.body));
    } catch {
      // reported below
    }
    const issued = readTokenResponse(parsed);
    if (issued) return issued;
    throw invalidResponse(`POST ${TOKEN_PATH} answered without a usable token and expires_in`);
  }

  /** The one retry loop, for every call (the token call included), with the 401 renewal. */
  async function withRetries(call: Call): Promise<Answer> {
    const { method, signal } = call.request;
    const repeatable = call.isTokenCall || method === "GET" || method === "HEAD";
    let renewed = false;
    for (let retries = 0; ; ) {
      const token = call.isTokenCall ? undefined : await tokens.get(signal);
      let outcome: Answer | Error;
      try {
        outcome = await exchange(call, token);
      } catch (error) {
        // The caller's abort rejects with the caller's reason.
        if (signal.aborted || !isCdasError(error)) throw error;
        outcome = error;
      }
      if (token !== undefined && !renewed && !(outcome instanceof Error) && outcome.status === 401) {
        renewed = true;
        tokens.invalidate(token);
        continue;
      }
      if (!shouldRetry(config.retry, repeatable, retries, outcome)) {
        if (outcome instanceof Error) throw outcome;
        return outcome;
      }
      await sleep(retryDelay(config.retry, retries++, outcome), signal);
    }
  }

  /** One attempt under one deadline (`AbortSignal.timeout`), same-origin redirects and the body included. */
  async function exchange(call: Call, token: string | undefined): Promise<Answer> {
    const deadline = AbortSignal.timeout(config.timeoutMs);
    const signal = AbortSignal.any([call.request.signal, deadline]);
    if (token !== undefined) call.request.headers.set("authorization", `Bearer ${token}`);
    let request = call.body === null ? call.request : new Request(call.request, { body: call.body });
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
        response.body?.cancel().catch(() => {});
        throw error;
      }
      if (next === undefined) return read(response, call, url, deadline);
      await response.body?.cancel().catch(() => {});
      request = new Request(next, { method: request.method, headers: request.headers });
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
    const what = () => `${method} ${pathOf(url)} answered HTTP ${response.status}`;
    if (typeof response?.status !== "number" || typeof response.headers?.get !== "function") {
      throw invalidResponse(
        `${method} ${pathOf(url)}: the fetch in use resolved to something that is not a Response`,
      );
    }
    const location = response.headers.get("location");
    const isRedirect =
      response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
    if (isRedirect && call.isTokenCall) {
      throw invalidResponse(
        `${what()}: the token endpoint redirected; the SDK never follows a redirect of the token call (it would send the client secret elsewhere)`,
      );
    }
    if (response.status < 200 || response.status > 599)
      throw invalidResponse(`${what()}, a status outside 200-599`);
    if (!isRedirect || location === null) return undefined;
    let target: URL;
    try {
      target = new URL(location, url);
    } catch {
      throw invalidResponse(`${what()} with a Location that is not an address`);
    }
    if (target.origin !== origin) {
      throw invalidResponse(
        `${what()}, a redirect to another origin (${target.protocol}//${target.host}), not followed: only same-origin redirects are`,
      );
    }
    if (method !== "GET" && method !== "HEAD") return undefined;
    if (target.username || target.password)
      throw invalidResponse(`${what()}, a redirect to an address with credentials`);
    if (redirects >= MAX_REDIRECTS) throw invalidResponse(`${what()}, more than ${MAX_REDIRECTS} redirects`);
    return target.href;
  }

  async function read(response: Response, call: Call, url: string, deadline: AbortSignal): Promise<Answer> {
    const { method } = call.request;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await readBody(response, config.maxResponseBytes, () => `${method} ${pathOf(url)}`);
    } catch (error) {
      throw failure(error, call, url, deadline, " while reading the body");
    }
    const { status, statusText, headers } = response;
    if (response.ok) return { status, statusText, headers, url, body: bytes };
    // An error answer is handed back (thrown, or as `{ error }`): the secret is taken out of it.
    const body = config.redact(new TextDecoder().decode(bytes));
    return { status, statusText, headers: redactHeaders(headers, config.redact), url, body };
  }

  /** What a failed fetch or body read becomes: the caller's abort reason, or the SDK's own error. */
  function failure(error: unknown, call: Call, url: string, deadline: AbortSignal, during = ""): unknown {
    const { method, signal } = call.request;
    if (signal.aborted) return signal.reason;
    if (isCdasError(error)) return error;
    if (deadline.aborted) return timeoutError(method, url, config.timeoutMs);
    return connectionError(error, method, url, config.redact, during);
  }

  return async (request) => {
    const body = request.body === null ? null : await request.arrayBuffer();
    // openapi-fetch's JSON media type, with the charset the interface writes.
    if (body !== null && request.headers.get("content-type") === "application/json") {
      request.headers.set("content-type", JSON_MEDIA_TYPE);
    }
    const filled = withFilledQuery(request.method, request.url);
    if (filled !== request.url) request = new Request(filled, request);
    const isTokenCall = request.method === "POST" && request.url === tokenUrl;
    return toResponse(await withRetries({ request, body, isTokenCall }));
  };
}

/** Reads a body whole, counting its decoded bytes: past `limit`, the body is cancelled and the read fails. */
async function readBody(
  response: Response,
  limit: number,
  what: () => string,
): Promise<Uint8Array<ArrayBuffer>> {
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw invalidResponse(
        `${what()} answered a body larger than maxResponseBytes (${limit} bytes once decoded)`,
      );
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

function redactHeaders(headers: Headers, redact: (text: string) => string): Headers {
  for (const [, value] of headers) {
    if (redact(value) !== value) {
      const copy = new Headers();
      for (const [name, item] of headers) copy.append(name, redact(item));
      return copy;
    }
  }
  return headers;
}

/** The Response handed to openapi-fetch: the body already read, the answer's address kept as a fetch's is. */
function toResponse(answer: Answer): Response {
  const { status, statusText, headers, body } = answer;
  const nullBody = status === 204 || status === 205 || status === 304 || body.length === 0;
  const response = new Response(nullBody ? null : body, { status, statusText, headers });
  Object.defineProperty(response, "url", { value: answer.url });
  return response;
}
