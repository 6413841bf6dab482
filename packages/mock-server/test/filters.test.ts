/** Filters return exactly the matching items: compared with filtering the whole collection by hand. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mainEndUsers, Sandbox, TODAY } from "./helpers.js";

let sandbox: Sandbox;
let users: Awaited<ReturnType<typeof mainEndUsers>>;

interface Transaction {
  id: string;
  account_id: string;
  amount: number;
  status: string;
  posted_date: string;
}

let everything: Transaction[];

beforeAll(async () => {
  sandbox = await Sandbox.start();
  users = await mainEndUsers(sandbox);
  const response = await sandbox.get(
    `/v1/transactions?end_user_id=${users.person}&from_date=1900-01-01&limit=100000`,
    "v2",
  );
  everything = (response.body as { data: Transaction[] }).data;
});
afterAll(() => sandbox.close());

async function transactions(query: string): Promise<Transaction[]> {
  const response = await sandbox.get(
    `/v1/transactions?end_user_id=${users.person}&limit=100000&${query}`,
    "v2",
  );
  expect(response.status, response.text).toBe(200);
  return (response.body as { data: Transaction[] }).data;
}

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

describe("transactions", () => {
  it("span two years, newest first", () => {
    expect(everything.length).toBeGreaterThan(1000);
    const dates = everything.map((t) => t.posted_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(dates.at(-1)! <= daysBefore(TODAY, 700)).toBe(true);
    expect(dates[0]! >= daysBefore(TODAY, 3)).toBe(true);
  });

  it("without dates return the last 90 days before today", async () => {
    const recent = await transactions("");
    const from = daysBefore(TODAY, 89);
    expect(recent.map((t) => t.id)).toEqual(
      everything.filter((t) => t.posted_date >= from && t.posted_date <= TODAY).map((t) => t.id),
    );
    expect(recent.length).toBeGreaterThan(50);
  });

  it("honour both dates inclusively", async () => {
    const from = "2025-03-01";
    const to = "2025-03-31";
    const result = await transactions(`from_date=${from}&to_date=${to}`);
    expect(result.map((t) => t.id)).toEqual(
      everything.filter((t) => t.posted_date >= from && t.posted_date <= to).map((t) => t.id),
    );
    expect(result.some((t) => t.posted_date === from) && result.some((t) => t.posted_date === to)).toBe(true);
  });

  it("honour one date alone", async () => {
    const to = "2024-12-31";
    const result = await transactions(`to_date=${to}`);
    expect(result.map((t) => t.id)).toEqual(everything.filter((t) => t.posted_date <= to).map((t) => t.id));
  });

  it("filter by amount range (signed amounts, bounds inclusive), status and account together", async () => {
    const account = everything[0]!.account_id;
    const cases = [
      {
        query: "min_amount=-50&max_amount=-10",
        keep: (t: Transaction) => t.amount >= -50 && t.amount <= -10,
      },
      { query: "min_amount=1000", keep: (t: Transaction) => t.amount >= 1000 },
      { query: "status=PENDING", keep: (t: Transaction) => t.status === "PENDING" },
      {
        query: `account_id=${account}&status=POSTED&max_amount=0`,
        keep: (t: Transaction) => t.account_id === account && t.status === "POSTED" && t.amount <= 0,
      },
    ];
    for (const { query, keep } of cases) {
      const result = await transactions(`from_date=1900-01-01&${query}`);
      const expected = everything.filter(keep);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(
        result.map((t) => t.id),
        query,
      ).toEqual(expected.map((t) => t.id));
    }
    const exact = everything.find((t) => t.amount < 0)!;
    const onBound = await transactions(
      `from_date=1900-01-01&min_amount=${exact.amount}&max_amount=${exact.amount}`,
    );
    expect(onBound.map((t) => t.id)).toContain(exact.id);
    expect(onBound.every((t) => t.amount === exact.amount)).toBe(true);
  });

  it("reject inverted ranges and impossible dates, naming the parameter", async () => {
    for (const [query, field] of [
      ["from_date=2025-02-01&to_date=2025-01-01", "from_date"],
      ["min_amount=10&max_amount=1", "min_amount"],
      ["from_date=2025-02-30", "from_date"],
      ["status=SETTLED", "status"],
      ["min_amount=ten", "min_amount"],
    ]) {
      const response = await sandbox.get(`/v1/transactions?end_user_id=${users.person}&${query}`, "v1");
      expect(response.status, query).toBe(400);
      expect((response.body as { message: string }).message, query).toContain(field);
    }
  });

  it("say how to write a number they refuse (JavaScript writes 0.0000001 as 1e-7)", async () => {
    const response = await sandbox.get(`/v1/transactions?end_user_id=${users.person}&min_amount=1e-7`, "v1");
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toBe(
      'parameter min_amount must be of type number, written as a plain decimal such as 12.5 or -0.01 (got "1e-7")',
    );
  });
});

describe("refusals that name what was wrong", () => {
  it("a client_id other than the sandbox's on the institutions list, an unknown product, a body sent as text", async () => {
    const institutions = await sandbox.get("/v1/institutions?client_id=cli_someone_else", "v2");
    expect(institutions.status).toBe(400);
    expect(institutions.text).toContain("parameter client_id is not this team's client identifier");
    const product = await sandbox.get("/v1/banking/products/prd_nope", "v2");
    expect(product.status).toBe(400);
    expect(product.body).toMatchObject({
      name: "not_found",
      message: "parameter product_id names no product",
    });
    const { clientId, clientSecret } = sandbox.server;
    const asText = await sandbox.call("POST", "/v1/token", {
      token: null,
      rawBody: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
      headers: { "content-type": "text/plain" },
    });
    expect(asText.status).toBe(400);
    expect(asText.text).toContain("header content-type must be application/json");
  });
});

describe("ids that name nothing (the README's rule)", () => {
  it("filter a list down to nothing: an unknown end_user_id or account_id gives an empty list", async () => {
    for (const path of [
      "/v1/accounts?end_user_id=usr_nobody",
      `/v1/income?end_user_id=${users.person}&account_id=acc_nothing`,
      `/v1/transactions?end_user_id=${users.person}&account_id=acc_nothing`,
    ]) {
      const response = await sandbox.get(path, "v2");
      expect(response.status, path).toBe(200);
      expect((response.body as { data: unknown[] }).data, path).toEqual([]);
    }
  });

  it("are refused naming the parameter where the read must answer with one record", async () => {
    const products = await sandbox.get(
      `/v1/products?end_user_id=${users.person}&account_id=acc_nothing`,
      "v2",
    );
    expect(products.status).toBe(400);
    const plans = await sandbox.get("/v1/energy/plans?retailer_id=nobody", "v2");
    expect(plans.status).toBe(400);
    expect(plans.text).toContain("parameter retailer_id names no energy retailer");
  });
});

describe("other filters", () => {
  it("accounts by institution, category and open status", async () => {
    const all = (
      (await sandbox.get(`/v1/accounts?end_user_id=${users.person}&limit=1000`, "v2")).body as {
        data: Record<string, string>[];
      }
    ).data;
    expect(new Set(all.map((a) => a.product_category)).size).toBeGreaterThan(4);
    for (const [param, field] of [
      ["institution_id", "institution_id"],
      ["product_category", "product_category"],
      ["open_status", "open_status"],
    ] as const) {
      for (const value of new Set(all.map((a) => a[field]!))) {
        const response = await sandbox.get(
          `/v1/accounts?end_user_id=${users.person}&limit=1000&${param}=${value}`,
          "v2",
        );
        const filtered = (response.body as { data: Record<string, string>[] }).data;
        expect(filtered).toEqual(all.filter((a) => a[field] === value));
      }
    }
  });

  it("payees by type, and records by account", async () => {
    const all = (
      (await sandbox.get(`/v1/payees?end_user_id=${users.person}`, "v2")).body as { data: { type: string }[] }
    ).data;
    for (const type of ["DOMESTIC", "BILLER", "INTERNATIONAL"]) {
      const filtered = (
        (await sandbox.get(`/v1/payees?end_user_id=${users.person}&type=${type}`, "v2")).body as {
          data: unknown[];
        }
      ).data;
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered).toEqual(all.filter((p) => p.type === type));
    }
    const income = (
      (await sandbox.get(`/v1/income?end_user_id=${users.person}`, "v2")).body as {
        data: { account_id: string }[];
      }
    ).data;
    const account = income[0]!.account_id;
    const byAccount = (
      (await sandbox.get(`/v1/income?end_user_id=${users.person}&account_id=${account}`, "v2")).body as {
        data: unknown[];
      }
    ).data;
    expect(byAccount).toEqual(income.filter((i) => i.account_id === account));
  });

  it("energy plans: exactly one of retailer_id and institution_id; active plans by default", async () => {
    const neither = await sandbox.get("/v1/energy/plans", "v2");
    const both = await sandbox.get("/v1/energy/plans?retailer_id=agl&institution_id=inst_agl", "v2");
    expect([neither.status, both.status]).toEqual([400, 400]);
    const all = (
      (await sandbox.get("/v1/energy/plans?retailer_id=agl&status=all&page%5Bsize%5D=1000", "v2")).body as {
        plans: { effective_to?: string }[];
      }
    ).plans;
    const active = (
      (await sandbox.get("/v1/energy/plans?institution_id=inst_agl&page%5Bsize%5D=1000", "v2")).body as {
        plans: unknown[];
      }
    ).plans;
    expect(active).toEqual(
      // As instants: the documented AGL plans end at 23:59:59+10:00 on the reference date.
      all.filter(
        (p) => p.effective_to === undefined || Date.parse(p.effective_to) > Date.parse(`${TODAY}T00:00:00Z`),
      ),
    );
    expect(active.length).toBeLessThan(all.length);
  });

  it("institutions by industry and recommended mode; Westpac and EnergyAustralia report DEGRADED connections", async () => {
    const path = `/v1/institutions?client_id=${sandbox.server.clientId}`;
    const all = (await sandbox.get(path, "v2")).body as {
      id: string;
      industry: string;
      status?: { connections: { status: string } };
    }[];
    expect(all.filter((i) => i.status?.connections.status === "DEGRADED").map((i) => i.id)).toEqual([
      "inst_westpac",
      "inst_energyaustralia",
    ]);
    const energy = (await sandbox.get(`${path}&industry=energy`, "v2")).body as unknown[];
    expect(energy).toEqual(all.filter((i) => i.industry === "energy"));
    const recommended = (await sandbox.get(`${path}&institution_mode=recommended`, "v2")).body as unknown[];
    expect(recommended.length).toBeGreaterThan(0);
    expect(recommended.length).toBeLessThan(all.length);
  });

  it("income is derived from the transactions: last amount and date of each source's credits", async () => {
    const income = (
      (await sandbox.get(`/v1/income?end_user_id=${users.person}`, "v2")).body as {
        data: {
          account_id: string;
          source: string;
          last_amount: number;
          last_date: string;
          average_amount: number;
        }[];
      }
    ).data;
    expect(income.length).toBeGreaterThan(0);
    for (const item of income) {
      const credits = (everything as (Transaction & { description: string; category: string })[]).filter(
        (t) =>
          t.account_id === item.account_id &&
          t.category === "INCOME" &&
          t.status === "POSTED" &&
          t.amount > 0 &&
          t.description.toUpperCase().endsWith(item.source.toUpperCase()),
      );
      expect(credits.length, item.source).toBeGreaterThan(2);
      expect(credits[0]!.posted_date).toBe(item.last_date);
      expect(credits[0]!.amount).toBe(item.last_amount);
      const average = credits.reduce((sum, t) => sum + t.amount, 0) / credits.length;
      expect(Math.abs(average - item.average_amount)).toBeLessThan(0.01);
    }
  });
});
