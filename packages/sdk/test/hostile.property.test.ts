/** Property tests: a hostile server never makes the SDK hang, throw untyped errors or leak the secret. */
import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCdasError } from "../src/errors.js";
import { json, type RecordedRequest, SECRET_MARK, scriptedFetch, testSdk } from "./helpers.js";

const LIST_PATHS = {
  "/v1/accounts": "data",
  "/v1/banking/accounts": "accounts",
  "/v1/institutions": "",
  "/v1/end-users": "end_users",
} as const;
type ListPath = keyof typeof LIST_PATHS;

const mediaType = fc.constantFrom(
  "application/json",
  "application/json; charset=UTF-8",
  "application/vnd.goa.error",
  "text/html",
  "application/octet-stream",
);
const errorStatus = fc.constantFrom(400, 401, 403, 404, 409, 418, 429, 500, 501, 502, 503, 504, 599);
const retryAfter = fc.option(fc.constantFrom("0", "1", "abc", "Wed, 21 Oct 2015 07:28:00 GMT", "-5"), {
  nil: undefined,
});

const failureAnswer = fc.oneof(
  fc.record({
    kind: fc.constant("error" as const),
    status: errorStatus,
    body: fc.constantFrom("short", "extended", "text", "empty", "truncated", "echo"),
    temporary: fc.boolean(),
    mediaType,
    retryAfter,
  }),
  fc.record({
    kind: fc.constant("garbage" as const),
    body: fc.constantFrom("text", "truncated", "empty", "null"),
  }),
  fc.constantFrom({ kind: "hang" as const }, { kind: "stall" as const }, { kind: "network" as const }),
);

const pageAnswer = fc.record({
  kind: fc.constant("page" as const),
  status: fc.constantFrom(200, 201, 203),
  count: fc.integer({ min: 0, max: 4 }),
  link: fc.constantFrom("new", "new", "repeat", "first", "foreign", "otherPath", "none", "number", "query"),
  mediaType,
});

const tokenAnswer = fc.oneof(
  fc.record({
    kind: fc.constant("token" as const),
    form: fc.constantFrom("access", "short", "empty", "missing-expiry"),
    expiresIn: fc.integer({ min: 0, max: 4000 }),
  }),
  failureAnswer,
);

type Failure = typeof failureAnswer extends fc.Arbitrary<infer T> ? T : never;
type PageAnswer = typeof pageAnswer extends fc.Arbitrary<infer T> ? T : never;
type TokenAnswer = typeof tokenAnswer extends fc.Arbitrary<infer T> ? T : never;

/** The token request body the server saw (holds the secret): a hostile server echoes it back. */
let echoed = "";

function failureResponse(answer: Failure): Response | Promise<Response> {
  switch (answer.kind) {
    case "hang":
      return new Promise<Response>(() => {});
    case "network":
      throw new TypeError(`connection reset after ${echoed}`);
    case "stall":
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data": [1,'));
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    case "garbage": {
      const text = { text: `<html>${echoed}</html>`, truncated: '{"data": [1, 2', empty: "", null: "null" }[
        answer.body
      ];
      return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
    }
    case "error": {
      const fields = { id: "err_1", name: "bad_request", message: `failed for ${echoed}` };
      const extended = { ...fields, fault: true, temporary: answer.temporary, timeout: false };
      const text = {
        short: JSON.stringify(fields),
        extended: JSON.stringify(extended),
        text: `Service Unavailable ${echoed}`,
        empty: "",
        truncated: JSON.stringify(extended).slice(0, 20),
        echo: JSON.stringify({ ...extended, request: echoed }),
      }[answer.body];
      const headers: Record<string, string> = { "content-type": answer.mediaType };
      if (answer.retryAfter !== undefined) headers["retry-after"] = answer.retryAfter;
      return new Response(text, { status: answer.status, headers });
    }
  }
}

function tokenResponse(answer: TokenAnswer, request: RecordedRequest): Response | Promise<Response> {
  echoed = request.body;
  if (answer.kind !== "token") return failureResponse(answer);
  const body = {
    access: { access_token: `tok_${answer.expiresIn}`, token_type: "Bearer", expires_in: answer.expiresIn },
    short: { token: `tok_${answer.expiresIn}`, expires_in: answer.expiresIn },
    empty: { token: "", expires_in: answer.expiresIn },
    "missing-expiry": { token: "tok" },
  }[answer.form];
  return json(body);
}

function pageResponse(answer: PageAnswer, path: ListPath, request: RecordedRequest, page: number) {
  const items = Array.from({ length: answer.count }, (_, i) => page * 10 + i);
  const key = LIST_PATHS[path];
  const cursor = request.url.searchParams.get("page[after]") ?? "start";
  const next = {
    new: `${path}?page[after]=p${page + 1}&offset=${page + 1}`,
    repeat: `${path}?page[after]=${cursor}&offset=${page}`,
    first: `${path}`,
    foreign: `https://evil.test${path}?page[after]=p${page + 1}`,
    otherPath: "/v1/somewhere-else?page[after]=x",
    none: undefined,
    number: 7,
    query: `?page[after]=q${page + 1}`,
  }[answer.link];
  const body = key === "" ? items : { [key]: items, links: next === undefined ? {} : { next } };
  return new Response(JSON.stringify(body), {
    status: answer.status,
    headers: { "content-type": answer.mediaType },
  });
}

const scenario = fc.record({
  path: fc.constantFrom(...(Object.keys(LIST_PATHS) as ListPath[])),
  tokens: fc.array(tokenAnswer, { minLength: 1, maxLength: 4 }),
  pages: fc.array(fc.oneof({ weight: 3, arbitrary: pageAnswer }, { weight: 2, arbitrary: failureAnswer }), {
    maxLength: 10,
  }),
  concurrent: fc.integer({ min: 1, max: 3 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function hostileServer({ path, tokens, pages }: Scenario) {
  const tokenScript = [...tokens];
  const pageScript = [...pages];
  let page = 0;
  return scriptedFetch(
    (request) => {
      const answer = pageScript.shift();
      page++;
      if (answer === undefined) return pageResponse({ ...finalPage }, path, request, page);
      return answer.kind === "page" ? pageResponse(answer, path, request, page) : failureResponse(answer);
    },
    (request) =>
      tokenResponse(tokenScript.shift() ?? { kind: "token", form: "access", expiresIn: 3600 }, request),
  );
}
const finalPage: PageAnswer = {
  kind: "page",
  status: 200,
  count: 1,
  link: "none",
  mediaType: "application/json",
};

const leaks = (value: unknown) =>
  inspect(value, { depth: 20, showHidden: true }).includes(SECRET_MARK) ||
  (JSON.stringify(value) ?? "").includes(SECRET_MARK);

/** Fails (instead of hanging the suite) if a run does not settle. */
function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the run did not settle: hang")), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

describe("hostile server", () => {
  it("every pagination ends in items or a typed error, and the secret never leaks", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (run) => {
        echoed = "";
        const server = hostileServer(run);
        const sdk = testSdk(server.fetch, {
          timeoutMs: 15,
          maxRetries: 2,
          retryBaseDelayMs: 1,
          maxRetryDelayMs: 3,
        });
        const outcomes = await settleWithin(
          Promise.all(
            Array.from({ length: run.concurrent }, () =>
              sdk
                .paginate(run.path, {}, { maxPages: 50 })
                .toArray()
                .then(
                  (items) => ({ items }),
                  (error: unknown) => ({ error }),
                ),
            ),
          ),
          10_000,
        );
        for (const outcome of outcomes) {
          if ("error" in outcome) {
            expect(isCdasError(outcome.error), inspect(outcome.error)).toBe(true);
          } else {
            expect(Array.isArray(outcome.items)).toBe(true);
            expect(outcome.items.every((item) => typeof item === "number")).toBe(true);
          }
          expect(leaks(outcome)).toBe(false);
        }
        expect(leaks(sdk)).toBe(false);
      }),
      { numRuns: 250 },
    );
  });

  it("a walk that succeeds yields exactly the items served, in order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom("/v1/accounts", "/v1/banking/accounts"),
        async (sizes, path) => {
          const key = path === "/v1/accounts" ? "data" : "accounts";
          let served: number[] = [];
          const server = scriptedFetch((request) => {
            const page = Number(request.url.searchParams.get("page[after]") ?? 0);
            const items = Array.from({ length: sizes[page] ?? 0 }, (_, i) => page * 100 + i);
            served = served.concat(items);
            const next = page + 1 < sizes.length ? `${path}?page[after]=${page + 1}` : undefined;
            return json({ [key]: items, links: next ? { next } : {} });
          });
          const items = await testSdk(server.fetch).paginate(path).toArray();
          expect(items).toEqual(served);
          const firstEmpty = sizes.indexOf(0);
          expect(server.dataCalls()).toHaveLength(firstEmpty === -1 ? sizes.length : firstEmpty + 1);
        },
      ),
      { numRuns: 200 },
    );
  });
});
