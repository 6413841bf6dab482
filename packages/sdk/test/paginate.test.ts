import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { version } from "../package.json";
import {
  type CdasError,
  CdasInvalidResponseError,
  CdasPaginationLoopError,
  isCdasApiError,
  isCdasError,
} from "../src/errors.js";
import {
  failureWith,
  json,
  type RecordedRequest,
  scriptedFetch,
  testSdk,
  tokenResponse,
  untyped,
} from "./helpers.js";

/** Serves `pages` of a collection; `link(n, request)` makes the next link of page n (1-based). */
function pagedServer(
  pages: unknown[][],
  items: string,
  link: (next: number, request: RecordedRequest) => string | undefined,
  pageOf: (request: RecordedRequest) => number,
) {
  return scriptedFetch((request) => {
    const index = pageOf(request);
    const list = pages[index - 1] ?? [];
    const next = index < pages.length ? link(index + 1, request) : undefined;
    const links = next === undefined ? {} : { next };
    return json(items === "" ? list : { [items]: list, links });
  });
}

const cursorOf = (request: RecordedRequest) =>
  Number(request.url.searchParams.get("page[after]")?.slice(1) ?? 1);

describe("offset paging", () => {
  it("shows a middleware every page as the list's path and its query (what metrics and logs group by)", async () => {
    const server = pagedServer(
      [[1, 2], [3]],
      "data",
      (next) => `/v1/accounts?end_user_id=eu_1&limit=2&offset=${(next - 1) * 2}&note=a%2Bb`,
      (request) => Number(request.url.searchParams.get("offset") ?? 0) / 2 + 1,
    );
    const sdk = testSdk(server.fetch);
    const seen: unknown[] = [];
    sdk.client.use({
      onRequest({ schemaPath, params }) {
        seen.push({ schemaPath, query: params.query });
      },
    });
    const items = await sdk
      .paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1" } } }, { pageSize: 2 })
      .toArray();
    expect(items).toEqual([1, 2, 3]);
    expect(seen).toEqual([
      { schemaPath: "/v1/accounts", query: { end_user_id: "eu_1", limit: 2 } },
      { schemaPath: "/v1/accounts", query: { end_user_id: "eu_1", limit: "2", offset: "2", note: "a+b" } },
    ]);
    // The link itself is sent as written.
    expect(server.dataCalls().map((call) => call.url.search)[1]).toBe(
      "?end_user_id=eu_1&limit=2&offset=2&note=a%2Bb",
    );
  });

  it("follows links.next and yields every item once", async () => {
    const server = pagedServer(
      [[1, 2], [3, 4], [5]],
      "data",
      (next) => `/v1/accounts?end_user_id=eu_1&limit=2&offset=${(next - 1) * 2}`,
      (request) => Number(request.url.searchParams.get("offset") ?? 0) / 2 + 1,
    );
    const sdk = testSdk(server.fetch);
    const items = await sdk
      .paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1" } } }, { pageSize: 2 })
      .toArray();
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(server.dataCalls().map((call) => call.url.search)).toEqual([
      "?end_user_id=eu_1&limit=2",
      "?end_user_id=eu_1&limit=2&offset=2",
      "?end_user_id=eu_1&limit=2&offset=4",
    ]);
  });

  it("serves one item iterator shared by concurrent callers every item once, in order", async () => {
    const server = pagedServer(
      [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]],
      "data",
      (next) => `/v1/accounts?end_user_id=eu_1&limit=3&offset=${(next - 1) * 3}`,
      (request) => Number(request.url.searchParams.get("offset") ?? 0) / 3 + 1,
    );
    const iterator = testSdk(server.fetch)
      .paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1" } } }, { pageSize: 3 })
      [Symbol.asyncIterator]();
    // Each worker asks for an item while the others' are pending, and works a moment on each.
    const taken: unknown[] = [];
    const worker = async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        taken.push(next.value);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(taken).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(server.dataCalls()).toHaveLength(4);
  });

  it("hands out nothing once return() is called, not even the page a pending next() brings", async () => {
    let release: () => void = () => {};
    const server = scriptedFetch(async (request) => {
      const offset = Number(request.url.searchParams.get("offset") ?? 0);
      if (offset > 0) await new Promise<void>((resolve) => (release = resolve));
      return json({
        data: [offset + 1, offset + 2],
        links: { next: `/v1/accounts?end_user_id=eu_1&offset=${offset + 2}` },
      });
    });
    const iterator = testSdk(server.fetch)
      .paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1" } } })
      [Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    const pending = iterator.next(); // page 2 is being fetched
    await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(2));
    const returned = iterator.return?.();
    release();
    await pending;
    await expect(returned).resolves.toEqual({ done: true, value: undefined });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it("stops on an empty page even when links.next is present", async () => {
    let calls = 0;
    const server = scriptedFetch(() =>
      json({ data: calls++ === 0 ? [1] : [], links: { next: `/v1/accounts?offset=${calls}` } }),
    );
    expect(await testSdk(server.fetch).paginate("/v1/accounts").toArray()).toEqual([1]);
    expect(server.dataCalls()).toHaveLength(2);
  });
});

describe("cursor paging", () => {
  it.each([
    ["relative", (next: number) => `/v1/banking/accounts?end_user_id=eu_1&page[after]=c${next}`],
    [
      "absolute",
      (next: number) => `https://api.test/v1/banking/accounts?end_user_id=eu_1&page%5Bafter%5D=c${next}`,
    ],
    ["query-only", (next: number) => `?end_user_id=eu_1&page[after]=c${next}`],
  ])("follows %s links", async (_kind, link) => {
    const server = pagedServer([["a", "b"], ["c"], ["d"]], "accounts", link, cursorOf);
    const sdk = testSdk(server.fetch);
    const items = await sdk
      .paginate("/v1/banking/accounts", { params: { query: { end_user_id: "eu_1" } } }, { pageSize: 2 })
      .toArray();
    expect(items).toEqual(["a", "b", "c", "d"]);
    expect(server.dataCalls()[0]?.url.searchParams.get("page[size]")).toBe("2");
    expect(server.dataCalls()[2]?.url.searchParams.get("page[after]")).toBe("c3");
  });

  it("ends when links.next is missing (v3 opt-in paging without links)", async () => {
    const server = scriptedFetch(() => json({ end_users: [{ id: "u1" }] }));
    expect(await testSdk(server.fetch).paginate("/v1/end-users").toArray()).toEqual([{ id: "u1" }]);
  });

  it("throws pagination_loop on a cursor seen twice", async () => {
    let n = 0;
    const server = scriptedFetch(() =>
      json({ accounts: [n++], links: { next: `/v1/banking/accounts?page[after]=same&n=${n}` } }),
    );
    const failure = await testSdk(server.fetch)
      .paginate("/v1/banking/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "pagination_loop" });
    expect(server.dataCalls()).toHaveLength(2);
  });

  it("throws pagination_loop on a link back to a page already read", async () => {
    const server = pagedServer(
      [["a"], ["b"], ["c"]],
      "accounts",
      (next) => `/v1/banking/accounts?page[after]=c${next === 3 ? 2 : next}`,
      cursorOf,
    );
    const failure = await testSdk(server.fetch)
      .paginate("/v1/banking/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "pagination_loop" });
  });

  it("knows the first page again when a custom fetch's answers name no address (the request's is theirs)", async () => {
    const server = scriptedFetch(() => json({ data: [0], links: { next: "/v1/accounts?end_user_id=e" } }));
    const walk = testSdk(server.fetch).paginate("/v1/accounts", { params: { query: { end_user_id: "e" } } });
    await expect(walk.toArray()).rejects.toMatchObject({ code: "pagination_loop" });
    expect(server.dataCalls()).toHaveLength(1);
    const { response } = await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {});
    expect(response.url).toBe("https://api.test/v1/accounts");
  });

  it("knows a page again whatever the order of its query's names, and follows links as written", async () => {
    const links = ["/v1/accounts?offset=2&limit=2", "/v1/accounts?limit=2&offset=2"];
    const server = scriptedFetch((request) =>
      json({ data: [1, 2], links: { next: links[request.url.searchParams.has("offset") ? 1 : 0] } }),
    );
    const failure = await testSdk(server.fetch)
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "pagination_loop" });
    expect(server.dataCalls().map((call) => `${call.url.pathname}${call.url.search}`)).toEqual([
      "/v1/accounts",
      "/v1/accounts?offset=2&limit=2",
    ]);
  });

  it.each([
    ["8,193 characters as written", "c".repeat(8193), ""],
    // 3,000 euro signs are 27,000 characters once percent-encoded, as they go on the wire.
    ["3,000 euro signs, once encoded", "€".repeat(3000), " once encoded"],
  ])(
    "refuses a links.next longer than 8192 characters (%s): no server takes it",
    async (_kind, cursor, how) => {
      const next = `/v1/banking/accounts?page[after]=${cursor}`;
      const server = scriptedFetch(() => json({ accounts: [1], links: { next } }));
      const failure = await testSdk(server.fetch)
        .paginate("/v1/banking/accounts")
        .toArray()
        .catch((e: unknown) => e);
      expect(failure).toMatchObject({
        name: "CdasInvalidResponseError",
        message: `links.next of /v1/banking/accounts is longer than 8192 characters${how}`,
      });
      expect(server.dataCalls()).toHaveLength(1);
    },
  );

  it("remembers the pages read by digest: a long walk of long links holds little", async () => {
    // Every page has a new 8 KB cursor; the fetch keeps nothing, the loop keeps nothing.
    setFlagsFromString("--expose-gc");
    const collectGarbage = runInNewContext("gc") as () => void;
    let page = 0;
    const fetch = async (request: Request) => {
      if (new URL(request.url).pathname === "/v1/token") return tokenResponse();
      const cursor = `${++page}`.padStart(8000, "c");
      return json({ accounts: [page], links: { next: `/v1/banking/accounts?page[after]=${cursor}` } });
    };
    const walk = testSdk(fetch)
      .paginate("/v1/banking/accounts", {}, { maxPages: 400 })
      [Symbol.asyncIterator]();
    await walk.next();
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let read = 1; read < 399; read++) await walk.next();
    collectGarbage();
    const held = process.memoryUsage().heapUsed - before;
    await walk.return?.();
    // Kept whole, the 400 links and cursors would hold 6.4 MB.
    expect(held).toBeLessThan(2_000_000);
  });

  it("refuses a link to another origin or another path (the bearer token stays home)", async () => {
    for (const next of ["https://evil.test/v1/banking/accounts?page[after]=x", "/v1/accounts?offset=1"]) {
      const server = scriptedFetch(() => json({ accounts: [1], links: { next } }));
      const failure = await testSdk(server.fetch)
        .paginate("/v1/banking/accounts")
        .toArray()
        .catch((e: unknown) => e);
      expect(failure).toMatchObject({ code: "invalid_response" });
      expect(server.dataCalls()).toHaveLength(1);
    }
  });
});

describe("single pages and bare arrays", () => {
  it("yields a bare array (institutions) and fills in client_id", async () => {
    const server = scriptedFetch(() => json([{ id: "inst_1" }, { id: "inst_2" }]));
    const items = await testSdk(server.fetch).paginate("/v1/institutions").toArray();
    expect(items).toEqual([{ id: "inst_1" }, { id: "inst_2" }]);
    expect(server.dataCalls()[0]?.url.searchParams.get("client_id")).toBe("client_test");
  });

  it("keeps a client_id given by the caller", async () => {
    const server = scriptedFetch(() => json([]));
    await testSdk(server.fetch)
      .paginate("/v1/institutions", { params: { query: { client_id: "other" } } })
      .toArray();
    expect(server.dataCalls()[0]?.url.searchParams.getAll("client_id")).toEqual(["other"]);
  });

  it("reads one page of a style-none list and ignores any link", async () => {
    const server = scriptedFetch(() =>
      json({ data: [{ end_user_id: "eu_1" }], links: { next: "/v1/identity?x=1" } }),
    );
    expect(await testSdk(server.fetch).paginate("/v1/identity").toArray()).toHaveLength(1);
    expect(server.dataCalls()).toHaveLength(1);
  });
});

describe("limits and pages", () => {
  const endless = () => {
    let n = 0;
    return scriptedFetch(() => {
      n++;
      return json({ data: [n * 10, n * 10 + 1], links: { next: `/v1/accounts?offset=${n * 2}` } });
    });
  };

  it("stops after maxItems, cutting the last page", async () => {
    const server = endless();
    expect(await testSdk(server.fetch).paginate("/v1/accounts", {}, { maxItems: 3 }).toArray()).toEqual([
      10, 11, 20,
    ]);
    expect(server.dataCalls()).toHaveLength(2);
  });

  it("sends pageSize as the style's size parameter unless the query already names one", async () => {
    const server = scriptedFetch((request) =>
      json(request.url.pathname === "/v1/accounts" ? { data: [] } : { accounts: [] }),
    );
    const sdk = testSdk(server.fetch);
    await sdk.paginate("/v1/accounts", {}, { pageSize: 7, maxPages: 1 }).toArray();
    await sdk
      .paginate("/v1/accounts", { params: { query: { limit: 3 } } }, { pageSize: 7, maxPages: 1 })
      .toArray();
    await sdk.paginate("/v1/banking/accounts", {}, { pageSize: 7, maxPages: 1 }).toArray();
    expect(server.dataCalls().map((call) => call.url.search)).toEqual([
      "?limit=7",
      "?limit=3",
      "?page[size]=7",
    ]);
  });

  it("refuses a query page size below 1, as it refuses pageSize: a page of no items walks nothing", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const sdk = testSdk(server.fetch);
    for (const [path, query, shown] of [
      ["/v1/accounts", { limit: 0 }, "limit of at least 1 to walk pages (got 0)"],
      ["/v1/accounts", { limit: -5 }, "limit of at least 1 to walk pages (got -5)"],
      ["/v1/banking/accounts", { "page[size]": "0" }, "page[size] of at least 1 to walk pages (got 0)"],
    ] as const) {
      const walk = sdk.paginate(path, { params: { query: { end_user_id: "eu_1", ...query } } } as never);
      await expect(walk.toArray()).rejects.toThrow(`paginate needs a query ${shown}`);
    }
    expect(server.dataCalls()).toHaveLength(0);
    // A size of 1 or more, or none, is sent as given.
    await sdk.paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1", limit: 1 } } }).toArray();
    expect(server.dataCalls().map((call) => call.url.searchParams.get("limit"))).toEqual(["1"]);
  });

  it("stops after maxPages and iterates whole pages", async () => {
    const server = endless();
    const pages = [];
    for await (const page of testSdk(server.fetch).paginate("/v1/accounts", {}, { maxPages: 3 }).pages()) {
      pages.push({ index: page.index, items: page.items, status: page.response.status });
    }
    expect(pages).toEqual([
      { index: 0, items: [10, 11], status: 200 },
      { index: 1, items: [20, 21], status: 200 },
      { index: 2, items: [30, 31], status: 200 },
    ]);
  });

  it("refuses a path that is not a list operation", () => {
    const sdk = testSdk(scriptedFetch(() => json({})).fetch);
    // Each list operation named, so that a misspelt path finds its spelling.
    expect(() => sdk.paginate("/v1/acounts" as never)).toThrow(
      /^\/v1\/acounts is not a list operation of v2 \(its list operations: .*\/v1\/accounts, /,
    );
  });

  it.each(["constructor", "__proto__", "toString", Symbol("path")])(
    "refuses %s, a name every object has or no name at all, sending nothing",
    (path) => {
      // The names an object inherits passed as list operations: the SDK sent GET <baseUrl>constructor.
      const server = scriptedFetch(() => json({ data: [] }));
      const sdk = testSdk(server.fetch);
      expect(() => sdk.paginate(path as never)).toThrow(
        expect.objectContaining({
          code: "invalid_options",
          message: expect.stringContaining(
            `${String(path)} is not a list operation of v2 (its list operations: `,
          ),
        }),
      );
      expect(server.calls).toEqual([]);
    },
  );

  it("types init and options that cannot be read (a getter or Proxy that throws) and reads each once", async () => {
    const sdk = testSdk(scriptedFetch(() => json({ data: [1] })).fetch);
    const boom = new Error("the caller's getter");
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const unreadable = [
      () =>
        sdk.paginate("/v1/accounts", {
          get signal(): AbortSignal {
            throw boom;
          },
        }),
      () =>
        sdk.paginate(
          "/v1/accounts",
          {},
          {
            get maxPages(): number {
              throw boom;
            },
          },
        ),
      () => sdk.paginate("/v1/accounts", revoked.proxy),
      () => sdk.paginate("/v1/accounts", {}, revoked.proxy),
    ];
    for (const paginate of unreadable) {
      expect(paginate).toThrow(
        expect.objectContaining({
          code: "invalid_options",
          message: expect.stringMatching(/^paginate could not read its init or options/),
        }),
      );
    }
    // A signal read twice was once undefined and then a fake (a raw TypeError from AbortSignal.any).
    let reads = 0;
    const twoFaced = {
      get signal() {
        return reads++ === 0 ? undefined : ({ aborted: false } as AbortSignal);
      },
    };
    await expect(sdk.paginate("/v1/accounts", twoFaced, { prefetch: true }).toArray()).resolves.toEqual([1]);
  });
});

describe("failures while paging", () => {
  it("throws CdasApiError for a non-2xx page", async () => {
    const server = scriptedFetch(() =>
      json({ id: "e9", name: "bad_request", message: "end_user_id is required" }, { status: 400 }),
    );
    const failure = await testSdk(server.fetch)
      .paginate("/v1/banking/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect(failure).toMatchObject({
      status: 400,
      id: "e9",
      name: "CdasInvalidRequestError",
      apiErrorName: "bad_request",
      apiMessage: "end_user_id is required",
      message: "GET /v1/banking/accounts answered HTTP 400: end_user_id is required",
    });
  });

  it.each([
    [400, "CdasInvalidRequestError"],
    [401, "CdasAuthenticationError"],
    [403, "CdasPermissionError"],
    [404, "CdasNotFoundError"],
    [409, "CdasApiError"],
    [422, "CdasInvalidRequestError"],
    [429, "CdasRateLimitError"],
    [500, "CdasServerError"],
    [503, "CdasServerError"],
  ])("a page answered HTTP %i is a %s", async (status, name) => {
    const server = scriptedFetch(() => json({ id: "e1", name: "any", message: "no" }, { status }));
    const failure = await testSdk(server.fetch, { maxRetries: 0 })
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect(failure).toMatchObject({ name, status, code: "api" });
    expect((failure as Error).constructor.name).toBe(name);
  });

  it.each([
    [
      "a body that is not JSON",
      () => new Response("<html>oops</html>", { headers: { "content-type": "text/html" } }),
    ],
    [
      "a truncated body",
      () => new Response('{"data": [1, 2', { headers: { "content-type": "application/json" } }),
    ],
    ["a body of the wrong shape", () => json({ items: [] })],
    ["a links.next that is not a string", () => json({ data: [1], links: { next: 42 } })],
  ])("throws invalid_response for %s", async (_kind, answer) => {
    const failure = await testSdk(scriptedFetch(answer).fetch)
      .paginate("/v1/accounts")
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "invalid_response" });
  });
});

describe("which page an invalid answer or a loop came from", () => {
  const secondPage = "https://api.test/v1/accounts?end_user_id=e&offset=1";
  it.each([
    ["a body that is not JSON", () => new Response("<html>oops</html>")],
    ["a body of the wrong shape", () => json({ items: [] })],
    ["a links.next that is not a string", () => json({ data: [1], links: { next: 42 } })],
    ["a body over maxResponseBytes", () => json({ data: ["x".repeat(2048)] })],
  ])("%s on the second page names that page's address", async (_kind, answer) => {
    const server = scriptedFetch((request) =>
      request.url.searchParams.has("offset")
        ? answer()
        : json({ data: [0], links: { next: "/v1/accounts?end_user_id=e&offset=1" } }),
    );
    const failure = await testSdk(server.fetch)
      .withOptions({ maxResponseBytes: 1024 })
      .paginate("/v1/accounts", { params: { query: { end_user_id: "e" } } })
      .toArray()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "invalid_response", method: "GET", url: secondPage });
    expect((failure as CdasError).toJSON()).toMatchObject({ method: "GET", url: secondPage });
  });

  it("a redirect back to a page already read names the link that was redirected", async () => {
    const server = scriptedFetch((request) => {
      const offset = request.url.searchParams.get("offset");
      if (offset === "2")
        return new Response(null, { status: 302, headers: { location: "/v1/accounts?end_user_id=e" } });
      return json({
        data: [1],
        links: { next: `/v1/accounts?end_user_id=e&offset=${offset === null ? 1 : 2}` },
      });
    });
    const failure = await testSdk(server.fetch)
      .paginate("/v1/accounts", { params: { query: { end_user_id: "e" } } })
      .toArray()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: "pagination_loop",
      method: "GET",
      url: "https://api.test/v1/accounts?end_user_id=e&offset=2",
    });
  });

  it("keeps a cause given to it", () => {
    expect(new CdasPaginationLoopError("m", { cause: 1 }).cause).toBe(1);
    expect(new CdasInvalidResponseError("m", { cause: 2 }).cause).toBe(2);
  });

  it("a loop names the page whose link went back", async () => {
    const server = scriptedFetch((request) =>
      json({
        data: [1],
        links: {
          next: request.url.searchParams.has("offset")
            ? "/v1/accounts?end_user_id=e"
            : "/v1/accounts?end_user_id=e&offset=1",
        },
      }),
    );
    const failure = await testSdk(server.fetch)
      .paginate("/v1/accounts", { params: { query: { end_user_id: "e" } } })
      .toArray()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "pagination_loop", method: "GET", url: secondPage });
  });
});

describe("requests of followed links", () => {
  it("carry the version header, the bearer, the user agent and the caller's headers", async () => {
    const server = pagedServer(
      [[1], [2]],
      "data",
      () => "/v1/accounts?offset=1",
      (request) => (request.url.searchParams.get("offset") === "1" ? 2 : 1),
    );
    const sdk = testSdk(server.fetch, { version: "v1", userAgent: "walker/1" });
    await sdk.paginate("/v1/accounts", { headers: { "x-trace": "t-1" } }).toArray();
    const [first, second] = server.dataCalls();
    for (const call of [first, second]) {
      expect(call?.headers.get("x-platform-version")).toBe("v1");
      expect(call?.headers.get("authorization")).toBe("Bearer tok_1");
      expect(call?.headers.get("user-agent")).toBe(`cdas-sdk/${version} walker/1`);
      expect(call?.headers.get("x-trace")).toBe("t-1");
      expect(call?.headers.get("accept")).toBe("application/json; charset=UTF-8");
    }
    expect(second?.url.search).toBe("?offset=1");
  });
});

describe("lookahead (prefetch)", () => {
  /** Five pages of two items, linked by offset. */
  const fivePages = () =>
    scriptedFetch((request) => {
      const offset = Number(request.url.searchParams.get("offset") ?? 0);
      const next = offset < 8 ? { next: `/v1/accounts?offset=${offset + 2}` } : {};
      return json({ data: [offset, offset + 1], links: next });
    });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it("requests page k+1 while the loop works on page k, never more than one page ahead", async () => {
    const server = fivePages();
    const requestedWhileWorking: number[] = [];
    const items: unknown[] = [];
    for await (const page of testSdk(server.fetch).paginate("/v1/accounts", {}, { prefetch: true }).pages()) {
      await settle(); // the consumer's work
      requestedWhileWorking.push(server.dataCalls().length);
      items.push(...page.items);
    }
    expect(requestedWhileWorking).toEqual([2, 3, 4, 5, 5]);
    expect(items).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("is off by default: the next page is requested when the loop asks for it", async () => {
    const server = fivePages();
    const requestedWhileWorking: number[] = [];
    for await (const _ of testSdk(server.fetch).paginate("/v1/accounts").pages()) {
      await settle();
      requestedWhileWorking.push(server.dataCalls().length);
    }
    expect(requestedWhileWorking).toEqual([1, 2, 3, 4, 5]);
  });

  it("breaking out of the loop cancels the request in flight", async () => {
    const server = scriptedFetch((request) =>
      request.url.searchParams.has("offset")
        ? new Promise<Response>(() => {}) // page 2 never comes
        : json({ data: [1], links: { next: "/v1/accounts?offset=1" } }),
    );
    for await (const item of testSdk(server.fetch).paginate("/v1/accounts", {}, { prefetch: true })) {
      expect(item).toBe(1);
      await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(2));
      break;
    }
    const inFlight = server.dataCalls()[1];
    expect(inFlight?.signal?.aborted).toBe(true);
    expect(inFlight?.signal?.reason).toMatchObject({ name: "AbortError" });
  });

  it.each([
    ["items", false],
    ["items", true],
    ["pages", false],
    ["pages", true],
  ] as const)(
    "return() while a next() waits for a page cancels that page and ends at once (%s, prefetch %s)",
    async (kind, prefetch) => {
      // An async generator's return() waited for the page in flight, its retries included.
      const server = scriptedFetch((request) =>
        request.url.searchParams.has("offset")
          ? new Promise<Response>(() => {}) // page 2 never comes, unless aborted
          : json({ data: [1], links: { next: "/v1/accounts?offset=1" } }),
      );
      const walk = testSdk(server.fetch).paginate("/v1/accounts", {}, { prefetch });
      const iterator = kind === "items" ? walk[Symbol.asyncIterator]() : walk.pages()[Symbol.asyncIterator]();
      await iterator.next();
      const waiting = iterator.next();
      await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(2));
      await expect(iterator.return?.()).resolves.toEqual({ done: true, value: undefined });
      await expect(waiting).resolves.toEqual({ done: true, value: undefined });
      expect(server.dataCalls()[1]?.signal?.reason).toMatchObject({ name: "AbortError" });
    },
    10_000, // before the fix, return() never settled
  );

  it("throw() on a walk cancels the page prefetched", async () => {
    const server = scriptedFetch((request) =>
      request.url.searchParams.has("offset")
        ? new Promise<Response>(() => {}) // page 2 never comes, unless aborted
        : json({ data: [1], links: { next: "/v1/accounts?offset=1" } }),
    );
    const pages = testSdk(server.fetch).paginate("/v1/accounts", {}, { prefetch: true }).pages();
    const iterator = pages[Symbol.asyncIterator]() as AsyncGenerator<unknown>;
    await iterator.next();
    await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(2));
    const thrown = new Error("the caller's");
    await expect(iterator.throw(thrown)).rejects.toBe(thrown);
    expect(server.dataCalls()[1]?.signal?.reason).toMatchObject({ name: "AbortError" });
  });

  it.each([false, true])(
    "the caller's abort ends the walk at the next item, with the caller's reason (prefetch %s)",
    async (prefetch) => {
      const server = fivePages();
      const controller = new AbortController();
      const reason = new Error("the caller stopped");
      const seen: unknown[] = [];
      const walk = testSdk(server.fetch).paginate(
        "/v1/accounts",
        { signal: controller.signal },
        { prefetch },
      );
      const failure = await (async () => {
        for await (const item of walk) {
          seen.push(item);
          if (item === 2) controller.abort(reason); // the first item of page 2: item 3 is in hand
        }
      })().catch((error: unknown) => error);
      expect(failure).toBe(reason);
      expect(seen).toEqual([0, 1, 2]);
      // With prefetch, page 3 was requested while page 2 was in hand: its request ended with the abort.
      // Without, nothing was in flight (a request over lets go of the caller's signal).
      expect(server.dataCalls().length).toBe(prefetch ? 3 : 2);
      expect(server.dataCalls().map((call) => call.signal?.aborted)).toEqual(
        prefetch ? [false, false, true] : [false, false],
      );
    },
  );

  it("the caller's abort ends a walk of pages at the next page, one already prefetched included", async () => {
    const server = fivePages();
    const controller = new AbortController();
    const reason = new Error("the caller stopped");
    const pages = testSdk(server.fetch)
      .paginate("/v1/accounts", { signal: controller.signal }, { prefetch: true })
      .pages()
      [Symbol.asyncIterator]();
    await pages.next();
    await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(2)); // page 2 is in hand
    await settle();
    controller.abort(reason);
    await expect(pages.next()).rejects.toBe(reason);
    expect(server.dataCalls()).toHaveLength(2); // and nothing more was asked for
  });

  it("walks dropped between pages, never ended, leave no listener on the caller's signal", async () => {
    // A shutdown signal lives as long as the process: whatever a walk left on it would never be freed.
    const server = fivePages();
    const sdk = testSdk(server.fetch);
    const shutdown = new AbortController().signal;
    for (const prefetch of [false, true]) {
      for (let walk = 0; walk < 20; walk++) {
        const paginator = sdk.paginate("/v1/accounts", { signal: shutdown }, { prefetch });
        await paginator[Symbol.asyncIterator]().next(); // the first item, then the iterator is dropped
        await paginator.pages()[Symbol.asyncIterator]().next();
        paginator.pages(); // never iterated
      }
    }
    // A page prefetched lets go once it is answered.
    await vi.waitFor(() => expect(server.dataCalls()).toHaveLength(20 * 2 + 20 * 2 * 2));
    await vi.waitFor(() => expect(getEventListeners(shutdown, "abort")).toHaveLength(0));
  });

  it.each([
    ["an error answer", () => json({ name: "x", message: "busy" }, { status: 503 })],
    ["a page without its list", () => json({ nothing: [] })],
    ["a links.next elsewhere", () => json({ data: [1], links: { next: "/v1/payees" } })],
  ])(
    "a page that fails after the caller aborted rejects with the caller's reason: %s",
    async (_kind, secondPage) => {
      for (const [prefetch, byPages] of [
        [false, false],
        [true, false],
        [false, true],
      ]) {
        const server = scriptedFetch((request) =>
          request.url.searchParams.has("offset")
            ? secondPage()
            : json({ data: [0], links: { next: "/v1/accounts?offset=1" } }),
        );
        const sdk = testSdk(server.fetch, { maxRetries: 0 });
        const controller = new AbortController();
        const reason = new Error("the caller stopped");
        // The caller aborts once the failing page has been answered, before the walk fails with it.
        sdk.client.use({
          onResponse({ request }) {
            if (new URL(request.url).searchParams.has("offset")) controller.abort(reason);
          },
        });
        const walk = sdk.paginate("/v1/accounts", { signal: controller.signal }, { prefetch });
        const read = byPages
          ? (async () => {
              for await (const _ of walk.pages());
            })()
          : walk.toArray();
        await expect(read, `prefetch ${prefetch}, pages ${byPages}`).rejects.toBe(reason);
      }
    },
  );

  it("is checked like every option", () => {
    const sdk = testSdk(scriptedFetch(() => json({})).fetch);
    expect(() => sdk.paginate("/v1/accounts", {}, { prefetch: "yes" as never })).toThrow(
      "paginate option prefetch must be a boolean",
    );
    for (const pageSize of [0, 1.5, -1])
      expect(() => sdk.paginate("/v1/accounts", {}, { pageSize })).toThrow(
        `paginate option pageSize must be a whole number of at least 1 (got ${pageSize})`,
      );
    expect(() => sdk.paginate("/v1/accounts", {}, { maxItems: 1.5 })).toThrow(
      "paginate option maxItems must be a whole number of at least 0 (got 1.5)",
    );
    // A misspelt option is refused, not ignored (the default page size would be sent instead).
    expect(() => sdk.paginate("/v1/accounts", {}, { pagesize: 5 } as never)).toThrow(
      "paginate has no option pagesize (its options: maxPages, maxItems, pageSize, prefetch)",
    );
    expect(() => sdk.paginate("/v1/accounts", {}, [] as never)).toThrow("paginate needs an options object");
    // The walk's own signal follows it: checked before that.
    expect(() => sdk.paginate("/v1/accounts", { signal: {} as never }, { prefetch: true })).toThrow(
      "paginate's init.signal must be an AbortSignal (got object)",
    );
  });

  it("types a failure of the caller's own query (a getter that throws) as the caller's", async () => {
    const sdk = testSdk(scriptedFetch(() => json({ data: [] })).fetch);
    const query = {
      get limit(): number {
        throw new Error("no limit today");
      },
    };
    const failure = await sdk
      .paginate("/v1/accounts", { params: { query } }, { pageSize: 10 })
      .toArray()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: "CdasInvalidOptionsError" });
    expect((failure as Error).message).toContain("(no limit today)");
  });
});

describe("middleware of the user's (sdk.client.use)", () => {
  it("runs on sdk.client calls and on every page of paginate", async () => {
    const server = scriptedFetch((request) =>
      json({
        data: [1],
        links: request.url.searchParams.has("offset") ? {} : { next: "/v1/accounts?offset=1" },
      }),
    );
    const sdk = testSdk(server.fetch);
    const statuses: number[] = [];
    sdk.client.use({
      onRequest({ request }) {
        request.headers.set("x-request-id", "req-1");
        return request;
      },
      onResponse({ response }) {
        statuses.push(response.status);
        return undefined;
      },
    });
    await untyped(sdk.client).GET("/v1/accounts", {});
    expect(await sdk.paginate("/v1/accounts").toArray()).toEqual([1, 1]);
    expect(server.dataCalls().map((call) => call.headers.get("x-request-id"))).toEqual([
      "req-1",
      "req-1",
      "req-1",
    ]);
    expect(statuses).toEqual([200, 200, 200]);
  });

  it("that puts an error of its own in place of the SDK's (onError) fails the call as the caller's code", async () => {
    const server = scriptedFetch(() => Promise.reject(new TypeError("fetch failed")));
    const own = new Error("reported elsewhere");
    const failure = await failureWith(testSdk(server.fetch, { maxRetries: 0 }), {
      onError() {
        return own;
      },
    });
    expect(failure).toMatchObject({
      name: "CdasInvalidOptionsError",
      message:
        "GET /v1/accounts: failed after a middleware's onError took over the SDK's failure (it threw, returned an error, or answered with a body that failed) (reported elsewhere)",
      cause: own,
    });
  });

  it.each([
    ["a 204", () => new Response(null, { status: 204 }), "GET"],
    ["a HEAD", () => new Response(null, { status: 200 }), "HEAD"],
    ["an answer whose body it read first", () => json({ data: [1] }), "GET"],
  ] as const)(
    "that throws on %s is the caller's code too, and a body that fails after it is the server's",
    async (_case, answer, method) => {
      const thrown = new Error("audit log unavailable");
      const sdk = testSdk(scriptedFetch(answer).fetch);
      sdk.client.use({
        async onResponse({ response }) {
          if (response.body) await response.text();
          throw thrown;
        },
      });
      const failure = await untyped(sdk.client)
        [method]("/v1/accounts", {})
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        name: "CdasInvalidOptionsError",
        message: `${method} /v1/accounts: a middleware failed on the answer (it threw, or read the body without a clone) (audit log unavailable)`,
        cause: thrown,
      });
      // The same from a call's own middleware (openapi-fetch's `middleware` option).
      const perCall = testSdk(scriptedFetch(answer).fetch);
      const ownMiddleware = [{ onResponse: () => Promise.reject(thrown) }];
      const fromCall = await untyped(perCall.client)
        [method]("/v1/accounts", { middleware: ownMiddleware })
        .catch((error: unknown) => error);
      expect(fromCall).toMatchObject({ name: "CdasInvalidOptionsError", cause: thrown });
      // With a middleware that lets the answer through, a body that is not JSON is still the server's.
      const notJson = testSdk(scriptedFetch(() => new Response("{nope", { status: 200 })).fetch);
      notJson.client.use({ onResponse: ({ response }) => response });
      const invalid = await untyped(notJson.client)
        .GET("/v1/accounts", {})
        .catch((error: unknown) => error);
      expect(invalid).toMatchObject({ name: "CdasInvalidResponseError" });
    },
  );

  it("that reads the answer's body without a clone fails the call as the caller's code, not as the connection", async () => {
    const sdk = testSdk(scriptedFetch(() => json({ data: [1] })).fetch);
    sdk.client.use({
      async onResponse({ response }) {
        await response.text(); // logged, and the body gone
      },
    });
    const failure = await untyped(sdk.client)
      .GET("/v1/accounts", {})
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      name: "CdasInvalidOptionsError",
      message: expect.stringContaining(
        "a middleware failed on the answer (it threw, or read the body without a clone)",
      ),
    });
  });

  it("added while a call is in flight is not blamed for that call's failed body read", async () => {
    let reading!: () => void;
    const read = new Promise<void>((resolve) => {
      reading = resolve;
    });
    let body!: ReadableStreamDefaultController;
    const stalled = new ReadableStream(
      {
        start: (controller) => {
          body = controller;
        },
        pull: () => reading(), // the answer is being read: the call is under way
      },
      { highWaterMark: 0 },
    );
    const answer = () => new Response(stalled, { headers: { "content-type": "application/json" } });
    const sdk = testSdk(scriptedFetch(answer).fetch, { maxRetries: 0 });
    const call = untyped(sdk.client)
      .GET("/v1/accounts", {})
      .catch((error: unknown) => error);
    await read;
    sdk.client.use({ onResponse: ({ response }) => response });
    body.error(new TypeError("terminated"));
    expect(await call).toMatchObject({ name: "CdasConnectionError" });
  });

  it("that throws on the answer fails the call as the caller's code, not as the connection", async () => {
    const server = scriptedFetch(() => json({ data: [1] }));
    const thrown = new Error("audit log unavailable");
    const failure = await failureWith(testSdk(server.fetch), {
      onResponse() {
        throw thrown;
      },
    });
    expect(failure).toMatchObject({
      name: "CdasInvalidOptionsError",
      message:
        "GET /v1/accounts: a middleware failed on the answer (it threw, or read the body without a clone) (audit log unavailable)",
      cause: thrown,
    });
    expect(server.dataCalls()).toHaveLength(1);
  });
});
