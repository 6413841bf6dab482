/**
 * Expiring stores (tokens, auth sessions): lookups honour expiry exactly, and sweeping expired
 * entries is amortised, so issuing costs the same however large the store (work is counted, not timed).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExpiringMap } from "../src/expiring.js";
import { TokenStore } from "../src/tokens.js";
import { Sandbox } from "./helpers.js";

describe("an expiring map", () => {
  it("never returns an expired entry, swept or not", () => {
    let now = 0;
    const map = new ExpiringMap<string>(() => now, Number.POSITIVE_INFINITY);
    map.set("a", "first", 1000);
    expect(map.get("a")).toBe("first");
    now = 999;
    expect(map.lookup("a")).toEqual({ value: "first", expired: false });
    now = 1000;
    expect(map.get("a")).toBeUndefined();
    expect(map.lookup("a")).toEqual({ value: "first", expired: true });
    expect(map.get("b")).toBeUndefined();
  });

  it("visits a bounded number of entries per insert, whatever its size", () => {
    for (const count of [1_000, 10_000, 100_000]) {
      // Half the entries live for ever, half expire at once: sweeps have work to do and live
      // entries accumulate, the case where a sweep on every insert grows with the store.
      let now = 0;
      const map = new ExpiringMap<number>(() => now, Number.POSITIVE_INFINITY);
      for (let i = 0; i < count; i++) {
        map.set(`k${i}`, i, i % 2 === 0 ? Number.POSITIVE_INFINITY : now + 1);
        now += 1;
      }
      expect(map.sweptEntries / count, String(count)).toBeLessThanOrEqual(2);
      // Expired entries do not pile up: at most twice the live ones, plus the floor.
      expect(map.size, String(count)).toBeLessThanOrEqual(2 * Math.ceil(count / 2) + 64);
    }
  });
});

describe("token issue", () => {
  it("sweeps a bounded number of tokens per issue however many are live", () => {
    const client = { clientId: "c", secret: "s", scopes: [] };
    for (const count of [1_000, 20_000]) {
      const store = new TokenStore([client], 3600, () => 0, Number.POSITIVE_INFINITY);
      for (let i = 0; i < count; i++) store.issue(client);
      expect(store.tokens.size).toBe(count);
      expect(store.tokens.sweptEntries / count, String(count)).toBeLessThanOrEqual(2);
    }
  });
});

describe("auth sessions", () => {
  let clockMs = Date.parse("2026-06-30T00:00:00Z");
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.start({ now: () => clockMs, tokenTtlSeconds: 86_400 });
  });
  afterAll(() => sandbox.close());

  it("stop narrowing the institutions list at their expires_at, though nothing swept them", async () => {
    const created = await sandbox.call("POST", "/v1/auth/session", {
      version: "v2",
      body: { institution_id: "inst_agl" },
    });
    expect(created.status).toBe(200);
    const { session_id: sessionId, expires_at: expiresAt } = created.body as {
      session_id: string;
      expires_at: number;
    };
    const path = `/v1/institutions?client_id=${sandbox.server.clientId}&sess_id=${sessionId}`;
    clockMs = expiresAt * 1000 - 1;
    expect((await sandbox.get(path, "v2")).status).toBe(200);
    clockMs = expiresAt * 1000;
    const expired = await sandbox.get(path, "v2");
    expect(expired.status).toBe(400);
    expect((expired.body as { message: string }).message).toBe(
      "parameter sess_id names an auth session that has expired",
    );
    // The documented session never expires.
    const documented = `/v1/institutions?client_id=${sandbox.server.clientId}&sess_id=sess_b41e9a06`;
    expect((await sandbox.get(documented, "v2")).status).toBe(200);
  });
});

describe("bounded stores: a client issuing in a loop cannot exhaust the sandbox's memory", () => {
  it("an expiring map past its bound drops its oldest entry", () => {
    const map = new ExpiringMap<number>(() => 0, 3);
    for (let i = 1; i <= 5; i++) map.set(`k${i}`, i, Number.POSITIVE_INFINITY);
    expect(map.size).toBe(3);
    expect(["k1", "k2", "k3", "k4", "k5"].map((key) => map.get(key))).toEqual([
      undefined,
      undefined,
      3,
      4,
      5,
    ]);
  });

  it("past limits.liveTokens, a new token drops the oldest, which then gets the 401 that says to renew", async () => {
    await Sandbox.using({ limits: { liveTokens: 3 } }, async (bounded) => {
      const tokens: string[] = [];
      for (let i = 0; i < 4; i++) {
        const issued = await bounded.call("POST", "/v1/token", {
          token: null,
          body: { client_id: bounded.server.clientId, client_secret: bounded.server.clientSecret },
        });
        expect(issued.status).toBe(200);
        tokens.push((issued.body as { access_token: string }).access_token);
      }
      const statuses = [];
      for (const token of tokens)
        statuses.push((await bounded.call("GET", "/v1/end-users", { version: "v2", token })).status);
      expect(statuses).toEqual([401, 200, 200, 200]);
    });
  });

  it("past limits.authSessions, a new session drops the oldest; the documented session stays", async () => {
    await Sandbox.using({ limits: { authSessions: 2 } }, async (bounded) => {
      const sessionIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await bounded.call("POST", "/v1/auth/session", {
          version: "v2",
          body: { institution_id: "inst_agl" },
        });
        expect(created.status).toBe(200);
        sessionIds.push((created.body as { session_id: string }).session_id);
      }
      const institutions = (sessId: string) =>
        bounded.get(`/v1/institutions?client_id=${bounded.server.clientId}&sess_id=${sessId}`, "v2");
      const dropped = await institutions(sessionIds[0]!);
      expect(dropped.status).toBe(400);
      expect((dropped.body as { message: string }).message).toBe("parameter sess_id names no auth session");
      for (const sessId of [...sessionIds.slice(1), "sess_b41e9a06"])
        expect((await institutions(sessId)).status, sessId).toBe(200);
    });
  });
});
