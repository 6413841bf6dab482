/** Both paging styles walk whole collections, forwards and backwards, with nothing lost or repeated. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertDocumentedResponse, mainEndUsers, Sandbox } from "./helpers.js";

let sandbox: Sandbox;
let users: Awaited<ReturnType<typeof mainEndUsers>>;

beforeAll(async () => {
  sandbox = await Sandbox.start();
  users = await mainEndUsers(sandbox);
});
afterAll(() => sandbox.close());

type Links = { next?: string; prev?: string };

/** Follows `links.next` from a first address; returns every page's items. */
async function walk(
  first: string,
  version: string,
  key: string,
  path: string,
  direction: "next" | "prev" = "next",
) {
  const pages: unknown[][] = [];
  let address: string | undefined = first;
  while (address) {
    const response = await sandbox.get(address, version);
    expect(response.status, response.text).toBe(200);
    assertDocumentedResponse(version, "GET", path, response);
    const body = response.body as Record<string, unknown> & { links?: Links };
    pages.push(body[key] as unknown[]);
    address = body.links?.[direction];
    expect(pages.length).toBeLessThan(10_000);
  }
  return pages;
}

const ids = (items: unknown[], key: string) => items.map((item) => (item as Record<string, string>)[key]);

describe("offset paging", () => {
  it("walks all transactions of two years by links.next with nothing lost or repeated", async () => {
    const base = `/v1/transactions?end_user_id=${users.person}&from_date=2000-01-01`;
    const all = (await sandbox.get(`${base}&limit=100000`, "v2")).body as {
      data: { id: string }[];
      links: Links;
    };
    expect(all.data.length).toBeGreaterThan(1000);
    expect(all.links.next).toBeUndefined();
    const pages = await walk(`${base}&limit=37`, "v2", "data", "/v1/transactions");
    const walked = ids(pages.flat(), "id");
    expect(walked).toEqual(ids(all.data, "id"));
    expect(new Set(walked).size).toBe(walked.length);
    expect(pages.slice(0, -1).every((page) => page.length === 37)).toBe(true);
  });

  it("defaults to 25 items per page and carries the next offset", async () => {
    const response = await sandbox.get(
      `/v1/transactions?end_user_id=${users.organisation}&from_date=2000-01-01`,
      "v1",
    );
    const body = response.body as { data: unknown[]; links: Links };
    expect(body.data).toHaveLength(25);
    const next = new URL(body.links.next!, sandbox.server.url);
    expect(next.searchParams.get("offset")).toBe("25");
    expect(next.searchParams.get("limit")).toBe("25");
  });

  it("walks accounts across pages and matches computing the offset by hand", async () => {
    const base = `/v1/accounts?end_user_id=${users.person}`;
    const pages = await walk(`${base}&limit=2`, "v3", "data", "/v1/accounts");
    const byHand: unknown[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = ((await sandbox.get(`${base}&limit=2&offset=${offset}`, "v3")).body as { data: unknown[] })
        .data;
      if (page.length === 0) break;
      byHand.push(...page);
    }
    expect(pages.flat()).toEqual(byHand);
    expect(byHand.length).toBeGreaterThan(4);
  });

  it("answers an offset past the end with an empty page and no next link", async () => {
    const response = await sandbox.get(`/v1/accounts?end_user_id=${users.person}&offset=5000`, "v2");
    expect(response.body).toEqual({ data: [], links: {} });
  });
});

describe("cursor paging", () => {
  const cases = [
    {
      path: "/v1/banking/accounts",
      key: "accounts",
      id: "account_id",
      query: () => `end_user_id=${users.person}`,
    },
    { path: "/v1/banking/products", key: "products", id: "product_id", query: () => "" },
    { path: "/v1/energy/plans", key: "plans", id: "plan_id", query: () => "retailer_id=origin&status=all" },
    {
      path: "/v1/service-points",
      key: "data",
      id: "id",
      query: () => `end_user_id=${users.person}`,
      forwardOnly: true,
    },
    {
      path: "/v1/banking/payments/scheduled",
      key: "scheduled_payments",
      id: "scheduled_payment_id",
      query: () => `end_user_id=${users.organisation}`,
    },
  ];

  for (const { path, key, id, query, forwardOnly } of cases) {
    it(`${path}: forwards by links.next and backwards by links.prev, nothing lost or repeated`, async () => {
      const base = `${path}?${query()}`;
      const join = base.endsWith("?") ? "" : "&";
      const whole = (await sandbox.get(`${base}${join}page%5Bsize%5D=1000`, "v2")).body as Record<
        string,
        unknown[]
      >;
      const expected = ids(whole[key]!, id);
      expect(expected.length).toBeGreaterThan(2);

      const forward = await walk(`${base}${join}page%5Bsize%5D=2`, "v2", key, path);
      expect(ids(forward.flat(), id)).toEqual(expected);
      expect(forward.every((page) => page.length <= 2)).toBe(true);

      if (forwardOnly) {
        // This operation documents no page[before], so pages offer no prev link.
        expect(forward.length).toBeGreaterThan(1);
        return;
      }
      // From the last page, walk back by links.prev.
      let lastAddress = `${base}${join}page%5Bsize%5D=2`;
      for (;;) {
        const body = (await sandbox.get(lastAddress, "v2")).body as { links: Links };
        if (!body.links.next) break;
        lastAddress = body.links.next;
      }
      const backward = await walk(lastAddress, "v2", key, path, "prev");
      expect(ids(backward.reverse().flat(), id)).toEqual(expected);
    });
  }

  it("rejects a page size above 1000 and a cursor it did not issue, naming the parameter", async () => {
    const big = await sandbox.get(
      `/v1/banking/accounts?end_user_id=${users.person}&page%5Bsize%5D=1001`,
      "v2",
    );
    expect(big.status).toBe(400);
    expect((big.body as { message: string }).message).toContain("page[size]");
    const forged = await sandbox.get(
      `/v1/banking/accounts?end_user_id=${users.person}&page%5Bafter%5D=not-a-cursor`,
      "v2",
    );
    expect(forged.status).toBe(400);
    expect((forged.body as { message: string }).message).toContain("page[after]");
    assertDocumentedResponse("v2", "GET", "/v1/banking/accounts", forged);
  });

  it("v3 consent and end-user lists page only when asked (opt-in), v1 and v2 return bare arrays", async () => {
    for (const [path, key, v3Id, v2Id] of [
      ["/v1/consent", "consents", "arrangementId", "arrangement_id"],
      ["/v1/end-users", "end_users", "id", "id"],
    ] as const) {
      const bare = (await sandbox.get(path, "v2")).body as unknown[];
      expect(Array.isArray(bare)).toBe(true);
      const unpaged = (await sandbox.get(path, "v3")).body as Record<string, unknown[]> & { links?: Links };
      expect(unpaged[key]).toHaveLength(bare.length);
      expect(unpaged.links).toBeUndefined();
      const pages = await walk(`${path}?page%5Bsize%5D=3`, "v3", key, path);
      expect(pages.length).toBe(Math.ceil(bare.length / 3));
      expect(ids(pages.flat(), v3Id)).toEqual(ids(bare, v2Id));
      expect(ids(bare, v2Id).every((id) => typeof id === "string")).toBe(true);
    }
  });
});
