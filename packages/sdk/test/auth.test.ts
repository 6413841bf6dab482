import { afterEach, describe, expect, it, vi } from "vitest";
import { isCdasApiError } from "../src/errors.js";
import {
  CLIENT_ID,
  json,
  SECRET,
  SECRET_MARK,
  scriptedFetch,
  testSdk,
  tokenResponse,
  untyped,
} from "./helpers.js";

const ok = () => json({ data: [] });

afterEach(() => {
  vi.useRealTimers();
});

describe("token exchange", () => {
  it("posts the credentials as JSON without a bearer and uses the token on data calls", async () => {
    const server = scriptedFetch(ok);
    const sdk = testSdk(server.fetch);
    const { data } = await untyped(sdk.client).GET("/v1/accounts", {
      params: { query: { end_user_id: "eu_1" } },
    });
    expect(data).toEqual({ data: [] });
    const [token] = server.tokenCalls();
    expect(token?.method).toBe("POST");
    expect(JSON.parse(token?.body ?? "")).toEqual({ client_id: CLIENT_ID, client_secret: SECRET });
    expect(token?.headers.get("authorization")).toBeNull();
    expect(token?.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(server.dataCalls()[0]?.headers.get("authorization")).toBe("Bearer tok_1");
  });

  it("leaves the token answer and 2xx data intact, however short the secret", async () => {
    const server = scriptedFetch(() => json({ data: [{ status: "POSTED" }] }));
    const { data } = await untyped(testSdk(server.fetch, { clientSecret: "s" }).client).GET(
      "/v1/accounts",
      {},
    );
    expect(data).toEqual({ data: [{ status: "POSTED" }] });
    expect(server.dataCalls()[0]?.headers.get("authorization")).toBe("Bearer tok_1");
  });

  it.each([
    ["the secret itself", (secret: string) => secret],
    ["the secret inside", (secret: string) => `at_${secret}_x`],
    ["the secret in capitals", (secret: string) => secret.toUpperCase()],
    [
      "a JWT whose claims hold the secret",
      (secret: string) =>
        `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ client_secret: secret })).toString("base64url")}.c2ln`,
    ],
  ])(
    "refuses a token that spells the secret (%s): it would go out with every call",
    async (_kind, tokenOf) => {
      const secret = "sk_live_4be27a1a944652f4";
      const server = scriptedFetch(ok, () => tokenResponse(tokenOf(secret)));
      const failure = await untyped(testSdk(server.fetch, { clientSecret: secret }).client)
        .GET("/v1/accounts", {})
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        name: "CdasInvalidResponseError",
        message: "POST /v1/token answered a token that holds the client secret; it is not used",
      });
      expect(server.dataCalls()).toHaveLength(0);
    },
  );

  it("accepts the {token, expires_in} form", async () => {
    const server = scriptedFetch(ok, () => json({ token: "short_form", expires_in: 900 }));
    await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {});
    expect(server.dataCalls()[0]?.headers.get("authorization")).toBe("Bearer short_form");
  });

  it.each(["", "  ", "0x10", "1e3", "-5", "15.5", null])(
    "rejects a token answer whose expires_in is %j (a whole number, or one written in digits)",
    async (expiresIn) => {
      const server = scriptedFetch(ok, () => json({ access_token: "tok", expires_in: expiresIn }));
      await expect(untyped(testSdk(server.fetch).client).GET("/v1/accounts", {})).rejects.toMatchObject({
        code: "invalid_response",
      });
    },
  );

  it("accepts expires_in written as a string of digits", async () => {
    const server = scriptedFetch(ok, () => json({ access_token: "tok_digits", expires_in: "900" }));
    await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {});
    expect(server.dataCalls()[0]?.headers.get("authorization")).toBe("Bearer tok_digits");
  });

  it("rejects a token answer without a token", async () => {
    const server = scriptedFetch(ok, () => json({ expires_in: 900 }));
    await expect(untyped(testSdk(server.fetch).client).GET("/v1/accounts", {})).rejects.toMatchObject({
      code: "invalid_response",
    });
  });

  it("makes one token request for a thousand concurrent first calls", async () => {
    const server = scriptedFetch(ok, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return tokenResponse("shared");
    });
    const client = untyped(testSdk(server.fetch).client);
    const results = await Promise.all(Array.from({ length: 1000 }, () => client.GET("/v1/accounts", {})));
    expect(results.every((result) => result.response.status === 200)).toBe(true);
    expect(server.tokenCalls()).toHaveLength(1);
    expect(new Set(server.dataCalls().map((call) => call.headers.get("authorization")))).toEqual(
      new Set(["Bearer shared"]),
    );
  });

  it("starts no token request for a call whose signal has already aborted", async () => {
    // The token request nobody waited for failed unhandled and ended the process (Node, Deno).
    const server = scriptedFetch(ok, () => json({ name: "unauthorized" }, { status: 401 }));
    const reason = new Error("the caller gave up");
    const client = untyped(testSdk(server.fetch).client);
    await expect(client.GET("/v1/accounts", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    await expect(
      testSdk(server.fetch)
        .paginate("/v1/accounts", { signal: AbortSignal.abort(reason) })
        .toArray(),
    ).rejects.toBe(reason);
    expect(server.calls).toEqual([]);
  });

  it("renews shortly before expiry (expiry mid-run)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const server = scriptedFetch(
      ok,
      (() => {
        let n = 0;
        return () => tokenResponse(`tok_${++n}`, 900);
      })(),
    );
    const client = untyped(testSdk(server.fetch).client);
    await client.GET("/v1/accounts", {});
    vi.setSystemTime(Date.now() + 800_000);
    await client.GET("/v1/accounts", {});
    expect(server.tokenCalls()).toHaveLength(1);
    vi.setSystemTime(Date.now() + 50_000); // 850 s after issue: inside the renewal margin
    await client.GET("/v1/accounts", {});
    expect(server.tokenCalls()).toHaveLength(2);
    expect(server.dataCalls().map((call) => call.headers.get("authorization"))).toEqual([
      "Bearer tok_1",
      "Bearer tok_1",
      "Bearer tok_2",
    ]);
  });

  it("drops the token on a 401, renews once and retries once", async () => {
    let failures = 1;
    const server = scriptedFetch(() =>
      failures-- > 0 ? json({ name: "unauthorized" }, { status: 401 }) : ok(),
    );
    const { data } = await untyped(testSdk(server.fetch).client).GET("/v1/accounts", {});
    expect(data).toEqual({ data: [] });
    expect(server.tokenCalls()).toHaveLength(2);
    expect(server.dataCalls().map((call) => call.headers.get("authorization"))).toEqual([
      "Bearer tok_1",
      "Bearer tok_2",
    ]);
  });

  it("treats a second 401 as an error: {error} from the client, CdasApiError from paginate", async () => {
    const server = scriptedFetch(() =>
      json({ id: "e1", name: "unauthorized", message: "token has expired" }, { status: 401 }),
    );
    const sdk = testSdk(server.fetch);
    const { data, error, response } = await untyped(sdk.client).GET("/v1/accounts", {});
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ message: "token has expired" });
    expect(server.dataCalls()).toHaveLength(2);
    const failure = await sdk
      .paginate("/v1/accounts", {})
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect(failure).toMatchObject({
      status: 401,
      name: "CdasAuthenticationError",
      apiErrorName: "unauthorized",
      id: "e1",
    });
  });

  it("resends the body of a POST after renewing", async () => {
    let failures = 1;
    const server = scriptedFetch(() => (failures-- > 0 ? json({}, { status: 401 }) : json({ id: "s1" })));
    const body = { end_user_id: "eu_1", institution_id: "inst_1" };
    const { data } = await untyped(testSdk(server.fetch).client).POST("/v1/auth/session", { body });
    expect(data).toEqual({ id: "s1" });
    const sessions = server.dataCalls();
    expect(sessions.map((call) => JSON.parse(call.body))).toEqual([body, body]);
    expect(sessions.map((call) => call.headers.get("content-type"))).toEqual([
      "application/json; charset=UTF-8",
      "application/json; charset=UTF-8",
    ]);
  });

  it("throws a redacted CdasApiError when the token call is refused", async () => {
    const server = scriptedFetch(ok, async (request) =>
      json({ name: "unauthorized", message: `bad credentials: ${request.body}` }, { status: 401 }),
    );
    const failure = await untyped(testSdk(server.fetch).client)
      .GET("/v1/accounts", {})
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect(failure).toMatchObject({
      status: 401,
      name: "CdasAuthenticationError",
      apiErrorName: "unauthorized",
    });
    expect((failure as Error).message).toContain("[redacted]");
    expect((failure as Error).message).not.toContain(SECRET_MARK);
  });
});

describe("token call made by the caller through sdk.client", () => {
  it("goes out without a bearer and is retried like a read", async () => {
    let refusals = 1;
    const server = scriptedFetch(
      () => json({}),
      () => (refusals-- > 0 ? json({}, { status: 503 }) : tokenResponse("direct")),
    );
    const body = { client_id: CLIENT_ID, client_secret: "other" };
    const { data } = await untyped(testSdk(server.fetch).client).POST("/v1/token", { body });
    expect(data).toMatchObject({ access_token: "direct" });
    expect(server.tokenCalls()).toHaveLength(2);
    expect(server.tokenCalls().map((call) => call.headers.get("authorization"))).toEqual([null, null]);
    expect(server.tokenCalls().map((call) => JSON.parse(call.body))).toEqual([body, body]);
  });
});
