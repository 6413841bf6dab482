// Runtime tests shared by the client packages: every operation of the bundle, sent to a loopback server.
import type { ClientOptions } from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Bundle,
  type BundleOperation,
  listOperations,
  type ParameterObject,
  readBundle,
  readClientConfig,
  resolveRef,
  type SchemaObject,
} from "../lib/bundle.mjs";
import { type RecordingServer, startRecordingServer } from "./loopback-server.js";
import { sampleMedia, sampleParameter } from "./sample-values.js";

type CallResult = { data?: unknown; error?: unknown; response: Response };
type CallMethod = (path: string, init: Record<string, unknown>) => Promise<CallResult>;

export interface ClientUnderTest {
  /** The client package's folder (holding redocly.yaml). */
  packageDir: string;
  createClient: (options: ClientOptions) => object;
  pagination: Record<string, { style: string; items: string }>;
}

/** Headers set once on the client; each request must carry them. */
const CLIENT_HEADERS = { Authorization: "Bearer test-access-token", "X-Request-Source": "client-tests" };
const PAGE_QUERY = "page[size]=100&page[after]=abc";

export function describeEveryOperation({ packageDir, createClient, pagination }: ClientUnderTest): void {
  const { version, bundlePath } = readClientConfig(packageDir);
  const bundle = readBundle(bundlePath);
  const operations = listOperations(bundle);
  let server: RecordingServer;
  let fetchCalls = 0;
  // A custom fetch, passed through createClient: counts calls and uses the real network stack.
  const countingFetch: typeof fetch = (input, init) => {
    fetchCalls += 1;
    return fetch(input, init);
  };
  const call = (method: string, path: string, init: Record<string, unknown>) => {
    const client = createClient({ baseUrl: server.baseUrl, headers: CLIENT_HEADERS, fetch: countingFetch });
    const send = (client as Record<string, CallMethod>)[method.toUpperCase()];
    if (!send) throw new Error(`client has no ${method.toUpperCase()} method`);
    return send(path, init);
  };

  beforeAll(async () => {
    server = await startRecordingServer();
  });
  afterAll(() => server.close());

  describe(`every operation of ${version} against a loopback server`, () => {
    it("the bundle declares every path of the interface", () => {
      expect(new Set(operations.map((operation) => operation.path)).size).toBeGreaterThanOrEqual(25);
    });

    it.each(named(operations))("%s", async (_, operation) => {
      const request = buildRequest(bundle, operation, version);
      const response = successResponse(bundle, operation);
      server.respondWith(response.canned);
      const before = { requests: server.requests.length, fetchCalls };

      const result = await call(operation.method, operation.path, request.init);

      expect(fetchCalls - before.fetchCalls).toBe(1);
      expect(server.requests.length - before.requests).toBe(1);
      const received = server.requests.at(-1)!;
      expect(received.method).toBe(operation.method.toUpperCase());
      expect(received.path).toBe(request.expectedPath);
      expect(received.rawQuery).toBe(request.expectedQuery);
      for (const [name, value] of Object.entries({ ...CLIENT_HEADERS, ...request.expectedHeaders })) {
        expect(received.headers[name.toLowerCase()], `header ${name}`).toBe(value);
      }
      if (request.expectedBody === undefined) {
        expect(received.body).toBe("");
      } else {
        expect(received.headers["content-type"]).toMatch(/^application\/json/);
        expect(JSON.parse(received.body)).toEqual(request.expectedBody);
      }
      expect(result.response.status).toBe(response.canned.status);
      expect(result.error).toBeUndefined();
      expect(result.data).toEqual(response.data);
    });

    const withError = operations.filter((operation) => errorResponse(bundle, operation) !== undefined);
    it.each(named(withError, "returns its documented error body as error"))("%s", async (_, operation) => {
      const request = buildRequest(bundle, operation, version);
      const documented = errorResponse(bundle, operation)!;
      server.respondWith(documented.canned);
      const result = await call(operation.method, operation.path, request.init);
      expect(result.response.status).toBe(documented.canned.status);
      expect(result.data).toBeUndefined();
      expect(result.error).toEqual(documented.body);
    });

    it("sends X-Platform-Version with the package's version unless the headers remove it", async () => {
      const operation = operations.find((candidate) => candidate.method === "get")!;
      const { init } = buildRequest(bundle, operation, version);
      const params = init.params as Record<string, unknown>;
      const withoutHeaderParams = { ...init, params: { ...params, header: {} } };
      server.respondWith(successResponse(bundle, operation).canned);

      await call(operation.method, operation.path, withoutHeaderParams);
      expect(server.requests.at(-1)!.headers["x-platform-version"]).toBe(version);

      const client = createClient({ baseUrl: server.baseUrl, headers: { "X-Platform-Version": null } });
      await (client as Record<string, CallMethod>).GET!(operation.path, withoutHeaderParams);
      expect(server.requests.at(-1)!.headers).not.toHaveProperty("x-platform-version");
    });

    it("passes the other openapi-fetch options through (querySerializer here)", async () => {
      const operation = operations.find((candidate) => candidate.method === "get")!;
      const { init } = buildRequest(bundle, operation, version);
      server.respondWith(successResponse(bundle, operation).canned);
      const client = createClient({ baseUrl: server.baseUrl, querySerializer: () => "serialized=by-caller" });
      await (client as Record<string, CallMethod>).GET!(operation.path, init);
      expect(server.requests.at(-1)!.rawQuery).toBe("serialized=by-caller");
    });

    const cursorPaged = operations.filter((operation) => hasQuery(operation, "page[size]", "page[after]"));
    it.each(named(cursorPaged, `sends cursor paging as ${PAGE_QUERY}`))("%s", async (_, operation) => {
      const required = requiredQuery(bundle, operation, version);
      server.respondWith(successResponse(bundle, operation).canned);
      await call(operation.method, operation.path, {
        params: {
          path: pathParameters(bundle, operation, version),
          query: { ...required, "page[size]": 100, "page[after]": "abc" },
        },
      });
      const expected = [serializeQuery(required), PAGE_QUERY].filter(Boolean).join("&");
      expect(server.requests.at(-1)!.rawQuery).toBe(expected);
    });

    const offsetPaged = operations.filter((operation) => hasQuery(operation, "limit", "offset"));
    it.each(named(offsetPaged, "sends offset paging as limit=100&offset=200"))("%s", async (_, operation) => {
      const required = requiredQuery(bundle, operation, version);
      server.respondWith(successResponse(bundle, operation).canned);
      await call(operation.method, operation.path, {
        params: { query: { ...required, limit: 100, offset: 200 } },
      });
      const expected = [serializeQuery(required), "limit=100&offset=200"].filter(Boolean).join("&");
      expect(server.requests.at(-1)!.rawQuery).toBe(expected);
    });

    it("pagination holds exactly the GET operations that declare x-cdas-pagination", () => {
      const declared = Object.fromEntries(
        operations
          .filter((operation) => operation.method === "get" && operation.operation["x-cdas-pagination"])
          .map((operation) => [operation.path, operation.operation["x-cdas-pagination"]]),
      );
      expect(Object.keys(declared).length).toBeGreaterThan(0);
      expect(pagination).toEqual(declared);
    });
  });
}

/** Test cases titled `GET /v1/accounts (listAccounts)`, followed by what the test checks. */
function named(operations: BundleOperation[], check = ""): [string, BundleOperation][] {
  return operations.map((operation) => [
    `${operation.method.toUpperCase()} ${operation.path} (${operation.operationId}) ${check}`.trim(),
    operation,
  ]);
}

interface BuiltRequest {
  init: Record<string, unknown>;
  expectedPath: string;
  expectedQuery: string;
  expectedHeaders: Record<string, string>;
  expectedBody?: unknown;
}

/** Every parameter of the operation (required or not) with a realistic value, and a body when it takes one. */
function buildRequest(bundle: Bundle, operation: BundleOperation, version: string): BuiltRequest {
  const values = (location: ParameterObject["in"]) =>
    Object.fromEntries(
      operation.parameters
        .filter((parameter) => parameter.in === location)
        .map((parameter) => [parameter.name, parameterValue(bundle, parameter, version)]),
    );
  const path = values("path");
  const query = values("query");
  const header = values("header");
  const init: Record<string, unknown> = { params: { path, query, header } };
  let expectedBody: unknown;
  const requestBody = resolveRef<SchemaObject | undefined>(bundle, operation.operation.requestBody);
  if (requestBody) {
    const media = jsonMedia(requestBody.content);
    if (!media) throw new Error(`${operation.operationId}: request body without a JSON media type`);
    expectedBody = sampleMedia(bundle, media);
    init.body = expectedBody;
  }
  return {
    init,
    expectedPath: operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(path[name])),
    ),
    expectedQuery: serializeQuery(query),
    expectedHeaders: Object.fromEntries(Object.entries(header).map(([name, value]) => [name, String(value)])),
    expectedBody,
  };
}

/** The version header carries the package's own version; every other parameter its sample. */
function parameterValue(bundle: Bundle, parameter: ParameterObject, version: string): unknown {
  if (parameter.in === "header" && parameter.name.toLowerCase() === "x-platform-version") return version;
  return sampleParameter(bundle, parameter);
}

function requiredQuery(bundle: Bundle, operation: BundleOperation, version: string): Record<string, unknown> {
  return Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === "query" && parameter.required)
      .map((parameter) => [parameter.name, parameterValue(bundle, parameter, version)]),
  );
}

function pathParameters(bundle: Bundle, operation: BundleOperation, version: string) {
  return Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === "path")
      .map((parameter) => [parameter.name, parameterValue(bundle, parameter, version)]),
  );
}

function hasQuery(operation: BundleOperation, ...names: string[]): boolean {
  return names.every((name) => operation.parameters.some((p) => p.in === "query" && p.name === name));
}

/** What the interface expects on the wire: `name=value` pairs, arrays exploded, names left as written. */
function serializeQuery(query: Record<string, unknown>): string {
  return Object.entries(query)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item) => [name, item] as const))
    .map(([name, item]) => `${name}=${encodeURIComponent(String(item))}`)
    .join("&");
}

/** The operation's first 2xx response, as the server will send it and as the client must parse it. */
function successResponse(bundle: Bundle, operation: BundleOperation) {
  const responses = (operation.operation.responses ?? {}) as Record<string, unknown>;
  const status = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort()[0];
  if (!status) throw new Error(`${operation.operationId}: no 2xx response`);
  const media = jsonMedia(resolveRef<SchemaObject>(bundle, responses[status]).content);
  if (!media) return { canned: { status: Number(status) }, data: undefined };
  const data = sampleMedia(bundle, media);
  return {
    canned: { status: Number(status), contentType: "application/json", body: JSON.stringify(data) },
    data,
  };
}

/** The operation's first documented 4xx or 5xx response with a body, sent with its own media type. */
function errorResponse(bundle: Bundle, operation: BundleOperation) {
  const responses = (operation.operation.responses ?? {}) as Record<string, unknown>;
  for (const status of Object.keys(responses)
    .filter((code) => /^[45]\d\d$/.test(code))
    .sort()) {
    const content = (resolveRef<SchemaObject>(bundle, responses[status]).content ?? {}) as Record<
      string,
      SchemaObject
    >;
    const [mediaType, media] = Object.entries(content)[0] ?? [];
    if (!mediaType || !media) continue;
    const body = sampleMedia(bundle, media);
    return { canned: { status: Number(status), contentType: mediaType, body: JSON.stringify(body) }, body };
  }
  return undefined;
}

function jsonMedia(content: unknown): SchemaObject | undefined {
  const entries = Object.entries((content ?? {}) as Record<string, SchemaObject>);
  return entries.find(([type]) => /^application\/(.+\+)?json/.test(type))?.[1];
}
