/** X-Platform-Version chooses the shape; every registered version is derived from the same data. */
import { readRegistry } from "@cdas/spec/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleFolder, indexBundle } from "../src/bundle.js";
import { RESPONSE_SHAPES, responseShape } from "../src/data/shapes.js";
import { assertDocumentedResponse, loadBundle, mainEndUsers, Sandbox, VERSIONS } from "./helpers.js";

let sandbox: Sandbox;
let users: Awaited<ReturnType<typeof mainEndUsers>>;
beforeAll(async () => {
  sandbox = await Sandbox.start({ defaultVersion: "v2" });
  users = await mainEndUsers(sandbox);
});
afterAll(() => sandbox.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are walked freely in these assertions
type Json = Record<string, any>;

describe("version choice", () => {
  it("uses the default version without the header and refuses an unsupported one with a 400 naming the header", async () => {
    const path = `/v1/banking/products/prd_cba_savings`;
    const implicit = await sandbox.call("GET", path);
    expect(implicit.status).toBe(200);
    assertDocumentedResponse("v2", "GET", "/v1/banking/products/{product_id}", implicit);
    expect(implicit.body).toEqual((await sandbox.get(path, "v2")).body);
    for (const value of ["v9", "V2", "2", ""]) {
      const response = await sandbox.call("GET", path, { headers: { "x-platform-version": value } });
      expect(response.status, value).toBe(400);
      expect((response.body as Json).message).toBe(
        `header X-Platform-Version must be one of ${VERSIONS.join(", ")} (got ${JSON.stringify(value)})`,
      );
    }
    // A long value (a secret sent in the wrong header?) is not echoed, not even in part.
    const secret = "sk_sandbox_4be27a1a944652f4b5b31ce679cd79b4";
    const long = await sandbox.call("GET", path, { headers: { "x-platform-version": secret } });
    expect((long.body as Json).message).toBe(
      `header X-Platform-Version must be one of ${VERSIONS.join(", ")} (got a value of ${secret.length} characters)`,
    );
  });

  it("v3 requires the header on the consent and end-user lists when it is the default", async () => {
    await Sandbox.using({ defaultVersion: "v3" }, async (v3Default) => {
      const response = await v3Default.call("GET", "/v1/consent");
      expect(response.status).toBe(400);
      assertDocumentedResponse("v3", "GET", "/v1/consent", response);
      expect((await v3Default.get("/v1/consent", "v3")).status).toBe(200);
    });
  });
});

describe("the versions' response shapes", () => {
  it("are declared only for versions of the bundles, and every version has its own or its lineage's", () => {
    for (const declared of Object.keys(RESPONSE_SHAPES)) expect(VERSIONS).toContain(declared);
    const registry = readRegistry(bundleFolder());
    for (const version of VERSIONS)
      expect(() => responseShape(version, registry.lineage(version)), version).not.toThrow();
  });

  it("of an undeclared version are those of the nearest version of its lineage (basedOn)", () => {
    expect(responseShape("v9", ["v1", "v2", "v3", "v9"])).toBe(RESPONSE_SHAPES.v3);
    expect(responseShape("v9", ["v1", "v9"])).toBe(RESPONSE_SHAPES.v1);
    expect(() => responseShape("v9", ["v8", "v9"])).toThrow(/nor any version it is based on \(v8, v9\)/);
    expect(() => responseShape("v9", ["v1"])).toThrow(/lineage of v9 must end with it/);
  });

  it("fail loudly for a version without a declaration, at start rather than on a read", () => {
    expect(() => responseShape("v9")).toThrow(/no response shapes for version v9/);
    expect(() => responseShape("toString")).toThrow(/no response shapes/);
    expect(() => indexBundle("v9", loadBundle("v3"))).toThrow(/src\/data\/shapes\.ts/);
  });
});

describe("v1 and v2 shapes of the same data", () => {
  it("product detail: numeric vs string tiers, one vs many applicability conditions, flat vs nested fees, rate array names", async () => {
    const path = "/v1/banking/products/prd_cba_savings";
    const v1 = ((await sandbox.get(path, "v1")).body as Json).product;
    const v2 = ((await sandbox.get(path, "v2")).body as Json).product;
    expect(v1.depositRates).toBeDefined();
    expect(v1.deposit_rates).toBeUndefined();
    const tier1 = v1.depositRates[0].tiers[0];
    const tier2 = v2.deposit_rates[0].tiers[0];
    expect(typeof tier1.maximum_value).toBe("number");
    expect(tier2.maximum_value).toBe(String(tier1.maximum_value)); // as the examples write it: "250000"
    expect(Array.isArray(v1.depositRates[0].applicability_conditions)).toBe(false);
    expect(Array.isArray(v2.deposit_rates[0].applicability_conditions)).toBe(true);
    expect(v2.deposit_rates[0].application_type).toBeDefined();
    expect(v1.depositRates[0].application_type).toBeUndefined();
    expect(v2.deposit_rates.map((r: Json) => r.rate)).toEqual(v1.depositRates.map((r: Json) => r.rate));

    const fees1 = ((await sandbox.get("/v1/banking/products/prd_cba_transaction", "v1")).body as Json).product
      .fees;
    const fees2 = ((await sandbox.get("/v1/banking/products/prd_cba_transaction", "v2")).body as Json).product
      .fees;
    expect(fees1[0].amount).toBe(fees2[0].fixed_amount.amount);
    expect(fees2[0].fee_method_u_type).toBe("fixedAmount");
    expect(fees1[1].transaction_rate).toBe(fees2[1].rate_based.rate);
    expect(fees2[1].fee_method_u_type).toBe("rateBased");
    expect(fees1[0].discounts[0].amount).toBe(fees2[0].discounts[0].fixed_amount.amount);
  });

  it("accounts: is_activated boolean in v1; in v2 ACTIVATED (the one value shown) or absent", async () => {
    const path = `/v1/banking/accounts?end_user_id=${users.person}&page%5Bsize%5D=1000`;
    const v1 = ((await sandbox.get(path, "v1")).body as Json).accounts;
    const v2 = ((await sandbox.get(path, "v2")).body as Json).accounts;
    expect(v1.map((a: Json) => a.account_id)).toEqual(v2.map((a: Json) => a.account_id));
    const features1 = v1.flatMap((a: Json) => a.features);
    const features2 = v2.flatMap((a: Json) => a.features);
    expect(features1.length).toBeGreaterThan(0);
    expect(features1.every((f: Json) => typeof f.is_activated === "boolean")).toBe(true);
    expect(features1.some((f: Json) => f.is_activated === false)).toBe(true);
    expect(features2.map((f: Json) => ("is_activated" in f ? f.is_activated : "absent"))).toEqual(
      features1.map((f: Json) => (f.is_activated ? "ACTIVATED" : "absent")),
    );
  });

  it("banking transactions: nppPayload with root service in v1, npp_payload with extension_u_type in v2", async () => {
    const v1 = ((await sandbox.get("/v1/banking/transactions", "v1")).body as Json).transactions.filter(
      (t: Json) => t.extended_data,
    );
    const v2 = ((await sandbox.get("/v1/banking/transactions", "v2")).body as Json).transactions.filter(
      (t: Json) => t.extended_data,
    );
    expect(v1.length).toBeGreaterThan(0);
    expect(v1.length).toBe(v2.length);
    // The record has no documented fields besides extended_data; the nppPayload's are not shown.
    expect(v1[0]).toEqual({ extended_data: { nppPayload: {}, service: expect.any(String) } });
    expect(v2[0].extended_data).toMatchObject({
      extension_u_type: "nppPayload",
      npp_payload: { service: v1[0].extended_data.service },
    });
    expect(Object.keys(v2[0])).toEqual(["extended_data"]);
    expect(v2[0].extended_data.service).toBeUndefined();
  });

  it("common identity: customer in v1 only, identities unchanged", async () => {
    const v1 = (await sandbox.get("/v1/common/identity", "v1")).body as Json;
    const v2 = (await sandbox.get("/v1/common/identity", "v2")).body as Json;
    expect(v1.customer).toBeDefined();
    expect(v2.customer).toBeUndefined();
    expect(v2.identities).toEqual(v1.identities);
  });

  it("consents: snake_case bare array in v1 and v2, camelCase envelope in v3", async () => {
    const v2 = (await sandbox.get("/v1/consent", "v2")).body as Json[];
    const v3 = ((await sandbox.get("/v1/consent", "v3")).body as Json).consents as Json[];
    expect(v3.map((c) => c.arrangementId)).toEqual(v2.map((c) => c.arrangement_id));
    expect(v3.map((c) => c.active)).toEqual(v2.map((c) => c.active));
    expect(Object.keys(v3[0]!).sort()).toEqual(["active", "arrangementId"]);
    expect(Object.keys(v2[0]!).sort()).toEqual(["active", "arrangement_id"]);
    const expiring = (await sandbox.get("/v1/consent?expires_before=2026-07-01", "v1")).body as Json[];
    expect(expiring.length).toBeGreaterThan(0);
    expect(expiring.length).toBeLessThan(v2.length);
    const ids = new Set(v2.map((c) => c.arrangement_id));
    expect(expiring.every((c) => ids.has(c.arrangement_id))).toBe(true);
    expect((await sandbox.get("/v1/consent?expires_before=2026-07-01", "v3")).status).toBe(400);
    // A date-time is a cut-off too; another value is answered with a 400, as the parameter says.
    const atNoon = await sandbox.get("/v1/consent?expires_before=2026-07-01T12:00:00Z", "v1");
    expect((atNoon.body as Json[]).length).toBeGreaterThanOrEqual(expiring.length);
    for (const other of ["banana", "2026", "July%201%2C%202026", "2026-02-30", "2026-07-01T12%3A00%3A00"]) {
      const refused = await sandbox.get(`/v1/consent?expires_before=${other}`, "v1");
      expect([refused.status, (refused.body as Json).message], other).toEqual([
        400,
        "parameter expires_before must be a date (YYYY-MM-DD) or an RFC 3339 date-time",
      ]);
    }
  });
});

describe("determinism", () => {
  it("the same seed gives the same data; another seed gives other data", async () => {
    const path = (user: string) => `/v1/transactions?end_user_id=${user}&limit=50`;
    const again = await Sandbox.start({ defaultVersion: "v2" });
    const other = await Sandbox.start({ seed: 2 });
    try {
      const againUsers = await mainEndUsers(again);
      expect(againUsers).toEqual(users);
      expect((await again.get(path(users.person), "v2")).body).toEqual(
        (await sandbox.get(path(users.person), "v2")).body,
      );
      // The documented ids are the same for every seed; the data behind them is not.
      const otherUsers = await mainEndUsers(other);
      expect(otherUsers.person).toBe(users.person);
      expect((await other.get(path(users.person), "v2")).body).not.toEqual(
        (await sandbox.get(path(users.person), "v2")).body,
      );
      const ids = async (s: Sandbox) =>
        ((await s.get("/v1/end-users", "v2")).body as { id: string }[]).map((u) => u.id);
      expect((await ids(other)).slice(2)).not.toEqual((await ids(sandbox)).slice(2));
    } finally {
      await Promise.all([again.close(), other.close()]);
    }
  });
});
