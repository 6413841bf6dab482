import { createServer, type Server } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { apiErrorFor, apiErrorOf, isCdasError, parseRetryAfter, retryAfterOf } from "../src/errors.js";
import { retryDelay } from "../src/retry.js";
import { json, scriptedFetch, testSdk, untyped } from "./helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

/** Answers with the given responses in turn, then 200. */
function sequence(...answers: (() => Response)[]) {
  return () => (answers.shift() ?? (() => json({ data: ["done"] })))();
}

describe("retries", () => {
  it.each([429, 502, 503, 504])("retries a read answered %i", async (status) => {
    const server = scriptedFetch(sequence(() => json({}, { status })));
    const { data } = await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {});
    expect(data).toEqual({ data: ["done"] });
    expect(server.dataCalls()).toHaveLength(2);
  });

  it("retries an error body with temporary: true and not one with temporary: false", async () => {
    const temporary = {
      id: "e",
      name: "busy",
      message: "try later",
      fault: true,
      temporary: true,
      timeout: false,
    };
    const server = scriptedFetch(sequence(() => json(temporary, { status: 500 })));
    const { data } = await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {});
    expect(data).toEqual({ data: ["done"] });

    const permanent = { ...temporary, temporary: false };
    const second = scriptedFetch(sequence(() => json(permanent, { status: 500 })));
    const { error, response } = await untyped(testSdk(second.fetch).client).GET("/v1/accounts", {});
    expect(response.status).toBe(500);
    expect(error).toEqual(permanent);
    expect(second.dataCalls()).toHaveLength(1);
  });

  it("does not retry a POST other than the token call", async () => {
    const server = scriptedFetch(sequence(() => json({}, { status: 503 })));
    const { response } = await untyped(testSdk(server.fetch).client).POST("/v1/auth/session", { body: {} });
    expect(response.status).toBe(503);
    expect(server.dataCalls()).toHaveLength(1);
  });

  it("retries the token call", async () => {
    let refusals = 2;
    const server = scriptedFetch(
      () => json({ data: [] }),
      () => (refusals-- > 0 ? json({}, { status: 503 }) : json({ token: "late", expires_in: 60 })),
    );
    const { data } = await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {});
    expect(data).toEqual({ data: [] });
    expect(server.tokenCalls()).toHaveLength(3);
  });

  it("gives up after maxRetries and returns the last answer", async () => {
    const server = scriptedFetch(() => json({ name: "busy" }, { status: 503 }));
    const { error, response } = await untyped(testSdk(server.fetch, { maxRetries: 3 }).client).GET(
      "/v1/accounts",
      {},
    );
    expect(response.status).toBe(503);
    expect(error).toEqual({ name: "busy" });
    expect(server.dataCalls()).toHaveLength(4);
  });

  it("retries network failures of reads, then throws a network CdasError", async () => {
    const server = scriptedFetch(() => {
      throw new TypeError("fetch failed");
    });
    const failure = await untyped(testSdk(server.fetch, { maxRetries: 2 }).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(isCdasError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "network" });
    expect(server.dataCalls()).toHaveLength(3);
  });

  it("waits Retry-After seconds before retrying", async () => {
    vi.useFakeTimers();
    const server = scriptedFetch(sequence(() => json({}, { status: 429, headers: { "retry-after": "2" } })));
    const pending = untyped(testSdk(server.fetch, { maxRetryDelayMs: 60_000 }).client).GET(
      "/v1/accounts",
      {},
    );
    await vi.advanceTimersByTimeAsync(1_999);
    expect(server.dataCalls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.dataCalls()).toHaveLength(2);
    expect((await pending).data).toEqual({ data: ["done"] });
  });

  it("waits until a Retry-After HTTP date", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const retryAt = new Date("2026-01-01T00:00:05Z").toUTCString();
    const server = scriptedFetch(
      sequence(() => json({}, { status: 503, headers: { "retry-after": retryAt } })),
    );
    const pending = untyped(testSdk(server.fetch, { maxRetryDelayMs: 60_000 }).client).GET(
      "/v1/accounts",
      {},
    );
    await vi.advanceTimersByTimeAsync(4_999);
    expect(server.dataCalls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.dataCalls()).toHaveLength(2);
    await pending;
  });

  it("ignores a Retry-After that is neither whole seconds nor an HTTP date: the backoff applies", async () => {
    vi.useFakeTimers();
    for (const retryAfter of ["-5", "1.5", "soon", "2026-01-01"]) {
      const server = scriptedFetch(
        sequence(() => json({}, { status: 503, headers: { "retry-after": retryAfter } })),
      );
      // Backoff of the first retry: between half and all of retryBaseDelayMs.
      const pending = untyped(
        testSdk(server.fetch, { retryBaseDelayMs: 1_000, maxRetryDelayMs: 60_000 }).client,
      ).GET("/v1/accounts", {});
      await vi.advanceTimersByTimeAsync(499);
      expect(server.dataCalls()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(501);
      expect(server.dataCalls()).toHaveLength(2);
      await pending;
    }
  });

  it("reads Retry-After as whole seconds or an HTTP date (all three forms), nothing else", () => {
    const now = Date.parse("1994-11-06T08:49:30Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("0", now)).toBe(0);
    for (const date of [
      "Sun, 06 Nov 1994 08:49:37 GMT",
      "Sunday, 06-Nov-94 08:49:37 GMT",
      "Sun Nov  6 08:49:37 1994",
    ]) {
      expect(parseRetryAfter(date, now)).toBe(7_000);
    }
    // A leap day is in the calendar, in each form.
    const beforeLeapDay = Date.parse("2028-02-28T23:59:00Z");
    for (const date of [
      "Tue, 29 Feb 2028 00:00:00 GMT",
      "Tuesday, 29-Feb-28 00:00:00 GMT",
      "Tue Feb 29 00:00:00 2028",
    ]) {
      expect(parseRetryAfter(date, beforeLeapDay), date).toBe(60_000);
    }
    // Dates Date.parse would take but that are no HTTP date: a day name and a number, a wrong layout.
    const looseDates = [
      "Mon 2",
      "Monday, 2",
      "Mon, 99",
      "Sun 2099",
      "Sun, 06 Nov 1994 08:49:37",
      "Sun, 6 Nov 1994 08:49:37 GMT",
    ];
    // In the layout, but not in the calendar: Date.parse rolls them over (31 Nov to 1 Dec).
    const impossibleDates = [
      "Wed, 31 Nov 2099 00:00:00 GMT",
      "Sun, 30 Feb 2099 00:00:00 GMT",
      "Thu, 26 Nov 2026 24:00:00 GMT",
      "Thu, 26 Nov 2026 10:60:00 GMT",
      "Wednesday, 31-Nov-99 00:00:00 GMT",
      "Wed Nov 31 00:00:00 2099",
      "Sun, 29 Feb 2099 00:00:00 GMT", // not a leap year
      "Thu, 26 Nov 0026 10:00:00 GMT", // read as 2026
      "Thu Nov 26 10:00:00 0026",
    ];
    for (const junk of [
      ...["-5", "+5", "1.5", "1e3", "", "soon", "2026-01-01", "Sun, nonsense"],
      ...looseDates,
      ...impossibleDates,
    ]) {
      expect(parseRetryAfter(junk, now)).toBeUndefined();
    }
  });

  it("reads Retry-After once, alike for the wait and for the error's retryAfterMs", () => {
    vi.useFakeTimers({ now: Date.parse("1994-11-06T08:49:30Z") });
    const policy = { maxRetries: 2, baseDelayMs: 1_000, maxDelayMs: 2 ** 31 - 1 };
    const noRedaction = (text: string) => text;
    for (const [value, expected] of [
      ["7", 7_000],
      [" 7 ", 7_000],
      ["Sun, 06 Nov 1994 08:49:37 GMT", 7_000],
      ["Sun, 06 Nov 1994 08:49:00 GMT", 0],
      ["-5", undefined],
      ["1.5", undefined],
      ["Mon 2", undefined],
    ] as const) {
      const headers = new Headers({ "Retry-After": value });
      const answer = { status: 503, statusText: "", headers, url: "https://api.test/v1/x", errorText: "" };
      expect(retryAfterOf(headers), value).toBe(expected);
      const error = apiErrorFor(answer, "GET", answer.url, "", noRedaction);
      expect(error.retryAfterMs, value).toBe(expected);
      // A log line of the error (its toJSON) says it too.
      expect(JSON.parse(JSON.stringify(error)).retryAfterMs, value).toBe(expected);
      const wait = retryDelay(policy, 0, answer);
      // Junk leaves the backoff: the first wait is half to all of the 1,000 ms base.
      if (expected === undefined) expect([wait >= 500, wait <= 1_000], value).toEqual([true, true]);
      else expect(wait, value).toBe(expected);
    }
    expect(retryAfterOf(new Headers())).toBeUndefined();
  });

  it("caps Retry-After at maxRetryDelayMs", async () => {
    vi.useFakeTimers();
    const server = scriptedFetch(
      sequence(() => json({}, { status: 503, headers: { "retry-after": "3600" } })),
    );
    const pending = untyped(testSdk(server.fetch, { maxRetryDelayMs: 5_000 }).client).GET("/v1/accounts", {});
    await vi.advanceTimersByTimeAsync(4_999);
    expect(server.dataCalls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.dataCalls()).toHaveLength(2);
    await pending;
  });
});

describe("errors say how many times the call was sent", () => {
  it("a timeout, a refused connection and an error answer after every retry: each attempt counted", async () => {
    const hangs = scriptedFetch(() => new Promise<Response>(() => {}));
    const refused = scriptedFetch(() => {
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
      });
    });
    const busy = scriptedFetch(() => json({ name: "busy" }, { status: 503 }));
    for (const [server, name] of [
      [hangs, "CdasTimeoutError"],
      [refused, "CdasConnectionError"],
      [busy, "CdasServerError"],
    ] as const) {
      const sdk = testSdk(server.fetch, { timeoutMs: 20, maxRetries: 2 });
      const thrown = await sdk
        .paginate("/v1/accounts")
        .toArray()
        .catch((e: unknown) => e);
      expect(server.dataCalls()).toHaveLength(3);
      expect(thrown).toMatchObject({ name, attempts: 3 });
      // What a log line of the error shows.
      expect((thrown as { toJSON(): object }).toJSON()).toMatchObject({ attempts: 3 });
    }
    const result = await untyped(testSdk(busy.fetch, { maxRetries: 1 }).client).GET("/v1/accounts", {});
    expect(apiErrorOf(result)).toMatchObject({ status: 503, attempts: 2 });
  });

  it("a 401 renewed once counts both sendings; a POST, never retried, one; the token call its own", async () => {
    const unauthorized = scriptedFetch(() => json({ name: "unauthorized" }, { status: 401 }));
    const renewed = await untyped(testSdk(unauthorized.fetch).client).GET("/v1/accounts", {});
    expect(apiErrorOf(renewed)).toMatchObject({ status: 401, attempts: 2 });

    const busy = scriptedFetch(() => json({ name: "busy" }, { status: 503 }));
    const posted = await untyped(testSdk(busy.fetch).client).POST("/v1/auth/session", { body: {} });
    expect(apiErrorOf(posted)).toMatchObject({ status: 503, attempts: 1 });

    const tokenBusy = scriptedFetch(
      () => json({ data: [] }),
      () => json({ name: "busy" }, { status: 503 }),
    );
    const failure = await untyped(testSdk(tokenBusy.fetch, { maxRetries: 1 }).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 503, url: "https://api.test/v1/token", attempts: 2 });
  });

  it("an answer a middleware gave without sending the call: 0 attempts, named by the address it was for", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const sdk = testSdk(server.fetch);
    sdk.client.use({ onRequest: () => json({ name: "refused", message: "by policy" }, { status: 403 }) });
    const thrown = await sdk
      .paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1" } } })
      .toArray()
      .catch((e: unknown) => e);
    expect(server.dataCalls()).toHaveLength(0);
    // It was named by the list's path alone (no address) from sdk.client, without the query by paginate.
    expect(thrown).toMatchObject({
      name: "CdasPermissionError",
      attempts: 0,
      url: "https://api.test/v1/accounts?end_user_id=eu_1",
    });
    const result = await untyped(sdk.client).GET("/v1/accounts", {
      params: { query: { end_user_id: "eu_1" } },
    });
    expect(apiErrorOf(result)?.toJSON()).toEqual((thrown as { toJSON(): object }).toJSON());
  });
});

describe("timeouts", () => {
  it("fails an attempt whose answer never comes with a timeout CdasError, then retries it", async () => {
    let hangs = 1;
    const server = scriptedFetch(() => (hangs-- > 0 ? new Promise<Response>(() => {}) : json({ data: [] })));
    const { data } = await untyped(testSdk(server.fetch, { timeoutMs: 20 }).client).GET("/v1/accounts", {});
    expect(data).toEqual({ data: [] });
    expect(server.dataCalls()).toHaveLength(2);
  });

  it("throws a timeout CdasError when every attempt hangs", async () => {
    const server = scriptedFetch(() => new Promise<Response>(() => {}));
    const failure = await untyped(testSdk(server.fetch, { timeoutMs: 20, maxRetries: 1 }).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "timeout" });
    expect((failure as Error).message).toBe("GET /v1/accounts timed out after 20 ms (its body included)");
    expect(server.dataCalls()).toHaveLength(2);
  });

  it("aborts the signal given to the custom fetch when the attempt times out", async () => {
    const server = scriptedFetch(() => new Promise<Response>(() => {}));
    await untyped(testSdk(server.fetch, { timeoutMs: 20, maxRetries: 0 }).client)
      .GET("/v1/accounts", {})
      .catch(() => {});
    const signal = server.dataCalls()[0]?.signal;
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ name: "TimeoutError" });
  });

  it("covers a body that stops arriving", async () => {
    const stalled = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data": ['));
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    const server = scriptedFetch(stalled);
    const failure = await untyped(testSdk(server.fetch, { timeoutMs: 20, maxRetries: 0 }).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "timeout" });
  });
});

describe("each attempt's deadline ends with it", () => {
  const pastTheDeadline = () => new Promise((resolve) => setTimeout(resolve, 60));

  it("ends once openapi-fetch has read a 2xx answer, an error answer or a failed body", async () => {
    const answers = [
      () => json({ data: ["ok"] }),
      () => json({ error: "not_found" }, { status: 404 }),
      () => new Response("{not json", { headers: { "content-type": "application/json" } }),
    ];
    const server = scriptedFetch(() => (answers.shift() ?? answers[0])?.() ?? json({}));
    const client = untyped(testSdk(server.fetch, { timeoutMs: 30, maxRetries: 0 }).client);
    expect(await client.GET("/v1/accounts", {})).toMatchObject({ data: { data: ["ok"] } });
    expect(await client.GET("/v1/accounts", {})).toMatchObject({ error: { error: "not_found" } });
    expect(await client.GET("/v1/accounts", {}).catch((e: unknown) => e)).toMatchObject({
      code: "invalid_response",
    });
    await pastTheDeadline();
    // A deadline that fired after its call was over would abort the signal the fetch was given.
    expect(server.dataCalls().map((call) => call.signal?.aborted)).toEqual([false, false, false]);
  });

  it("runs on while a body asked for as a stream is unread", async () => {
    const server = scriptedFetch(() => json({ data: ["ok"] }));
    const client = untyped(testSdk(server.fetch, { timeoutMs: 30, maxRetries: 0 }).client);
    const { data } = await client.GET("/v1/accounts", { parseAs: "stream" });
    expect(data).toBeInstanceOf(ReadableStream);
    await pastTheDeadline();
    expect(server.dataCalls()[0]?.signal?.reason).toMatchObject({ name: "TimeoutError" });
  });
});

describe("timeouts of concurrent and token calls", () => {
  it("a timed-out call does not abort a concurrent one", async () => {
    let calls = 0;
    const server = scriptedFetch(async () => {
      calls++;
      if (calls === 1) return new Promise<Response>(() => {});
      await new Promise((resolve) => setTimeout(resolve, 5));
      return json({ data: ["ok"] });
    });
    const client = untyped(testSdk(server.fetch, { timeoutMs: 40, maxRetries: 0 }).client);
    const [hung, fine] = await Promise.allSettled([
      client.GET("/v1/accounts", {}),
      client.GET("/v1/accounts", {}),
    ]);
    expect(hung).toMatchObject({ status: "rejected", reason: { code: "timeout" } });
    expect(fine).toMatchObject({ status: "fulfilled", value: { data: { data: ["ok"] } } });
    // Each attempt has its own deadline: the hung one was aborted, the other kept its answer.
    const [first, second] = server.dataCalls();
    expect(first?.signal?.aborted).toBe(true);
    expect(second?.signal?.aborted).toBe(false);
    expect(server.dataCalls()).toHaveLength(2);
  });

  it("a token call that never answers ends in a timeout CdasError", async () => {
    const server = scriptedFetch(
      () => json({ data: [] }),
      () => new Promise<Response>(() => {}),
    );
    const failure = await untyped(testSdk(server.fetch, { timeoutMs: 20, maxRetries: 1 }).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "timeout" });
    expect(server.tokenCalls()).toHaveLength(2);
    expect(server.dataCalls()).toHaveLength(0);
  });
});

describe("cancellation", () => {
  it("rejects with the caller's reason while the answer is awaited", async () => {
    const server = scriptedFetch(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const pending = untyped(testSdk(server.fetch).client).GET("/v1/accounts", { signal: controller.signal });
    await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(1));
    controller.abort(new Error("user left"));
    await expect(pending).rejects.toThrow("user left");
    expect(server.dataCalls()[0]?.signal?.aborted).toBe(true);
  });

  it("rejects during the wait between retries and sends nothing more", async () => {
    const server = scriptedFetch(() => json({}, { status: 503, headers: { "retry-after": "10" } }));
    const controller = new AbortController();
    const pending = untyped(testSdk(server.fetch, { maxRetryDelayMs: 60_000 }).client).GET("/v1/accounts", {
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(server.dataCalls()).toHaveLength(1);
  });

  it("rejects while waiting for the token; a signal already aborted sends nothing", async () => {
    const server = scriptedFetch(
      () => json({ data: [] }),
      () => new Promise<Response>(() => {}),
    );
    const client = untyped(testSdk(server.fetch).client);
    const controller = new AbortController();
    const pending = client.GET("/v1/accounts", { signal: controller.signal });
    await vi.waitFor(() => expect(server.tokenCalls()).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(client.GET("/v1/accounts", { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(server.dataCalls()).toHaveLength(0);
  });

  it("stops a pagination mid-walk", async () => {
    const controller = new AbortController();
    let page = 0;
    const server = scriptedFetch(() => {
      page++;
      if (page === 2) controller.abort();
      return json({ data: [page], links: { next: `/v1/accounts?offset=${page}` } });
    });
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const item of testSdk(server.fetch).paginate("/v1/accounts", {
        signal: controller.signal,
      })) {
        seen.push(item);
      }
    })().catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: "AbortError" });
    expect(seen).toEqual([1]);
  });
});

describe("timeouts with the platform fetch over loopback", () => {
  // A server that answers the token call, then never answers `/v1/accounts` and stalls the body of
  // `/v1/identity` after its first bytes: the deadline reaches undici's fetch through its signal.
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/v1/token") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ access_token: "tok_1", token_type: "Bearer", expires_in: 3600 }));
      } else if (request.url?.startsWith("/v1/identity")) {
        response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        response.write('{"data": [');
      }
      // anything else: no answer at all
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // A second, not less: the token call runs under the same deadline, and a machine busy with other
  // suites can take a tenth of a second to answer it.
  const sdk = () =>
    testSdk(undefined, { baseUrl, allowInsecureLoopback: true, timeoutMs: 1000, maxRetries: 0 }).client;

  it("ends an answer that never comes in a timeout CdasError naming the request", async () => {
    const failure = await untyped(sdk())
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: "timeout",
      name: "CdasTimeoutError",
      message: "GET /v1/accounts timed out after 1000 ms (its body included)",
    });
  });

  it("ends a body that stops arriving in a timeout CdasError", async () => {
    const failure = await untyped(sdk())
      .GET("/v1/identity", {})
      .catch((e: unknown) => e);
    expect(isCdasError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "timeout" });
  });

  it("still ends a stalled body when garbage is collected while it is read", async () => {
    // Node 20 collects an AbortSignal.timeout that only AbortSignal.any refers to, timer included:
    // the deadline's timer must hold its signal while the body is read.
    setFlagsFromString("--expose-gc");
    const collectGarbage = runInNewContext("gc") as () => void;
    const client = testSdk(undefined, {
      baseUrl,
      allowInsecureLoopback: true,
      timeoutMs: 300,
      maxRetries: 0,
    });
    const pending = untyped(client.client)
      .GET("/v1/identity", {})
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 100));
    collectGarbage();
    collectGarbage();
    expect(await pending).toMatchObject({ code: "timeout" });
  });
});
