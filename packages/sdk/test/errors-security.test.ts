import { getEventListeners } from "node:events";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { version } from "../package.json";
import {
  apiErrorOf,
  CdasApiError,
  CdasConnectionError,
  CdasInvalidOptionsError,
  isCdasApiError,
  isCdasError,
} from "../src/errors.js";
import { createSdk } from "../src/index.js";
import {
  CLIENT_ID,
  failureWith,
  json,
  SECRET,
  SECRET_MARK,
  scriptedFetch,
  testSdk,
  tokenResponse,
  untyped,
} from "./helpers.js";

async function pageFailure(answer: () => Response): Promise<unknown> {
  return testSdk(scriptedFetch(answer).fetch)
    .paginate("/v1/accounts")
    .toArray()
    .catch((e: unknown) => e);
}

describe("CdasApiError", () => {
  it("reads the short shape", async () => {
    const failure = await pageFailure(() =>
      json({ id: "a1", name: "bad request", message: "nope" }, { status: 400 }),
    );
    expect(failure).toBeInstanceOf(CdasApiError);
    expect(failure).toMatchObject({
      status: 400,
      id: "a1",
      name: "CdasInvalidRequestError",
      apiErrorName: "bad request",
      apiMessage: "nope",
      // The call, its status, and the API's own message: a log line of the message alone says which call.
      message: "GET /v1/accounts answered HTTP 400: nope",
      fault: undefined,
    });
  });

  it("reads the extended shape served as application/vnd.goa.error", async () => {
    const body = {
      id: "g1",
      name: "invalid_field_type",
      message: "x",
      fault: false,
      temporary: false,
      timeout: true,
    };
    const failure = await pageFailure(() =>
      json(body, { status: 422, contentType: "application/vnd.goa.error" }),
    );
    const { name, message, ...fields } = body;
    expect(failure).toMatchObject({
      ...fields,
      apiErrorName: name,
      apiMessage: message,
      status: 422,
      code: "api",
    });
    expect((failure as Error).message).toBe("GET /v1/accounts answered HTTP 422: x");
  });

  it("keeps the raw text of a body that is not JSON", async () => {
    const failure = await pageFailure(
      () => new Response("upstream exploded", { status: 500, headers: { "content-type": "text/plain" } }),
    );
    expect(isCdasApiError(failure)).toBe(true);
    expect(failure).toMatchObject({ status: 500, rawBody: "upstream exploded", name: "CdasServerError" });
    expect((failure as Error).message).toContain("HTTP 500");
  });

  it("records a Retry-After past a timer's longest wait as that wait (a caller's setTimeout would fire at once)", async () => {
    for (const retryAfter of ["9".repeat(400), "99999999999999999999", "Fri, 31 Dec 9999 23:59:59 GMT"]) {
      const failure = await pageFailure(() =>
        json({ name: "rate_limited" }, { status: 400, headers: { "retry-after": retryAfter } }),
      );
      expect(failure, retryAfter).toMatchObject({ retryAfterMs: 2 ** 31 - 1 });
    }
  });

  it("ignores fields of the wrong type and records Retry-After", async () => {
    const failure = await pageFailure(() =>
      json({ id: 7, name: ["x"], temporary: "yes" }, { status: 400, headers: { "retry-after": "3" } }),
    );
    expect(failure).toMatchObject({
      id: undefined,
      name: "CdasInvalidRequestError",
      apiErrorName: undefined,
      temporary: undefined,
      retryAfterMs: 3000,
    });
  });

  it("carries the answer's headers, of a failed page and of a refused token call alike", async () => {
    const failure = await pageFailure(() =>
      json({ name: "rate_limited" }, { status: 429, headers: { "x-trace": "t-7", "retry-after": "0" } }),
    );
    expect(failure).toBeInstanceOf(CdasApiError);
    const { headers } = failure as CdasApiError;
    expect(headers).toBeInstanceOf(Headers);
    expect(headers.get("x-trace")).toBe("t-7");
    expect(headers.get("content-type")).toBe("application/json");

    const refusing = scriptedFetch(
      () => json({}),
      () => json({ name: "unauthorized" }, { status: 401, headers: { "x-trace": "t-8" } }),
    );
    const refused = await testSdk(refusing.fetch)
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: "CdasAuthenticationError", status: 401 });
    expect((refused as CdasApiError).headers.get("x-trace")).toBe("t-8");
  });

  it("keeps a copy of the headers it was made with, and empty headers when given none", () => {
    const given = new Headers({ "x-trace": "t-1" });
    const error = new CdasApiError({ status: 400, method: "GET", url: "u", body: {}, headers: given });
    given.set("x-trace", "changed");
    expect(error.headers.get("x-trace")).toBe("t-1");
    expect([...new CdasApiError({ status: 400, method: "GET", url: "u", body: {} }).headers]).toEqual([]);
  });

  it("leaves the headers (a server's cookies) out of what logs print, and they cannot be replaced", async () => {
    const failure = await pageFailure(() =>
      json({ name: "bad_request" }, { status: 400, headers: { "set-cookie": "sid=cookie-of-the-server" } }),
    );
    const error = failure as CdasApiError;
    expect(error.headers.get("set-cookie")).toBe("sid=cookie-of-the-server");
    for (const printed of [
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
      String(error),
      error.stack,
    ]) {
      expect(printed).not.toContain("cookie-of-the-server");
    }
    expect(Object.keys(error)).not.toContain("headers");
    expect(() => {
      (error as { headers: Headers }).headers = new Headers();
    }).toThrow(TypeError);
  });

  it("quotes the first 1,000 characters of a long API message in message and toJSON, and keeps it whole in apiMessage", async () => {
    const long = `${"x".repeat(1000)}TAIL`;
    const error = (await pageFailure(() =>
      json({ name: "bad_request", message: long }, { status: 400 }),
    )) as CdasApiError;
    expect(error.apiMessage).toBe(long);
    expect(error.message).toBe(`GET /v1/accounts answered HTTP 400: ${"x".repeat(1000)}…`);
    expect(error.toJSON().apiMessage).toBe(`${"x".repeat(1000)}…`);
    const short = new CdasApiError({
      status: 400,
      method: "GET",
      url: "https://a.test/v1/x",
      body: { message: "m" },
    });
    expect(short.message).toBe("GET /v1/x answered HTTP 400: m");
    expect(short.toJSON().apiMessage).toBe("m");
    // Not inside a character of two UTF-16 units: the cut leaves it out whole.
    const emoji = new CdasApiError({ ...short, body: { message: `${"x".repeat(999)}😀 and more` } });
    expect(emoji.message).toBe(`GET /v1/x answered HTTP 400: ${"x".repeat(999)}…`);
  });

  it("apiErrorOf gives sdk.client's caller the error paginate throws for the same answer", async () => {
    const answers: Array<[string, () => Response]> = [
      [
        "a 429 with Retry-After",
        () => json({ name: "rate_limited" }, { status: 429, headers: { "retry-after": "2" } }),
      ],
      [
        "a 400 in the short shape",
        () => json({ id: "a1", name: "bad_request", message: "nope" }, { status: 400 }),
      ],
      ["an empty 503", () => new Response(null, { status: 503 })],
      ["a gateway's HTML 502", () => new Response("<html>bad gateway</html>", { status: 502 })],
    ];
    for (const [what, answer] of answers) {
      const sdk = testSdk(scriptedFetch(answer).fetch, { maxRetries: 0 });
      const thrown = await sdk
        .paginate("/v1/accounts")
        .toArray()
        .catch((e: unknown) => e);
      const result = await untyped(sdk.client).GET("/v1/accounts");
      const returned = apiErrorOf(result);
      expect(returned, what).toBeInstanceOf(CdasApiError);
      expect(returned?.constructor, what).toBe((thrown as object).constructor);
      expect(returned?.toJSON(), what).toEqual((thrown as CdasApiError).toJSON());
    }
    const limited = testSdk(scriptedFetch(answers[0]![1]).fetch, { maxRetries: 0 });
    const result = await untyped(limited.client).GET("/v1/accounts");
    expect(apiErrorOf(result)).toMatchObject({ name: "CdasRateLimitError", status: 429, retryAfterMs: 2000 });
    // The documented body stays `error`, as openapi-fetch gives it.
    expect(result.error).toEqual({ name: "rate_limited" });
  });

  it("apiErrorOf names the call's own method, and is undefined for a 2xx answer", async () => {
    const sdk = testSdk(scriptedFetch(() => json({ name: "bad_request" }, { status: 400 })).fetch);
    const posted = await untyped(sdk.client).POST("/v1/auth/session", { body: {} });
    expect(apiErrorOf(posted)?.message).toBe("POST /v1/auth/session answered HTTP 400");
    const fine = testSdk(scriptedFetch(() => json({ data: [], links: {} })).fetch);
    expect(apiErrorOf(await untyped(fine.client).GET("/v1/accounts"))).toBeUndefined();
  });

  it("apiErrorOf of an answer a middleware put in place names the call, as paginate's error does", async () => {
    const sdk = testSdk(scriptedFetch(() => json({ data: [] })).fetch);
    sdk.client.use({ onResponse: () => json({ name: "rate_limited", message: "slow" }, { status: 429 }) });
    const result = await untyped(sdk.client).GET("/v1/accounts");
    const thrown = await sdk
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(apiErrorOf(result)).toMatchObject({
      url: "https://api.test/v1/accounts",
      message: "GET /v1/accounts answered HTTP 429: slow",
    });
    expect(apiErrorOf(result)?.toJSON()).toEqual((thrown as CdasApiError).toJSON());
  });

  it("a failure while the answer is examined is typed, and lets go of the caller's signal", async () => {
    const sdk = testSdk(scriptedFetch(() => json({ data: [] })).fetch);
    class AddressThrows extends Response {
      override get url(): string {
        throw new Error("no address");
      }
    }
    sdk.client.use({ onResponse: () => new AddressThrows('{"message":"x"}', { status: 500 }) });
    const signal = new AbortController().signal;
    const failure = await untyped(sdk.client)
      .GET("/v1/accounts", { signal })
      .catch((e: unknown) => e);
    expect(isCdasError(failure)).toBe(true);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("is recognised by the guards, including a copy from another module instance", () => {
    const error = new CdasApiError({ status: 404, method: "GET", url: "https://api.test/v1/x", body: {} });
    expect(isCdasApiError(error)).toBe(true);
    expect(isCdasError(error)).toBe(true);
    const foreign = Object.create({ [Symbol.for("@cdas/sdk/CdasApiError")]: true });
    expect(isCdasApiError(foreign)).toBe(true);
    expect(isCdasApiError(new Error("x"))).toBe(false);
    expect(isCdasApiError(null)).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      status: 404,
      code: "api",
      name: "CdasApiError",
    });
  });
});

describe("baseUrl security", () => {
  const options = (baseUrl: string, allowInsecureLoopback?: boolean) => ({ baseUrl, allowInsecureLoopback });

  it.each([
    ["http://api.example.com", /must use https/],
    ["http://api.example.com", /must use https/, true],
    ["http://127.0.0.1:8080", /allowInsecureLoopback/],
    ["ftp://127.0.0.1", /must use https/, true],
    ["https://user:pw@api.example.com", /credentials/],
    ["not a url", /absolute URL/],
    // Every path starts with /v1: this baseUrl would call /v1/v1/token.
    ["https://api.example.com/v1/", /^baseUrl ends in \/v1, .* \(got https:\/\/api\.example\.com\/v1\)$/],
    ["https://api.example.com/V1", /ends in \/v1/],
  ] as const)("refuses %s", (baseUrl, message, allow?: boolean) => {
    let failure: unknown;
    try {
      testSdk(undefined, options(baseUrl, allow));
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ code: "invalid_options", message: expect.stringMatching(message) });
  });

  it.each([
    ["https://api.example.com/", undefined, "https://api.example.com"],
    ["https://api.example.com/base/", undefined, "https://api.example.com/base"],
    ["https://api.example.com/v1x", undefined, "https://api.example.com/v1x"],
    ["https://gateway.example.com/cdas/v1", undefined, "https://gateway.example.com/cdas/v1"],
    ["http://127.0.0.1:8080", true, "http://127.0.0.1:8080"],
    ["http://[::1]:8080", true, "http://[::1]:8080"],
    ["http://localhost:8080", true, "http://localhost:8080"],
  ] as const)("accepts %s", (baseUrl, allow, normalised) => {
    expect(testSdk(undefined, options(baseUrl, allow)).baseUrl).toBe(normalised);
  });
});

describe("options", () => {
  const refusal = (options: Record<string, unknown>) => {
    try {
      testSdk(undefined, options);
    } catch (error) {
      return error;
    }
    return "accepted";
  };

  it("refuses an option it does not have, naming it and listing its own", () => {
    const failure = refusal({ timeOutMs: 100 });
    expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
    expect((failure as Error).message).toMatch(
      /^createSdk has no option timeOutMs \(its options: version, .*timeoutMs/,
    );
  });

  it("refuses no options object, and names all four required options when they are all missing", () => {
    expect(() => createSdk(null as never)).toThrow("createSdk needs an options object");
    expect(() => createSdk({} as never)).toThrow("createSdk needs version, baseUrl, clientId, clientSecret");
  });

  it("types options that cannot be read: a getter that throws, a Proxy whose traps throw, a revoked one", () => {
    const boom = new Error("the caller's getter");
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const base = {
      version: "v2",
      baseUrl: "https://127.0.0.1",
      clientId: "id",
      clientSecret: "a-secret-value",
    };
    for (const options of [
      {
        ...base,
        get timeoutMs(): number {
          throw boom;
        },
      },
      new Proxy(base, {
        ownKeys: () => {
          throw boom;
        },
      }),
      revoked.proxy,
    ]) {
      expect(() => createSdk(options as never)).toThrow(
        expect.objectContaining({
          code: "invalid_options",
          message: expect.stringMatching(/^createSdk could not read its options/),
        }),
      );
    }
  });

  it("names every required option that is missing", () => {
    const failure = refusal({ baseUrl: undefined, clientSecret: undefined });
    expect(failure).toMatchObject({
      code: "invalid_options",
      message: "createSdk needs baseUrl, clientSecret",
    });
  });

  it.each([
    [{ maxRetries: 1.5 }, "maxRetries must be a whole number (got 1.5)"],
    [{ maxRetries: -1 }, "maxRetries must be a non-negative, finite number (got -1)"],
    [{ timeoutMs: 0 }, "timeoutMs must be a positive, finite number (got 0)"],
    [{ timeoutMs: Number.POSITIVE_INFINITY }, "timeoutMs must be a positive, finite number (got Infinity)"],
    [{ allowInsecureLoopback: "yes" }, 'allowInsecureLoopback must be a boolean (got "yes")'],
    // A number given as a string is named as a string.
    [{ timeoutMs: "100" }, 'timeoutMs must be a positive, finite number (got "100")'],
    [{ clientId: 123 }, "clientId must be a non-empty string (got 123)"],
    // The secret's value is never shown, whatever its type.
    [{ clientSecret: 123456789 }, "clientSecret must be a non-empty string (got number)"],
    [{ clientSecret: "" }, "clientSecret must be a non-empty string (got an empty one)"],
    // A lone surrogate has no UTF-8 (encodeURIComponent throws a raw URIError on it).
    [
      { clientSecret: "s3cr3t-\uD800" },
      "clientSecret must be well-formed Unicode (it holds a lone surrogate)",
    ],
    // What a header cannot carry would throw a raw TypeError from Headers.
    ...["my-app (€)", "my-app\u0000", "my-app \u2028", "my-app\r\nx-injected: 1"].map(
      (userAgent): [Record<string, unknown>, string] => [
        { userAgent },
        "userAgent must be a string a header can carry: one line of tabs, spaces, visible ASCII or Latin-1 letters",
      ],
    ),
    // Past a timer's longest wait a deadline would fire at once.
    [
      { timeoutMs: 2 ** 31 },
      "timeoutMs must be at most 2147483647 ms, the longest a timer waits (got 2147483648)",
    ],
    [
      { maxRetryDelayMs: Number.MAX_SAFE_INTEGER },
      `maxRetryDelayMs must be at most 2147483647 ms, the longest a timer waits (got ${Number.MAX_SAFE_INTEGER})`,
    ],
  ])("refuses %o", (options, message) => {
    expect(refusal(options)).toMatchObject({ code: "invalid_options", message });
  });
});

describe("request headers", () => {
  it("sends the version, accept, user agent with suffix, and content-type only with a body", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const client = untyped(testSdk(server.fetch, { version: "v3", userAgent: "my-app/2.0" }).client);
    await client.GET("/v1/accounts", {});
    await client.POST("/v1/auth/session", { body: { end_user_id: "eu_1" } });
    const [token, read, write] = server.calls;
    for (const call of [token, read, write]) {
      expect(call?.headers.get("x-platform-version")).toBe("v3");
      expect(call?.headers.get("accept")).toBe("application/json; charset=UTF-8");
      expect(call?.headers.get("user-agent")).toBe(`cdas-sdk/${version} my-app/2.0`);
    }
    expect(read?.headers.get("content-type")).toBeNull();
    expect(write?.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  });

  it("lays a call's own headers over the SDK's, keeping the bearer, and sends a renewed bearer", async () => {
    let dataCalls = 0;
    const server = scriptedFetch(() => (++dataCalls === 3 ? json({}, { status: 401 }) : json({ data: [] })));
    const client = untyped(testSdk(server.fetch).client);
    await client.GET("/v1/accounts", { headers: { "x-trace": "t-1", accept: "application/json" } });
    await client.GET("/v1/accounts", { params: { header: { "x-trace": "t-2" } } });
    await client.GET("/v1/accounts", {}); // 401: renewed, then retried
    await client.GET("/v1/accounts", {});
    const calls = server.dataCalls();
    expect(Object.fromEntries(calls[0]?.headers ?? [])).toEqual({
      accept: "application/json",
      authorization: "Bearer tok_1",
      "user-agent": `cdas-sdk/${version}`,
      "x-platform-version": "v2",
      "x-trace": "t-1",
    });
    expect(calls[1]?.headers.get("x-trace")).toBe("t-2");
    expect(calls.map((call) => call.headers.get("authorization"))).toEqual([
      "Bearer tok_1",
      "Bearer tok_1",
      "Bearer tok_1",
      "Bearer tok_2",
      "Bearer tok_2",
    ]);
    expect(Object.fromEntries(calls[4]?.headers ?? [])).toEqual({
      accept: "application/json; charset=UTF-8",
      authorization: "Bearer tok_2",
      "user-agent": `cdas-sdk/${version}`,
      "x-platform-version": "v2",
    });
  });

  it.each([
    ["another version", { headers: { "X-Platform-Version": "v3" } }, 'got "v3"'],
    ["a parameter of another version", { params: { header: { "x-platform-version": "v1" } } }, 'got "v1"'],
    ["no version (the console's pinned one)", { headers: { "X-Platform-Version": null } }, "got none"],
  ])("refuses a call that sends %s, sending nothing", async (_case, init, got) => {
    const server = scriptedFetch(() => json({ data: [] }));
    const sdk = testSdk(server.fetch);
    const { data, error } = await untyped(sdk.client).GET("/v1/accounts", {}); // the token is fetched
    expect(error ?? data).toEqual({ data: [] });
    const refused = untyped(sdk.client).GET("/v1/accounts", init);
    await expect(refused).rejects.toThrow(CdasInvalidOptionsError);
    await expect(refused).rejects.toThrow(
      `GET /v1/accounts: X-Platform-Version must be v2, the SDK's version (${got}); for another version, create an SDK of that version`,
    );
    expect(server.dataCalls()).toHaveLength(1);
  });

  it("refuses another version set by a middleware, on paginate's pages too", async () => {
    const server = scriptedFetch(() => json({ data: [], links: {} }));
    const sdk = testSdk(server.fetch);
    sdk.client.use({ onRequest: ({ request }) => request.headers.set("x-platform-version", "v3") });
    const walk = sdk.paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1" } } });
    await expect(walk.toArray()).rejects.toThrow("X-Platform-Version must be v2");
    expect(server.dataCalls()).toHaveLength(0);
  });

  it("fills client_id into GET /v1/institutions through sdk.client as well", async () => {
    const server = scriptedFetch(() => json([]));
    await untyped(testSdk(server.fetch).client).GET("/v1/institutions", {
      params: { query: { industry: "energy" } },
    });
    const sent = server.dataCalls()[0]?.url.searchParams;
    expect(sent?.get("client_id")).toBe(CLIENT_ID);
    expect(sent?.get("industry")).toBe("energy");
  });
});

describe("a call that cannot be built", () => {
  it("is the SDK's invalid-options error naming the call, with openapi-fetch's error as cause, and sends nothing", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const client = untyped(testSdk(server.fetch).client);
    const failure = await client
      .GET("/v1/accounts", { headers: { "x-note": "line\nbreak" } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
    expect((failure as Error).message).toMatch(/^GET \/v1\/accounts: failed before it was sent/);
    expect((failure as Error).cause).toBeInstanceOf(TypeError);
    expect(server.calls).toHaveLength(0);
  });

  it("refuses a signal that is not an AbortSignal, naming it, and sends nothing", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const failure = await untyped(testSdk(server.fetch).client)
      .GET("/v1/accounts", { signal: {} })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
    expect((failure as Error).message).toBe("GET /v1/accounts: signal must be an AbortSignal (got object)");
    expect(server.calls).toHaveLength(0);
  });

  it.each(["", "g e t", "CONNECT", "trace", "TRACK", "GET\r\n"])(
    "refuses the method %j on every runtime and sends nothing (Bun's fetch would send some as GET)",
    async (method) => {
      const server = scriptedFetch(() => json({ data: [] }));
      const failure = await untyped(testSdk(server.fetch).client)
        .request(method, "/v1/accounts", {})
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
      expect((failure as Error).message).toBe(
        `sdk.client.request needs a method name fetch sends, not CONNECT, TRACE or TRACK (got ${JSON.stringify(method)})`,
      );
      expect(server.calls).toHaveLength(0);
    },
  );

  it("is typed however odd the method, the parseAs or what was thrown, and sends nothing", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const sdk = testSdk(server.fetch);
    const client = untyped(sdk.client);
    // Thrown before any promise (openapi-fetch upper-cases the method), or by an unknown parseAs, which
    // would call the Response's method of that name (`toString`).
    const failures = [
      await Promise.resolve()
        .then(() => client.request(undefined, "/v1/accounts", {}))
        .catch((error: unknown) => error),
      await client.GET("/v1/accounts", { parseAs: "toString" }).catch((error: unknown) => error),
      await client.GET("/v1/accounts", { parseAs: "formData" }).catch((error: unknown) => error),
    ];
    // A middleware that throws a value String() refuses (no prototype).
    sdk.client.use({
      onRequest() {
        throw Object.create(null);
      },
    });
    failures.push(await client.GET("/v1/accounts", {}).catch((error: unknown) => error));
    for (const failure of failures) expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
    expect((failures[0] as Error).message).toBe(
      "sdk.client.request needs a method name fetch sends, not CONNECT, TRACE or TRACK (got undefined)",
    );
    expect((failures[1] as Error).message).toBe(
      'GET /v1/accounts: parseAs must be one of json, text, blob, arrayBuffer, stream (got "toString")',
    );
    expect((failures[3] as Error).message).toContain("(object that cannot be written as text)");
    expect(server.dataCalls()).toHaveLength(0);
  });
});

describe("values of the caller's that cannot be read", () => {
  it("a Proxy whose every trap throws, thrown by a middleware, is still the SDK's error", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const sdk = testSdk(server.fetch);
    const trap = () => {
      throw new Error("trap");
    };
    const hostile = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap });
    sdk.client.use({
      onRequest() {
        throw hostile;
      },
    });
    const failure = await untyped(sdk.client)
      .GET("/v1/accounts", {})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
  });

  it("options whose getters answer twice differently are read once: what is checked is what is used", async () => {
    const server = scriptedFetch(() => json({ data: [1] }));
    let reads = 0;
    const init = {
      get parseAs() {
        return reads++ === 0 ? "json" : "constructor";
      },
    };
    const { data } = await untyped(testSdk(server.fetch).client).GET("/v1/accounts", init);
    expect(data).toEqual({ data: [1] });
  });
});

describe("a fetch of the caller's that resolves to something else than a Response", () => {
  /** Everything the SDK reads of a Response, but `parts`. */
  const responseLike = (parts: Record<string, unknown>) => ({
    status: 200,
    statusText: "",
    url: "",
    headers: new Headers(),
    body: null,
    text: async () => "{}",
    ...parts,
  });

  it.each([
    ["null", null],
    ["a plain object with a status and headers", { status: 200, headers: new Headers(), body: null }],
    ["a status that is not a whole number", responseLike({ status: Number.NaN })],
    ["headers that cannot be iterated", responseLike({ headers: { get: () => null } })],
    ["a body that is not a stream", responseLike({ body: "{}" })],
  ])("(%s) is an invalid response that says so, for the token call too", async (_kind, answer) => {
    for (const failing of ["/v1/accounts", "/v1/token"]) {
      const fetch = async (request: Request) =>
        new URL(request.url).pathname === failing ? (answer as unknown as Response) : tokenResponse();
      const failure = await untyped(testSdk(fetch, { maxRetries: 0 }).client)
        .GET("/v1/accounts", {})
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        name: "CdasInvalidResponseError",
        message: `${failing === "/v1/token" ? "POST" : "GET"} ${failing}: the fetch in use resolved to something that is not a Response`,
      });
    }
  });

  it("a Response whose parts throw when read, or a body of other chunks than bytes, is an invalid response of the call it answered", async () => {
    // They were a connection error "while reading the body", and the token call's was labelled with the data call.
    const throwingStatus = Object.defineProperty(new Response("{}"), "status", {
      get: () => {
        throw new Error("the status getter");
      },
    });
    // An error answer with a length too: its body is read as it is, not through the size limit.
    const strings = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.enqueue("not bytes");
            controller.close();
          },
        }),
        { status: 400, headers: { "content-length": "9" } },
      );
    for (const [answer, message] of [
      [
        () => throwingStatus,
        "the fetch in use gave an answer or a failure that cannot be examined (the status getter)",
      ],
      [strings, "answered a body whose chunks are not bytes"],
    ] as const) {
      for (const failing of ["/v1/accounts", "/v1/token"]) {
        const fetch = async (request: Request) =>
          new URL(request.url).pathname === failing ? answer() : tokenResponse();
        const failure = await untyped(testSdk(fetch, { maxRetries: 0 }).client)
          .GET("/v1/accounts", {})
          .catch((error: unknown) => error);
        const call = failing === "/v1/token" ? "POST /v1/token" : "GET /v1/accounts";
        expect(failure).toMatchObject({
          name: "CdasInvalidResponseError",
          message: expect.stringMatching(new RegExp(`^${call}:? ${message.replace(/[()]/g, "\\$&")}$`)),
        });
      }
    }
  });
});

describe("the client secret never leaks", () => {
  const leaks = (value: unknown) =>
    inspect(value, { depth: 10, showHidden: true }).includes(SECRET_MARK) ||
    (JSON.stringify(value) ?? "").includes(SECRET_MARK) ||
    String(value).includes(SECRET_MARK);

  it("is absent from a refusal that echoes the caller's own path, query or method", async () => {
    const sdk = testSdk(scriptedFetch(() => json({})).fetch);
    const query = `cs=${encodeURIComponent(SECRET)}`;
    const refusals: unknown[] = [
      await untyped(sdk.client)
        .GET(`/v1/accounts?${query}`, { parseAs: "nope" })
        .catch((error: unknown) => error),
      await untyped(sdk.client)
        .request(`GET ${SECRET}`, "/v1/accounts")
        .catch((error: unknown) => error),
    ];
    try {
      sdk.paginate(`/v1/accounts?${query}` as never);
    } catch (error) {
      refusals.push(error);
    }
    sdk.client.use({
      onRequest() {
        throw new Error("refused by the caller's middleware");
      },
    });
    refusals.push(
      await untyped(sdk.client)
        .GET(`/v1/accounts/${encodeURIComponent(SECRET)}`, {})
        .catch((error: unknown) => error),
    );
    expect(refusals).toHaveLength(4);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(CdasInvalidOptionsError);
      expect(leaks(refusal), inspect(refusal)).toBe(false);
    }
  });

  it("sdk.client.use of something that is not a middleware is the SDK's error", () => {
    const sdk = testSdk(scriptedFetch(() => json({})).fetch);
    expect(() => sdk.client.use({} as never)).toThrow(CdasInvalidOptionsError);
    expect(() => sdk.client.use({} as never)).toThrow(/^sdk\.client\.use: /);
  });

  it("is absent from the sdk object, its client and a paginator", () => {
    const sdk = testSdk(scriptedFetch(() => json({})).fetch);
    expect(leaks(sdk)).toBe(false);
    expect(leaks(sdk.client)).toBe(false);
    expect(leaks(sdk.paginate("/v1/accounts"))).toBe(false);
  });

  it.each(["name", "code"])(
    "is absent from the %s of an error in the cause chain (a custom fetch's)",
    async (field) => {
      const fetch = async () => {
        throw Object.assign(new Error("upstream failed"), { [field]: `Upstream_${SECRET}` });
      };
      const failure = await untyped(testSdk(fetch, { maxRetries: 0 }).client)
        .GET("/v1/accounts", {})
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CdasConnectionError);
      expect(leaks(failure)).toBe(false);
      expect((failure as Error).cause).toMatchObject({ [field]: "Upstream_[redacted]" });
    },
  );

  it("is absent from errors even when the server echoes the token request", async () => {
    const echo = async (request: { body: string }) =>
      new Response(`denied ${request.body}`, { status: 400, headers: { "content-type": "text/plain" } });
    const echoJson = async (request: { body: string }) =>
      json(
        { name: "unauthorized", message: request.body, echoed: JSON.parse(request.body) },
        { status: 401 },
      );
    for (const tokens of [echo, echoJson]) {
      const server = scriptedFetch(() => json({}), tokens);
      const failure = await untyped(testSdk(server.fetch).client)
        .GET("/v1/accounts", {})
        .catch((e: unknown) => e);
      expect(isCdasApiError(failure)).toBe(true);
      expect(leaks(failure)).toBe(false);
    }
  });

  it("is absent from network errors of the token call", async () => {
    const server = scriptedFetch(
      () => json({}),
      async (request) => {
        throw new TypeError(`socket hang up while sending ${request.body}`);
      },
    );
    const failure = await untyped(testSdk(server.fetch, { maxRetries: 0 }).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "network" });
    expect(leaks(failure)).toBe(false);
    // The redacted copy of the cause keeps where the original was thrown.
    const { stack } = (failure as Error).cause as Error;
    expect(stack).toMatch(/^TypeError: socket hang up while sending .*\[redacted\]/);
    expect(stack).toContain("errors-security.test.ts");
  });

  it("is absent from a failed page's address when a caller put it in the query", async () => {
    const server = scriptedFetch(() =>
      json({ name: "invalid_parameter", message: "bad date" }, { status: 400 }),
    );
    const failure = await testSdk(server.fetch)
      .paginate("/v1/accounts", { params: { query: { note: SECRET } } })
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect((failure as { url: string }).url).toContain("[redacted]");
    expect(leaks(failure)).toBe(false);
  });

  it("is absent from the address of an answer when a caller put it in the query", async () => {
    // The answers carry their address, as a fetch's do (there a getter of the prototype: configurable here).
    const addressed = (response: Response, url: URL) =>
      Object.defineProperty(response, "url", { value: url.href, configurable: true });
    for (const status of [200, 400]) {
      const server = scriptedFetch((request) => addressed(json({ data: [] }, { status }), request.url));
      const { response } = await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {
        params: { query: { note: SECRET } },
      });
      expect(server.dataCalls()[0]?.url.href).toContain(SECRET_MARK);
      expect(response.status).toBe(status);
      expect(response.url).toMatch(/^https:\/\/api\.test\/v1\/accounts\?note=.*\[redacted\]/);
      expect(leaks(response)).toBe(false);
    }
  });

  it("is absent from the page an invalid answer or a loop names, a middleware's answer included", async () => {
    const addressed = (response: Response, url: string) =>
      Object.defineProperty(response, "url", { value: url, configurable: true });
    const atSecret = `https://api.test/v1/accounts?k=${encodeURIComponent(SECRET)}`;
    for (const body of [
      { nope: 1 },
      { data: [1], links: { next: 42 } },
      { data: [1], links: { next: atSecret } },
    ]) {
      const sdk = testSdk(scriptedFetch(() => json({})).fetch);
      // A middleware's own answer reaches paginate without passing the transport, which redacts its own.
      sdk.client.use({ onRequest: () => addressed(json(body), atSecret) });
      const failure = await sdk
        .paginate("/v1/accounts")
        .toArray()
        .catch((e: unknown) => e);
      expect(failure).toMatchObject({ method: "GET" });
      expect((failure as { code: string }).code).toMatch(/^(invalid_response|pagination_loop)$/);
      expect((failure as { url: string }).url).toContain("[redacted]");
      expect(leaks(failure)).toBe(false);
    }
  });

  it("is absent from the token call an invalid token answer names, with the secret in baseUrl's path", async () => {
    const server = scriptedFetch(() => json({}));
    const sdk = createSdk({
      version: "v2",
      baseUrl: `https://api.test/${encodeURIComponent(SECRET)}`,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      fetch: server.fetch,
    });
    const failure = await sdk
      .paginate("/v1/accounts", { params: { query: { end_user_id: "e" } } })
      .toArray()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "invalid_response", method: "POST" });
    expect((failure as { url: string }).url).toMatch(/\/v1\/token$/);
    expect(leaks(failure)).toBe(false);
  });

  it("is absent from the cause of a middleware's error and of a 2xx body that is not JSON", async () => {
    const server = scriptedFetch(() => new Response(`{"echo": "${SECRET}`, { status: 200 }));
    const sdk = testSdk(server.fetch);
    const notJson = await untyped(sdk.client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(notJson).toMatchObject({ code: "invalid_response" });
    expect(leaks(notJson)).toBe(false);
    const thrown = await failureWith(sdk, {
      onRequest() {
        throw new Error(`cannot sign with ${SECRET}`);
      },
    });
    expect(thrown).toMatchObject({ code: "invalid_options" });
    expect((thrown as Error).cause).toBeInstanceOf(Error);
    expect(leaks(thrown)).toBe(false);
  });

  it("is absent from an API error's headers when the server echoes it in one", async () => {
    const basic = btoa(`${CLIENT_ID}:${SECRET}`);
    const echoing = {
      "x-echo": `client_secret=${SECRET}`,
      "x-echo-encoded": encodeURIComponent(SECRET),
      "x-echo-basic": `Basic ${basic}`,
      "x-trace": "t-9",
    };
    const failure = await pageFailure(() => json({ name: "bad_request" }, { status: 400, headers: echoing }));
    expect(isCdasApiError(failure)).toBe(true);
    const { headers } = failure as CdasApiError;
    expect(headers.get("x-echo")).toBe("client_secret=[redacted]");
    expect(headers.get("x-echo-encoded")).toBe("[redacted]");
    expect(headers.get("x-echo-basic")).not.toContain(basic);
    expect(headers.get("x-trace")).toBe("t-9");
    expect(leaks(failure)).toBe(false);
    expect(leaks([...headers])).toBe(false);
  });

  it("is absent from an API error's headers when a middleware of the caller's swaps in an answer echoing it", async () => {
    const sdk = testSdk(scriptedFetch(() => json({}, { status: 400 })).fetch);
    sdk.client.use({
      onResponse: () =>
        new Response("{}", {
          status: 400,
          headers: { "x-echo": SECRET, "content-type": "application/json" },
        }),
    });
    const failure = await sdk
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect((failure as CdasApiError).headers.get("x-echo")).toBe("[redacted]");
    expect(leaks(failure)).toBe(false);
  });

  it("leaves a middleware's own error as the cause when it holds no secret", async () => {
    const own = new RangeError("quota of the audit log");
    const failure = await failureWith(testSdk(scriptedFetch(() => json({})).fetch), {
      onRequest() {
        throw own;
      },
    });
    expect((failure as Error).cause).toBe(own);
  });

  it("leaves it there too when it refers back to itself or has a cause that is a plain object", async () => {
    const own = Object.assign(new Error("audit failed", { cause: { attempt: 2 } }), { self: {} });
    own.self = own;
    const failure = await failureWith(testSdk(scriptedFetch(() => json({})).fetch), {
      onResponse() {
        throw own;
      },
    });
    expect((failure as Error).cause).toBe(own);
  });

  it.each([
    ["a cause that is a plain object", () => new Error("validation failed", { cause: { got: SECRET } })],
    [
      "a field of its own",
      () => Object.assign(new Error("validation failed"), { details: { echo: SECRET } }),
    ],
    ["an AggregateError's error", () => new AggregateError([new Error(`no ${SECRET}`)], "several failed")],
    [
      "a field beside one that refers back to the error",
      () => {
        const error = Object.assign(new Error("loop"), { echo: SECRET, self: {} });
        error.self = error;
        return error;
      },
    ],
    // What JSON.stringify does not write and util.inspect shows (a review of the first version).
    ["an Error in a field", () => Object.assign(new Error("x"), { inner: new Error(SECRET) })],
    ["an Error in a plain-object cause", () => new Error("x", { cause: { inner: new Error(SECRET) } })],
    ["a Map", () => Object.assign(new Error("x"), { seen: new Map([["key", SECRET]]) })],
    ["a Set", () => Object.assign(new Error("x"), { seen: new Set([SECRET]) })],
    ["a field with a symbol key", () => Object.assign(new Error("x"), { [Symbol("echo")]: SECRET })],
    [
      "a field whose toJSON hides it",
      () => Object.assign(new Error("x"), { echo: { got: SECRET, toJSON: () => ({}) } }),
    ],
    [
      "an AggregateError in a field",
      () => Object.assign(new Error("x"), { all: new AggregateError([new Error(SECRET)]) }),
    ],
  ])(
    "is absent from a middleware's error that holds it in %s (the cause is a redacted copy)",
    async (_, thrown) => {
      const failure = await failureWith(testSdk(scriptedFetch(() => json({})).fetch), {
        onResponse() {
          throw thrown();
        },
      });
      expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
      expect(leaks(failure)).toBe(false);
    },
  );

  it("reads an object reached twice once: a graph of objects that each refer twice to the next", async () => {
    // Written whole, each level doubles the work: 2^12 reads here, seconds at 22 levels.
    let reads = 0;
    let bottom: object = {
      get echo() {
        reads++;
        return SECRET;
      },
    };
    for (let level = 0; level < 12; level++) bottom = { left: bottom, right: bottom };
    const failure = await failureWith(testSdk(scriptedFetch(() => json({})).fetch), {
      onResponse() {
        throw new Error("x", { cause: bottom });
      },
    });
    expect(leaks(failure)).toBe(false);
    // Once to look for the secret, once to show the copy's fields.
    expect(reads).toBeLessThanOrEqual(2);
  });

  it("copies a middleware's error whose AggregateError errors cannot be read, and keeps its message", async () => {
    const unreadable = Object.defineProperty(new Error("x"), "errors", {
      get() {
        throw new Error("no");
      },
    });
    const failure = await failureWith(testSdk(scriptedFetch(() => json({})).fetch), {
      onResponse() {
        throw unreadable;
      },
    });
    expect(failure).toBeInstanceOf(CdasInvalidOptionsError);
    expect((failure as Error).message).toContain("(x)");
    expect((failure as Error).cause).toMatchObject({ message: "x" });
    expect((failure as Error).cause).not.toBe(unreadable);
  });

  it("shows a plain-object cause of a copy by its fields, the secret taken out", async () => {
    const failure = await failureWith(testSdk(scriptedFetch(() => json({})).fetch), {
      onResponse() {
        throw new Error("validation failed", { cause: { got: SECRET, field: "name" } });
      },
    });
    const copied = (failure as Error).cause as Error;
    expect(copied.message).toBe("validation failed");
    expect((copied.cause as Error).message).toBe('{"got":"[redacted]","field":"name"}');
  });
});

describe("the bearer token is taken out of what a call hands back or throws", () => {
  const TOKEN = "tok_live_4f8e2c1a9b7d3e5f";
  /** Tokens of realistic length, a new one at each renewal: the one taken out is the attempt's own. */
  const liveTokens = () => {
    let issued = 0;
    return () => tokenResponse(`${TOKEN}_${++issued}`);
  };
  /** An answer that echoes the bearer it was sent, in its body (JSON or text) and a header. */
  const echoing =
    (status: number, text = false) =>
    (request: { headers: Headers }) => {
      const bearer = request.headers.get("authorization") ?? "";
      const headers = { "www-authenticate": `Bearer error="invalid_token", sent="${bearer}"` };
      return text
        ? new Response(`refused: ${bearer}`, {
            status,
            headers: { ...headers, "content-type": "text/plain" },
          })
        : json({ name: "unauthorized", message: `token ${bearer.slice(7)} expired` }, { status, headers });
    };
  const shows = (value: unknown, text: string) =>
    inspect(value, { depth: 10, showHidden: true }).includes(text) ||
    (JSON.stringify(value) ?? "").includes(text) ||
    String(value).includes(text);

  it("in what paginate throws, sdk.client returns and apiErrorOf gives, after a renewal too", async () => {
    for (const [status, text] of [
      [401, false],
      [403, false],
      [400, true],
    ] as const) {
      const server = scriptedFetch(echoing(status, text), liveTokens());
      const sdk = testSdk(server.fetch);
      const thrown = await sdk
        .paginate("/v1/accounts")
        .toArray()
        .catch((e: unknown) => e);
      const result = await untyped(sdk.client).GET("/v1/accounts", {});
      // The tokens were sent (a second one after a 401), and the server echoed them.
      expect(server.dataCalls()[0]?.headers.get("authorization")).toBe(`Bearer ${TOKEN}_1`);
      if (status === 401)
        expect(server.dataCalls()[1]?.headers.get("authorization")).toBe(`Bearer ${TOKEN}_2`);
      for (const value of [thrown, result.error, apiErrorOf(result), [...result.response.headers]]) {
        expect(shows(value, TOKEN), inspect(value)).toBe(false);
      }
      expect(isCdasApiError(thrown)).toBe(true);
      const { message, headers } = thrown as CdasApiError;
      expect(message).toContain(text ? "refused: Bearer [redacted]" : "token [redacted] expired");
      expect(headers.get("www-authenticate")).toBe('Bearer error="invalid_token", sent="Bearer [redacted]"');
    }
  });

  it("in a 2xx answer's headers and reason phrase, and the address of a redirect that then fails", async () => {
    const server = scriptedFetch((request) => {
      const bearer = request.headers.get("authorization") ?? "";
      if (request.url.searchParams.has("t")) return new Promise<Response>(() => {}); // never answers
      if (request.url.searchParams.has("redirect"))
        return new Response(null, {
          status: 302,
          headers: { location: `/v1/accounts?t=${bearer.slice(7)}` },
        });
      return json({ data: [] }, { statusText: `OK ${bearer}`, headers: { "x-echo": bearer } });
    }, liveTokens());
    const sdk = testSdk(server.fetch, { timeoutMs: 20, maxRetries: 0 });
    const { response } = await untyped(sdk.client).GET("/v1/accounts", {});
    expect(response.headers.get("x-echo")).toBe("Bearer [redacted]");
    expect(response.statusText).toBe("OK Bearer [redacted]");
    const timedOut = await untyped(sdk.client)
      .GET("/v1/accounts", { params: { query: { redirect: 1 } } })
      .catch((e: unknown) => e);
    expect(server.dataCalls().at(-1)?.url.searchParams.get("t")).toBe(`${TOKEN}_1`);
    expect(timedOut).toMatchObject({
      name: "CdasTimeoutError",
      url: "https://api.test/v1/accounts?t=[redacted]",
    });
    expect(shows(timedOut, TOKEN)).toBe(false);
  });

  it("a JSON key that echoes it becomes [redacted] in place: the body is kept", async () => {
    const server = scriptedFetch((request) => {
      const token = (request.headers.get("authorization") ?? "").slice(7);
      return json({ name: "forbidden", message: "expired", tokens: { [token]: "expired" } }, { status: 403 });
    }, liveTokens());
    const failure = await testSdk(server.fetch)
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    // It withheld the whole body, saying that it held the client secret.
    expect(failure).toMatchObject({ apiMessage: "expired", body: { tokens: { "[redacted]": "expired" } } });
  });

  it("leaves a short token in the text: taking it out would take it out of words", async () => {
    const server = scriptedFetch(
      () => json({ name: "unauthorized", message: "tok_1 token expired" }, { status: 403 }),
      () => tokenResponse("tok_1"),
    );
    const failure = await testSdk(server.fetch)
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect((failure as CdasApiError).apiMessage).toBe("tok_1 token expired");
  });
});
