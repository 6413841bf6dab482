/** Tokens: both response forms, expiry, 401 without a valid bearer, the api:user.write scope, secret hygiene. */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertDocumentedResponse, loadBundle, mainEndUsers, Sandbox } from "./helpers.js";

describe("token issue and expiry", () => {
  let clockMs = Date.parse("2026-06-30T00:00:00Z");
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.start({ tokenTtlSeconds: 900, now: () => clockMs });
  });
  afterAll(() => sandbox.close());

  it("issues a bearer token in the access_token form with the configured lifetime", async () => {
    const response = await sandbox.call("POST", "/v1/token", {
      token: null,
      body: { client_id: sandbox.server.clientId, client_secret: sandbox.server.clientSecret },
    });
    expect(response.status).toBe(200);
    assertDocumentedResponse("v3", "POST", "/v1/token", response);
    expect(response.body).toMatchObject({ token_type: "Bearer", expires_in: 900 });
  });

  it("refuses wrong credentials with a documented 4xx that does not echo the secret", async () => {
    const response = await sandbox.call("POST", "/v1/token", {
      token: null,
      body: { client_id: sandbox.server.clientId, client_secret: "sk_wrong_secret_value" },
    });
    expect(response.status).toBe(401);
    assertDocumentedResponse("v2", "POST", "/v1/token", response);
    expect(response.text).not.toContain("sk_wrong_secret_value");
    expect(response.text).not.toContain(sandbox.server.clientSecret);
  });

  it("accepts a token until it expires, then answers 401 (renew and retry works)", async () => {
    const token = await sandbox.token();
    const path = "/v1/end-users";
    expect((await sandbox.call("GET", path, { version: "v2", token })).status).toBe(200);
    clockMs += 899_000;
    expect((await sandbox.call("GET", path, { version: "v2", token })).status).toBe(200);
    clockMs += 1_000;
    const expired = await sandbox.call("GET", path, { version: "v2", token });
    expect(expired.status).toBe(401);
    assertDocumentedResponse("v2", "GET", path, expired);
    expect((expired.body as { message: string }).message).toContain("expired");
    const fresh = await sandbox.call("POST", "/v1/token", {
      token: null,
      body: { client_id: sandbox.server.clientId, client_secret: sandbox.server.clientSecret },
    });
    const renewed = (fresh.body as { access_token: string }).access_token;
    expect((await sandbox.call("GET", path, { version: "v2", token: renewed })).status).toBe(200);
  });

  it("answers 401 to a missing, malformed or unknown bearer", async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: "Basic abc" },
      { authorization: "Bearer cdas_unknown" },
      { authorization: "Bearer" },
    ];
    for (const headers of variants) {
      const response = await sandbox.call("GET", "/v1/banking/accounts?end_user_id=x", {
        version: "v2",
        token: null,
        headers,
      });
      expect(response.status).toBe(401);
      assertDocumentedResponse("v2", "GET", "/v1/banking/accounts", response);
    }
  });
});

/** Where a bundle keeps the examples of the token response. */
type TokenDocument = {
  paths: {
    "/v1/token": {
      post: {
        responses: {
          200: {
            content: { "application/json": { examples: Record<string, { value: Record<string, unknown> }> } };
          };
        };
      };
    };
  };
};

describe("token response form", () => {
  it("can be the {token, expires_in} form", async () => {
    await Sandbox.using({ tokenForm: "token", tokenTtlSeconds: 900 }, async (sandbox) => {
      const response = await sandbox.call("POST", "/v1/token", {
        token: null,
        body: { client_id: sandbox.server.clientId, client_secret: sandbox.server.clientSecret },
      });
      assertDocumentedResponse("v1", "POST", "/v1/token", response);
      expect(Object.keys(response.body as object).sort()).toEqual(["expires_in", "token"]);
      const token = (response.body as { token: string }).token;
      expect((await sandbox.call("GET", "/v1/end-users", { version: "v1", token })).status).toBe(200);
    });
  });

  it("issues each form with the lifetime of the reference's example of that form, unless told", async () => {
    const { examples } = (loadBundle("v1") as TokenDocument).paths["/v1/token"].post.responses[200].content[
      "application/json"
    ];
    const documented = Object.values(examples).map(({ value }) => ({
      form: "token" in value ? ("token" as const) : ("access_token" as const),
      expiresIn: value.expires_in,
    }));
    expect(documented.map(({ form }) => form).sort()).toEqual(["access_token", "token"]);
    for (const { form, expiresIn } of documented) {
      await Sandbox.using({ tokenForm: form }, async (sandbox) => {
        const response = await sandbox.call("POST", "/v1/token", {
          token: null,
          body: { client_id: sandbox.server.clientId, client_secret: sandbox.server.clientSecret },
        });
        expect((response.body as { expires_in: number }).expires_in, form).toBe(expiresIn);
      });
    }
  });
});

describe("the api:user.write scope", () => {
  let sandbox: Sandbox;
  let person: string;
  beforeAll(async () => {
    sandbox = await Sandbox.start();
    person = (await mainEndUsers(sandbox)).person;
  });
  afterAll(() => sandbox.close());

  const body = () => ({
    end_user_id: person,
    institution_id: "inst_anz",
    redirect_uri: "https://app.example.com.au/ok",
    cancel_uri: "https://app.example.com.au/no",
  });

  it("lets the main client's tokens create auth sessions usable as sess_id", async () => {
    const response = await sandbox.call("POST", "/v1/auth/session", { version: "v2", body: body() });
    expect(response.status).toBe(200);
    assertDocumentedResponse("v2", "POST", "/v1/auth/session", response);
    const session = response.body as { session_id: string; auth_url: string };
    expect(session.auth_url).toContain(session.session_id);
    const institutions = await sandbox.get(
      `/v1/institutions?client_id=${sandbox.server.clientId}&sess_id=${session.session_id}`,
      "v2",
    );
    expect(institutions.status).toBe(200);
    expect((institutions.body as { industry: string }[]).every((i) => i.industry === "banking")).toBe(true);
  });

  it("refuses the read-only client's tokens with a documented 401 in application/vnd.goa.error", async () => {
    // Spread, as over sdkOptions: the copy carries the secret too.
    const token = await sandbox.token({ ...sandbox.server.readOnlyClient });
    expect((await sandbox.call("GET", "/v1/end-users", { version: "v2", token })).status).toBe(200);
    const response = await sandbox.call("POST", "/v1/auth/session", { version: "v2", token, body: body() });
    expect(response.status).toBe(401);
    expect(response.contentType).toContain("application/vnd.goa.error");
    assertDocumentedResponse("v2", "POST", "/v1/auth/session", response);
    expect((response.body as { message: string }).message).toContain("api:user.write");
  });

  it("names the body field that is wrong", async () => {
    const response = await sandbox.call("POST", "/v1/auth/session", {
      version: "v1",
      body: { ...body(), redirect_uri: 42 },
    });
    expect(response.status).toBe(400);
    assertDocumentedResponse("v1", "POST", "/v1/auth/session", response);
    expect((response.body as { message: string }).message).toContain("redirect_uri");
  });
});

describe("the client secret", () => {
  it("is not shown when the server handle or its credentials are inspected or serialised", async () => {
    await Sandbox.using({}, async (sandbox) => {
      const { server } = sandbox;
      expect(server.clientSecret.length).toBeGreaterThan(20);
      for (const shown of [
        inspect(server),
        inspect(server.readOnlyClient),
        JSON.stringify(server.readOnlyClient),
        Object.keys(server).join(),
      ]) {
        expect(shown).not.toContain(server.clientSecret);
        expect(shown).not.toContain(server.readOnlyClient.clientSecret);
      }
    });
  });
});
