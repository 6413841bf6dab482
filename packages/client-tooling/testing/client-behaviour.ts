// Runtime tests of what a client package adds to openapi-fetch, against a loopback server: the version
// header, options passed through, the pagination table and the generated files. How openapi-fetch
// serialises paths, queries and bodies is openapi-fetch's own concern and is not re-tested here.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientOptions } from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations, readBundle, readClientConfig } from "../lib/bundle.mjs";
import { type RecordingServer, startRecordingServer } from "./loopback-server.js";

type CallResult = { data?: unknown; error?: unknown; response: Response };
type Get = (path: string, init?: Record<string, unknown>) => Promise<CallResult>;

export interface ClientUnderTest {
  /** The client package's folder (holding redocly.yaml). */
  packageDir: string;
  createClient: (options: ClientOptions) => object;
  pagination: Record<string, { style: string; items: string }>;
}

/** A GET with no required parameter, so a bare call is a valid request in every version. */
const PLAIN_GET = "/v1/end-users";

export function describeClient({ packageDir, createClient, pagination }: ClientUnderTest): void {
  const { version, bundlePath, generatedDir } = readClientConfig(packageDir);
  let server: RecordingServer;
  const get = (options: ClientOptions = {}, init?: Record<string, unknown>) => {
    const client = createClient({ baseUrl: server.baseUrl, ...options }) as { GET: Get };
    return client.GET(PLAIN_GET, init);
  };
  const lastHeaders = () => server.requests.at(-1)!.headers;

  beforeAll(async () => {
    server = await startRecordingServer();
    server.respondWith({ status: 200, contentType: "application/json", body: "[]" });
  });
  afterAll(() => server.close());

  describe(`the ${version} client`, () => {
    it(`sends X-Platform-Version: ${version} on every request, unasked`, async () => {
      await get();
      expect(lastHeaders()["x-platform-version"]).toBe(version);
    });

    it("refuses, before sending, a call whose headers set another version (its answer would not be of the types)", async () => {
      const before = server.requests.length;
      const refusal = `GET ${PLAIN_GET}: X-Platform-Version must be ${version}, the version this client's types describe (got "v0-test"); for another version, use that version's client`;
      await expect(get({ headers: { "X-Platform-Version": "v0-test" } })).rejects.toThrow(refusal);
      // A call's own headers too.
      await expect(get({}, { headers: { "X-Platform-Version": "v0-test" } })).rejects.toThrow(refusal);
      expect(server.requests.length).toBe(before);
      // Its own version, in any case, is sent as it is.
      await get({ headers: { "x-platform-version": version } });
      expect(lastHeaders()["x-platform-version"]).toBe(version);
    });

    it("lets a request without the header through: one removed with null, or a middleware's own request", async () => {
      await get({ headers: { "x-platform-version": null } });
      expect(lastHeaders()).not.toHaveProperty("x-platform-version");
      const client = createClient({ baseUrl: server.baseUrl }) as { GET: Get; use: (m: object) => void };
      let tokenStatus = 0;
      client.use({
        async onRequest({ request, options }: { request: Request; options: { fetch: typeof fetch } }) {
          const token = await options.fetch(new Request(`${server.baseUrl}/v1/token`, { method: "POST" }));
          tokenStatus = token.status;
          request.headers.set("authorization", "Bearer from-middleware");
        },
      });
      const { response } = await client.GET(PLAIN_GET);
      expect(tokenStatus).toBe(200);
      expect(response.status).toBe(200);
      expect(server.requests.at(-2)).toMatchObject({ path: "/v1/token" });
      expect(server.requests.at(-2)?.headers).not.toHaveProperty("x-platform-version");
      expect(lastHeaders()).toMatchObject({
        authorization: "Bearer from-middleware",
        "x-platform-version": version,
      });
    });

    it("sends the interface's accept on every request and labels a JSON body with its charset", async () => {
      await get();
      expect(lastHeaders()).toMatchObject({ accept: "application/json; charset=UTF-8" });
      expect(lastHeaders()).not.toHaveProperty("content-type");
      const client = createClient({ baseUrl: server.baseUrl }) as {
        POST: (path: string, init: Record<string, unknown>) => Promise<CallResult>;
      };
      await client.POST("/v1/token", { body: { client_id: "id", client_secret: "secret" } });
      expect(lastHeaders()).toMatchObject({
        accept: "application/json; charset=UTF-8",
        "content-type": "application/json; charset=UTF-8",
      });
      await get({ headers: { Accept: "application/json" } });
      expect(lastHeaders()).toMatchObject({ accept: "application/json" });
    });

    it("passes the other openapi-fetch options through: headers, fetch, querySerializer", async () => {
      let fetchCalls = 0;
      const countingFetch: typeof fetch = (input, init) => {
        fetchCalls += 1;
        return fetch(input, init);
      };
      const before = server.requests.length;
      const { response } = await get(
        {
          headers: { Authorization: "Bearer test" },
          fetch: countingFetch,
          querySerializer: () => "by=caller",
        },
        { params: { query: { ignored: "x" } } },
      );
      expect(response.status).toBe(200);
      expect(fetchCalls).toBe(1);
      expect(server.requests.length - before).toBe(1);
      expect(server.requests.at(-1)).toMatchObject({ path: PLAIN_GET, rawQuery: "by=caller" });
      expect(lastHeaders()).toMatchObject({ authorization: "Bearer test", "x-platform-version": version });
    });

    it("pagination holds exactly the GET operations that declare x-cdas-pagination", () => {
      const declared = Object.fromEntries(
        listOperations(readBundle(bundlePath))
          .filter((operation) => operation.method === "get" && operation.operation["x-cdas-pagination"])
          .map((operation) => [operation.path, operation.operation["x-cdas-pagination"]]),
      );
      expect(Object.keys(declared).length).toBeGreaterThan(0);
      expect(pagination).toEqual(declared);
    });

    it("every generated file says so in its first line", () => {
      const files = readdirSync(generatedDir).filter((name) => name.endsWith(".ts"));
      expect(files.sort()).toEqual(["api-version.ts", "pagination.ts", "schema.ts"]);
      for (const name of files) {
        const firstLine = readFileSync(join(generatedDir, name), "utf8").split("\n", 1)[0];
        expect(firstLine, name).toMatch(/^\/\/ Generated by cdas-generate-client .*do not edit/);
      }
    });
  });
}
