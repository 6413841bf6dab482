/**
 * Checks of what @cdas/sdk publishes: publint, attw and both module formats (shared with the client
 * packages), then no Node built-in and the size of its own code.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  browserBundleGzipBytes,
  describePublishedPackage,
  ownCodeGzipBytes,
} from "@cdas/client-tooling/testing";
import { describe, expect, it } from "vitest";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
/**
 * Regression guard for the SDK's own code, minified and gzipped (dependencies excluded): about 11.3 KB
 * with the error class per kind, redirects, the streamed size limit, prefetch, connection causes named
 * on every runtime, the option checks, error bodies withheld when they hide the secret, strict HTTP
 * dates, typed errors on a body read as a stream, Bun's inflation and Deno's own-buffer reads, and
 * (the tenth session's red teams) the secret's base64 forms and JavaScript and HTML escapes, tokens
 * that spell it refused, pages remembered by digest, and more of the caller's odd values typed; then
 * (the twelfth session, 12.4 KB) Bun's codings undone by undici's rules, a walk's return() that does
 * not wait, one decoding budget per body, error bodies read only as far as they are kept, and a
 * custom fetch's answer examined whole; then (the nineteenth session's red team, 13.5 KB) calls kept
 * to baseUrl's origin, addresses holding the secret not followed, the SDK's error for an error
 * answer without a body, refusals of the caller's input redacted, and the middleware that tells a
 * middleware's failure from a body read's; then (the twenty-third session, 13.7 KB) the call an
 * invalid answer or a loop came from, and long API messages cut in messages; then (the twenty-fourth
 * session's hostile server and review, 14.3 KB) error bodies that are not a JSON object typed, HTTP
 * dates checked against the calendar, hosts cut from a secret not named, and everything a log line
 * shows of a caller's error read for the secret; the bench prints it.
 */
const OWN_CODE_GZIP_BUDGET_BYTES = 15 * 1024;

describePublishedPackage(packageDir, {
  // Both builds create an SDK; an error made by one copy is recognised by the other's guard.
  script: `
    const esm = await import("./dist/index.js");
    const cjs = (await import("node:module")).createRequire(import.meta.url)("./dist/index.cjs");
    const describe = (m) => {
      const sdk = m.createSdk({ version: "v2", baseUrl: "https://127.0.0.1", clientId: "id", clientSecret: "x" });
      const models = [m.V1, m.V2, m.V3].map((v) => v?.apiVersion);
      return { exports: Object.keys(m).sort(), client: typeof sdk.client.GET, paginate: typeof sdk.paginate, models };
    };
    const crossGuard = esm.isCdasApiError(new cjs.CdasApiError({ status: 400, method: "GET", url: "u", body: {} }));
    // A client of one copy (a CommonJS dependency made the SDK), apiErrorOf of the other (the app's ESM).
    const answers429 = async (request) =>
      new URL(request.url).pathname === "/v1/token"
        ? new Response('{"access_token":"t","expires_in":3600}', { headers: { "content-type": "application/json" } })
        : new Response('{"name":"rate_limited"}', { status: 429, headers: { "content-type": "application/json" } });
    const limited = cjs.createSdk({ version: "v2", baseUrl: "https://127.0.0.1", clientId: "id", clientSecret: "x", fetch: answers429, maxRetries: 0 });
    const crossApiErrorOf = esm.apiErrorOf(await limited.client.GET("/v1/end-users"))?.name;
    console.log(JSON.stringify({ esm: describe(esm), cjs: describe(cjs), crossGuard, crossApiErrorOf }));`,
  expectOutput: ({ esm, cjs, crossGuard, crossApiErrorOf }) => {
    expect(esm).toEqual({
      exports: [
        "CdasApiError",
        "CdasAuthenticationError",
        "CdasConnectionError",
        "CdasError",
        "CdasInvalidOptionsError",
        "CdasInvalidRequestError",
        "CdasInvalidResponseError",
        "CdasNotFoundError",
        "CdasPaginationLoopError",
        "CdasPermissionError",
        "CdasRateLimitError",
        "CdasServerError",
        "CdasTimeoutError",
        "DEFAULTS",
        "DEFAULT_MAX_RESPONSE_BYTES",
        // Each version's client package whole, as the declarations say (not type-only re-exports).
        "V1",
        "V2",
        "V3",
        "apiErrorOf",
        "createSdk",
        "isCdasApiError",
        "isCdasError",
        "isSdkVersion",
      ],
      client: "function",
      paginate: "function",
      models: ["v1", "v2", "v3"],
    });
    expect(cjs).toEqual(esm);
    expect(crossGuard).toBe(true);
    expect(crossApiErrorOf).toBe("CdasRateLimitError");
  },
});

describe("runs outside Node", () => {
  it("src imports no Node built-in", () => {
    const sources = readdirSync(join(packageDir, "src")).map((name) =>
      readFileSync(join(packageDir, "src", name), "utf8"),
    );
    const imported = sources.flatMap((source) =>
      [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1] as string),
    );
    expect(imported.length).toBeGreaterThan(0);
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    expect(imported.filter((specifier) => builtins.has(specifier) || specifier.startsWith("node:"))).toEqual(
      [],
    );
  });

  it("bundles for a browser; the SDK's own code stays within its size budget", async () => {
    const ownCode = await ownCodeGzipBytes(packageDir);
    const withDependencies = await browserBundleGzipBytes(packageDir);
    console.info(
      `@cdas/sdk min+gzip: own code ${ownCode} B, with openapi-fetch and the clients ${withDependencies} B`,
    );
    expect(ownCode).toBeLessThan(OWN_CODE_GZIP_BUDGET_BYTES);
    expect(withDependencies).toBeGreaterThan(ownCode);
  });
});
