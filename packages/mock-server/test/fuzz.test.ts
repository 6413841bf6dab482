/**
 * Thousands of malformed requests (bad types, unknown parameters, huge values, broken JSON, wrong
 * methods, missing parameters, bad version headers and tokens, unknown paths): every answer is a 4xx
 * that the bundle documents for the operation (or, for an unknown path or method, the form of the
 * nearest operation path, else the short shape).
 */
import { deref } from "@cdas/spec/openapi";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  assertDocumentedResponse,
  assertErrorOnPath,
  assertShortError,
  type Call,
  loadBundle,
  mainEndUsers,
  nearestOperationPath,
  operationsOf,
  Sandbox,
  VERSIONS,
  validRequests,
} from "./helpers.js";

const VERSION = "v2";

/*
 * The property sends its requests one after another, each a TLS round trip to the in-process sandbox
 * and a schema check: about 1.4 ms a run on an idle machine, 9 ms under `pnpm test` on 2 cores (every
 * package's suites at once), past 20 ms on a busier one, where 3000 runs outgrew the workspace's 60 s.
 * The runs keep their number and seed (the same requests every time, so no power is lost); the time
 * they may take is sized to them, and a request that hangs still fails within seconds, naming itself.
 */
const FUZZ_RUNS = 3000;
/** One request and its checks: thousands of times what one takes under load. */
const RUN_TIMEOUT_MS = 5_000;
/** All runs (and shrinking a failure): 40 ms a run, four times what `pnpm test` on 2 cores takes. */
const FUZZ_BUDGET_MS = FUZZ_RUNS * 40;
/** The property's budget and the checks around it, so that fast-check, not vitest, says what ran out. */
const FUZZ_TEST_TIMEOUT_MS = FUZZ_BUDGET_MS + 15_000;

let sandbox: Sandbox;
let person: string;
beforeAll(async () => {
  sandbox = await Sandbox.start({ defaultVersion: VERSION });
  person = (await mainEndUsers(sandbox)).person;
});
afterAll(() => sandbox.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are walked freely in these assertions
type Json = Record<string, any>;
const bundle = loadBundle(VERSION);
const operations = operationsOf(VERSION);

interface Param {
  name: string;
  in: string;
  required: boolean;
  schema: Json;
}
const paramsOf = (op: (typeof operations)[number]): Param[] =>
  ((op.operation.parameters ?? []) as Json[]).map((p) => {
    const resolved = deref<Json>(bundle, p);
    return { ...resolved, schema: deref<Json>(bundle, resolved.schema ?? {}) } as Param;
  });

interface Malformed {
  kind: string;
  method: string;
  path: string;
  /** The operation path template when the request targets a documented operation. */
  template?: string;
  rawBody?: string;
  headers?: Record<string, string>;
  token?: null | string;
  expectStatus?: number;
}

const base = (operationId: string): Call => validRequests(sandbox.server, operationId, person)[0]!;
const withQuery = (path: string, extra: string) => `${path}${path.includes("?") ? "&" : "?"}${extra}`;
const enc = encodeURIComponent;

// Values that are not of the parameter's type, per type.
const notInteger = fc.oneof(
  fc.constantFrom("abc", "1.5", "-", "1e", "NaN", "true", "0x10", "[]", "{}", "1,2", "Infinity"),
  fc
    .string({ minLength: 1 })
    .filter((s) => !/^\s*-?\d+(\.0*)?\s*$/.test(s) && !/^\s*-?\d*\.?\d+e[+-]?\d+\s*$/i.test(s)),
);
const notNumber = fc.oneof(
  fc.constantFrom("abc", "-", "NaN", "1,5", "[]", "true", "1e999x"),
  fc
    .string({ minLength: 1 })
    .filter((s) => Number.isNaN(Number(s)) && s.toLowerCase() !== "true" && s.toLowerCase() !== "false"),
);
const notDate = fc.oneof(
  fc.constantFrom("2025-13-01", "2025-02-30", "yesterday", "20250101", "2025-1-1", "2025-01-01T00:00:00Z"),
  fc.string({ minLength: 1 }).filter((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s)),
);

const typedParams = operations.flatMap((op) =>
  paramsOf(op)
    .filter(
      (p) =>
        p.in === "query" &&
        (p.schema.type === "integer" ||
          p.schema.type === "number" ||
          p.schema.enum ||
          p.schema.format === "date"),
    )
    .map((param) => ({ op, param })),
);

const badType = fc.constantFrom(...typedParams).chain(({ op, param }) => {
  const value = param.schema.enum
    ? fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !param.schema.enum.includes(s))
    : param.schema.type === "integer"
      ? notInteger
      : param.schema.type === "number"
        ? notNumber
        : notDate;
  return value.map(
    (v): Malformed => ({
      kind: "bad type",
      method: op.method,
      template: op.path,
      path: withQuery(base(op.operationId).path, `${enc(param.name)}=${enc(v)}`),
    }),
  );
});

const unknownParam = fc
  .tuple(fc.constantFrom(...operations), fc.stringMatching(/^[a-z_[\]]{1,20}$/), fc.string({ maxLength: 30 }))
  .filter(([op, name]) => !paramsOf(op).some((p) => p.name === name))
  .map(
    ([op, name, value]): Malformed => ({
      kind: "unknown parameter",
      method: op.method,
      template: op.path,
      path: withQuery(base(op.operationId).path, `${enc(name)}=${enc(value)}`),
      rawBody: op.method === "POST" ? JSON.stringify(base(op.operationId).body) : undefined,
      token: base(op.operationId).token,
    }),
  );

const sizedParams = typedParams.filter(
  ({ param }) => param.schema.type === "integer" || param.schema.type === "number",
);
function withinBounds(schema: Record<string, unknown>, value: number): boolean {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  return (minimum === undefined || value >= minimum) && (maximum === undefined || value <= maximum);
}

const hugeValue = fc
  .tuple(
    fc.constantFrom(...sizedParams.filter(({ param }) => param.schema.type === "integer")),
    fc.constantFrom("1e30", "99999999999999999999999", "-99999999999999999999", "1000001", "-1", "0"),
  )
  // A plain decimal inside the bundle's bounds is a valid value, not a malformed one.
  .filter(([{ param }, v]) => !/^-?\d{1,16}$/.test(v) || !withinBounds(param.schema, Number(v)))
  .map(
    ([{ op, param }, v]): Malformed => ({
      kind: "huge value",
      method: op.method,
      template: op.path,
      path: withQuery(base(op.operationId).path, `${enc(param.name)}=${v}`),
    }),
  );

const postOps = operations.filter((op) => op.method === "POST");
const brokenJson = fc
  .tuple(
    fc.constantFrom(...postOps),
    fc.oneof(
      fc.string().filter((s) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return true;
        }
      }),
      fc.constantFrom(
        "[]",
        "null",
        "42",
        '"text"',
        '{"client_id": 1, "client_secret": []}',
        '{"redirect_uri": {"a": 1}}',
        '{"end_user_id": null}',
        "{".repeat(5000),
      ),
    ),
  )
  .filter(([op, body]) => !(op.operationId === "createAuthSession" && body === "{}"))
  .map(
    ([op, body]): Malformed => ({
      kind: "broken body",
      method: "POST",
      template: op.path,
      path: op.path,
      rawBody: body,
      token: op.operationId === "createToken" ? null : undefined,
    }),
  );

const wrongMethod = fc
  .tuple(
    fc.constantFrom(...new Set(operations.map((op) => op.path))),
    fc.constantFrom("PUT", "DELETE", "PATCH", "OPTIONS", "POST", "GET"),
  )
  .filter(([path, method]) => !operations.some((op) => op.path === path && op.method === method))
  .map(
    ([path, method]): Malformed => ({
      kind: "wrong method",
      method,
      path: path.replace("{product_id}", "prd_cba_card"),
      expectStatus: 405,
    }),
  );

const missingRequired = fc
  .constantFrom(
    ...operations.flatMap((op) =>
      paramsOf(op)
        .filter((p) => p.in === "query" && p.required)
        .map((param) => ({ op, param })),
    ),
  )
  .map(({ op, param }): Malformed => {
    const url = new URL(base(op.operationId).path, "https://x");
    url.searchParams.delete(param.name);
    return {
      kind: "missing parameter",
      method: op.method,
      template: op.path,
      path: `${url.pathname}${url.search}`,
    };
  });

const badVersion = fc
  .tuple(
    fc.constantFrom(...operations.filter((op) => op.method === "GET")),
    fc.stringMatching(/^[ -~]{0,12}$/).filter((v) => !VERSIONS.includes(v.trim())),
  )
  .map(
    ([op, version]): Malformed => ({
      kind: "bad version header",
      method: op.method,
      template: op.path,
      path: base(op.operationId).path,
      headers: { "x-platform-version": version },
    }),
  );

const badToken = fc
  .tuple(
    fc.constantFrom(
      ...operations.filter((op) => op.method === "GET" && op.operationId !== "listInstitutions"),
    ),
    fc.stringMatching(/^[!-~]{0,40}$/),
  )
  .map(
    ([op, token]): Malformed => ({
      kind: "bad token",
      method: op.method,
      template: op.path,
      path: base(op.operationId).path,
      token: token.length ? token : "x",
      expectStatus: 401,
    }),
  );

const unknownPath = fc
  .array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,16}$/), { minLength: 1, maxLength: 4 })
  .map((segments) => `/v1/${segments.join("/")}`)
  .filter(
    (path) =>
      !operations.some((op) => new RegExp(`^${op.path.replace("{product_id}", "[^/]+")}$`).test(path)),
  )
  .map((path): Malformed => ({ kind: "unknown path", method: "GET", path, expectStatus: 404 }));

const badUrl = fc
  .tuple(
    fc.constantFrom(...operations.map((op) => op.path.replace("{product_id}", "x"))),
    fc.constantFrom("%", "%0", "%zz", "%E0%A4%A"),
  )
  .map(
    ([path, broken]): Malformed => ({
      kind: "bad url encoding",
      method: "GET",
      path: `${path}${broken}`,
      expectStatus: 400,
    }),
  );

const repeatedParam = fc
  .constantFrom(
    ...operations.flatMap((op) =>
      paramsOf(op)
        .filter((p) => p.in === "query")
        .map((param) => ({ op, param })),
    ),
  )
  .map(
    ({ op, param }): Malformed => ({
      kind: "repeated parameter",
      method: op.method,
      template: op.path,
      path: withQuery(withQuery(base(op.operationId).path, `${enc(param.name)}=1`), `${enc(param.name)}=2`),
    }),
  );

const malformed = fc.oneof(
  repeatedParam,
  badUrl,
  badType,
  unknownParam,
  hugeValue,
  brokenJson,
  wrongMethod,
  missingRequired,
  badVersion,
  badToken,
  unknownPath,
);

/**
 * An operation's error is one its bundle documents; an error of the HTTP layer (unknown path, wrong
 * method, unreadable path) takes the form of the nearest operation path, or the short shape near none.
 */
function assertErrorForm(request: Malformed, response: ApiResponse): void {
  if (request.template) {
    assertDocumentedResponse(VERSION, request.method, request.template, response);
    return;
  }
  const nearest = nearestOperationPath(VERSION, request.path.split("?")[0]!);
  if (nearest) assertErrorOnPath(VERSION, nearest, response);
  else assertShortError(response);
}

describe("fuzz: malformed requests", () => {
  it(
    "every answer is a documented 4xx, never a 5xx or a crash",
    async () => {
      const kinds = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(malformed, async (request) => {
          kinds.set(request.kind, (kinds.get(request.kind) ?? 0) + 1);
          const response = await sandbox.call(request.method, request.path, {
            rawBody: request.rawBody,
            headers:
              request.rawBody !== undefined
                ? { "content-type": "application/json", ...request.headers }
                : request.headers,
            token: request.token,
          });
          const context = `${request.kind}: ${request.method} ${request.path} -> ${response.status} ${response.text.slice(0, 200)}`;
          expect(response.status, context).toBeGreaterThanOrEqual(400);
          expect(response.status, context).toBeLessThan(500);
          if (request.expectStatus) expect(response.status, context).toBe(request.expectStatus);
          assertErrorForm(request, response);
        }),
        {
          numRuns: FUZZ_RUNS,
          seed: 20261122,
          plugins: [
            fc.interruptAfterTimeLimit(FUZZ_BUDGET_MS, { failOnInterrupt: true }),
            fc.timeout(RUN_TIMEOUT_MS),
          ],
        },
      );
      // Every kind of malformation was exercised.
      expect([...kinds.keys()].sort()).toEqual(
        [
          "bad token",
          "bad type",
          "bad url encoding",
          "bad version header",
          "broken body",
          "huge value",
          "missing parameter",
          "repeated parameter",
          "unknown parameter",
          "unknown path",
          "wrong method",
        ].sort(),
      );
      // The sandbox still answers normally afterwards.
      expect((await sandbox.get("/v1/end-users", VERSION)).status).toBe(200);
    },
    FUZZ_TEST_TIMEOUT_MS,
  );

  it("answers edge cases of framing and encoding with documented 4xx", async () => {
    const cases: Malformed[] = [
      {
        kind: "huge body",
        method: "POST",
        template: "/v1/token",
        path: "/v1/token",
        rawBody: `{"client_id":"${"x".repeat(2_000_000)}"}`,
        token: null,
      },
      {
        kind: "prototype key",
        method: "POST",
        template: "/v1/token",
        path: "/v1/token",
        rawBody: '{"client_id":"a","client_secret":"b","__proto__":{"x":1}}',
        token: null,
      },
      {
        kind: "prototype parameter",
        method: "GET",
        template: "/v1/accounts",
        path: `/v1/accounts?end_user_id=${person}&__proto__=1`,
      },
      { kind: "empty required", method: "GET", template: "/v1/accounts", path: "/v1/accounts?end_user_id=" },
      { kind: "no body", method: "POST", template: "/v1/auth/session", path: "/v1/auth/session" },
      {
        kind: "long path parameter",
        method: "GET",
        template: "/v1/banking/products/{product_id}",
        path: `/v1/banking/products/${"x".repeat(5000)}`,
      },
    ];
    for (const request of cases) {
      const response = await sandbox.call(request.method, request.path, {
        rawBody: request.rawBody,
        headers: request.rawBody !== undefined ? { "content-type": "application/json" } : undefined,
        token: request.token,
      });
      expect(response.status, request.kind).toBeGreaterThanOrEqual(400);
      expect(response.status, request.kind).toBeLessThan(500);
      assertErrorForm(request, response);
    }
  });
});
