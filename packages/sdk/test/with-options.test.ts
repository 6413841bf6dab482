/** `sdk.withOptions(...)`: the same SDK with other limits for its calls, sharing the token and the middleware. */
import { describe, expect, it } from "vitest";
import { CdasInvalidOptionsError } from "../src/errors.js";
import { json, scriptedFetch, testSdk, untyped } from "./helpers.js";

const hangs = () => new Promise<Response>(() => {});

describe("withOptions", () => {
  it("bounds the calls of the SDK it returns by its timeoutMs, and leaves the first SDK's alone", async () => {
    // Answers after 60 ms: within the first SDK's 5 s, past the other's 20 ms.
    const server = scriptedFetch(
      () => new Promise<Response>((resolve) => setTimeout(() => resolve(json({ data: [] })), 60)),
    );
    const sdk = testSdk(server.fetch, { timeoutMs: 5_000 });
    const quick = sdk.withOptions({ timeoutMs: 20, maxRetries: 0 });
    const failure = await untyped(quick.client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: "CdasTimeoutError" });
    expect((failure as Error).message).toBe("GET /v1/accounts timed out after 20 ms (its body included)");
    const { data } = await untyped(sdk.client).GET("/v1/accounts", {});
    expect(data).toEqual({ data: [] });
  });

  it("retries as its maxRetries says, keeping the rest of the first SDK's policy", async () => {
    const server = scriptedFetch(() => json({}, { status: 503 }));
    const sdk = testSdk(server.fetch, { maxRetries: 2 });
    const { error, response } = await untyped(sdk.withOptions({ maxRetries: 0 }).client).GET(
      "/v1/accounts",
      {},
    );
    expect(response.status).toBe(503);
    expect(error).toEqual({});
    expect(server.dataCalls()).toHaveLength(1);
    await untyped(sdk.client).GET("/v1/accounts", {});
    expect(server.dataCalls()).toHaveLength(4); // the first SDK's three attempts
  });

  it("bounds paginate's pages too, by its maxResponseBytes", async () => {
    const server = scriptedFetch(() => json({ data: ["x".repeat(2_000)], links: {} }));
    const sdk = testSdk(server.fetch);
    const walk = sdk.withOptions({ maxResponseBytes: 1_000 }).paginate("/v1/accounts", {});
    await expect(walk.toArray()).rejects.toThrow(
      "GET /v1/accounts answered a body larger than maxResponseBytes (1000 bytes once decoded)",
    );
    expect(await sdk.paginate("/v1/accounts", {}).toArray()).toEqual(["x".repeat(2_000)]);
  });

  it("shares the token and the middleware of the SDK it comes from", async () => {
    const server = scriptedFetch(() => json({ data: [] }));
    const sdk = testSdk(server.fetch);
    const seen: string[] = [];
    sdk.client.use({ onRequest: ({ request }) => void seen.push(new URL(request.url).pathname) });
    const derived = sdk.withOptions({ timeoutMs: 1_000 }).withOptions({ maxRetries: 0 });
    await untyped(sdk.client).GET("/v1/accounts", {});
    await untyped(derived.client).GET("/v1/institutions", {});
    expect(server.tokenCalls()).toHaveLength(1);
    expect(server.dataCalls().map((call) => call.headers.get("authorization"))).toEqual([
      "Bearer tok_1",
      "Bearer tok_1",
    ]);
    expect(seen).toEqual(["/v1/accounts", "/v1/institutions"]);
    expect({ version: derived.version, baseUrl: derived.baseUrl, clientId: derived.clientId }).toEqual({
      version: sdk.version,
      baseUrl: sdk.baseUrl,
      clientId: sdk.clientId,
    });
  });

  it("takes the limits it does not set from the SDK it is called on, not from createSdk", async () => {
    const server = scriptedFetch(hangs);
    const sdk = testSdk(server.fetch).withOptions({ timeoutMs: 20 });
    const failure = await untyped(sdk.withOptions({ maxRetries: 0 }).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect((failure as Error).message).toBe("GET /v1/accounts timed out after 20 ms (its body included)");
    expect(server.dataCalls()).toHaveLength(1);
  });

  it.each([
    [
      { timeOutMs: 5 },
      "withOptions has no option timeOutMs (its options: timeoutMs, maxResponseBytes, maxRetries, retryBaseDelayMs, maxRetryDelayMs)",
    ],
    [{ clientSecret: "other" }, "withOptions has no option clientSecret"],
    [{ maxRetries: 1.5 }, "maxRetries must be a whole number (got 1.5)"],
    [{ timeoutMs: 0 }, "timeoutMs must be a positive, finite number (got 0)"],
    [null, "withOptions needs an options object"],
    [[], "withOptions needs an options object"],
  ])("refuses %j, naming what is wrong", (options, message) => {
    const sdk = testSdk(scriptedFetch(() => json({})).fetch);
    const derive = () => sdk.withOptions(options as never);
    expect(derive).toThrow(CdasInvalidOptionsError);
    expect(derive).toThrow(message);
  });
});
