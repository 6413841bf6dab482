/** Test helpers: a scripted fetch that records what the SDK sends. */
import createClient, { type ClientOptions, type Middleware } from "openapi-fetch";
import { buildSdk, type SdkOptions } from "../src/core.js";
import type { PaginationSpec } from "../src/paginate.js";

export const SECRET = 's3cr3t-"quoted"/&+value';
/** A fragment of the secret that survives any escaping: finding it anywhere is a leak. */
export const SECRET_MARK = "s3cr3t";
export const CLIENT_ID = "client_test";

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
  signal: AbortSignal | undefined;
}

export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export function json(body: unknown, init: ResponseInit & { contentType?: string } = {}): Response {
  const { contentType = "application/json", ...rest } = init;
  return new Response(JSON.stringify(body), {
    status: 200,
    ...rest,
    headers: { "content-type": contentType, ...(rest.headers as Record<string, string>) },
  });
}

export function tokenResponse(token = "tok_1", expiresIn = 3600): Response {
  return json({ access_token: token, token_type: "Bearer", expires_in: expiresIn });
}

/**
 * Delivers `answer` as a standard fetch would under `signal`: an abort rejects an answer not yet
 * given, and errors a body still being read (the SDK's deadlines rely on exactly this).
 */
function underSignal(
  answer: Response | Promise<Response>,
  signal: AbortSignal | undefined,
): Promise<Response> {
  if (!signal) return Promise.resolve(answer);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(answer).then(
      (response) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) return onAbort();
        if (!(response instanceof Response) || response.body === null) return resolve(response);
        const body = response.body.pipeThrough(new TransformStream(), { signal });
        const { status, statusText, headers, url } = response;
        const copy = new Response(body, { status, statusText, headers });
        resolve(url ? Object.defineProperty(copy, "url", { value: url, configurable: true }) : copy);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** A fetch that answers the token call with fresh tokens and everything else with `handler`. */
export function scriptedFetch(handler: Handler, tokens: Handler = tokenSequence()) {
  const calls: RecordedRequest[] = [];
  const fetch = async (input: Request, init?: RequestInit): Promise<Response> => {
    const recorded: RecordedRequest = {
      method: input.method,
      url: new URL(input.url),
      headers: new Headers(input.headers),
      body: input.body ? await input.text() : "",
      signal: init?.signal ?? undefined,
    };
    calls.push(recorded);
    return underSignal(
      recorded.url.pathname === "/v1/token" ? tokens(recorded) : handler(recorded),
      recorded.signal,
    );
  };
  return {
    fetch,
    calls,
    tokenCalls: () => calls.filter((call) => call.url.pathname === "/v1/token"),
    dataCalls: () => calls.filter((call) => call.url.pathname !== "/v1/token"),
  };
}

export function tokenSequence(expiresIn = 3600): Handler {
  let issued = 0;
  return () => tokenResponse(`tok_${++issued}`, expiresIn);
}

/** The pagination map of the few test paths (the real maps come from the client packages). */
export const TEST_PAGINATION: Record<string, PaginationSpec> = {
  "/v1/accounts": { style: "offset", items: "data" },
  "/v1/banking/accounts": { style: "cursor", items: "accounts" },
  "/v1/institutions": { style: "none", items: "" },
  "/v1/identity": { style: "none", items: "data" },
  "/v1/end-users": { style: "cursor", items: "end_users" },
};

/**
 * The engine with an untyped openapi-fetch client, for behaviour tests independent of the generated
 * clients: whatever version the options name (v2 by default) is served by that client.
 */
export function testSdk(fetch: SdkOptions["fetch"], options: Partial<SdkOptions> = {}) {
  const version = options.version ?? "v2";
  const engine = {
    createClient: (clientOptions: ClientOptions) => createClient(clientOptions),
    pagination: TEST_PAGINATION,
  };
  return buildSdk(
    { [String(version)]: engine },
    {
      version,
      baseUrl: "https://api.test",
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      retryBaseDelayMs: 1,
      maxRetryDelayMs: 50,
      fetch,
      ...options,
    },
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the untyped test client
export const untyped = (client: unknown) => client as any;

/** What `GET /v1/accounts` through `sdk.client` rejects with once `middleware` is added. */
export function failureWith(sdk: { client: { use(middleware: Middleware): void } }, middleware: Middleware) {
  sdk.client.use(middleware);
  return untyped(sdk.client)
    .GET("/v1/accounts", {})
    .catch((e: unknown) => e) as Promise<unknown>;
}
