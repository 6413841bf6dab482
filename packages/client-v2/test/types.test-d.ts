import type { ErrorMessages, OpenPaths } from "@cdas/client-tooling/testing";
import type * as Published from "@cdas/client-v2";
import { describe, expectTypeOf, it } from "vitest";
import type * as Source from "../src/index.js";
import {
  type Account,
  type AccountList,
  type BankingAccount,
  type CommonIdentityResponse,
  type ConsentList,
  type components,
  createClient,
  type ExtendedError,
  type Fee,
  type operations,
  pagination,
  type RateTier,
  type ShortError,
} from "../src/index.js";

const client = createClient({ baseUrl: "https://api.example.com" });
type Feature = NonNullable<BankingAccount["features"]>[number];

describe("what version 2 looks like", () => {
  it("rate tier bounds are strings (numbers in v1)", () => {
    expectTypeOf<NonNullable<RateTier["minimum_value"]>>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<RateTier["maximum_value"]>>().toEqualTypeOf<string>();
  });

  it("fees are nested by method: fee_method_u_type with fixed_amount or rate_based (flat in v1)", () => {
    expectTypeOf<NonNullable<Fee["fee_method_u_type"]>>().toEqualTypeOf<"fixedAmount" | "rateBased">();
    expectTypeOf<NonNullable<NonNullable<Fee["fixed_amount"]>["amount"]>>().toEqualTypeOf<string>();
    expectTypeOf<Fee>().toHaveProperty("rate_based");
    expectTypeOf<Fee>().not.toHaveProperty("amount");
    expectTypeOf<Fee>().not.toHaveProperty("balance_rate");
  });

  it("account feature is_activated is a string (a boolean in v1)", () => {
    expectTypeOf<NonNullable<Feature["is_activated"]>>().toExtend<string>();
    expectTypeOf<NonNullable<Feature["is_activated"]>>().not.toExtend<boolean>();
  });

  it("common identity has no customer any more, identities unchanged", () => {
    expectTypeOf<CommonIdentityResponse>().not.toHaveProperty("customer");
    expectTypeOf<CommonIdentityResponse>().toHaveProperty("identities");
  });

  it("the consent list is still a bare array with snake_case fields, not paged", async () => {
    const { data } = await client.GET("/v1/consent");
    expectTypeOf<NonNullable<typeof data>>().toExtend<ConsentList>();
    expectTypeOf<ConsentList>().toExtend<NonNullable<typeof data>>();
    expectTypeOf<ConsentList>().toBeArray();
    // The v3 name is not a field here: consents name only what the interface documents.
    expectTypeOf<ConsentList[number]["arrangement_id"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ConsentList[number]>().not.toHaveProperty("arrangementId");
    expectTypeOf(pagination["/v1/consent"]).toEqualTypeOf<{ readonly style: "none"; readonly items: "" }>();
  });
});

describe("what every version rejects", () => {
  it("a known path with its required query parameter is accepted and typed", async () => {
    const { data } = await client.GET("/v1/accounts", { params: { query: { end_user_id: "eu_2f9c81d4" } } });
    expectTypeOf<NonNullable<typeof data>>().toExtend<AccountList>();
    expectTypeOf<AccountList>().toExtend<NonNullable<typeof data>>();
  });

  it("an unknown path is a type error", () => {
    // @ts-expect-error the path does not exist
    client.GET("/v1/accounts-v2", { params: { query: { end_user_id: "eu_2f9c81d4" } } });
    // @ts-expect-error the token path takes POST, not GET
    client.GET("/v1/token");
  });

  it("a missing required query parameter is a type error", () => {
    // @ts-expect-error end_user_id is required
    client.GET("/v1/accounts", { params: { query: { limit: 10 } } });
    // @ts-expect-error the params are required at all
    client.GET("/v1/accounts");
  });

  it("a wrong body is a type error", () => {
    client.POST("/v1/token", { body: { client_id: "id", client_secret: "secret" } });
    // @ts-expect-error client_secret is missing
    client.POST("/v1/token", { body: { client_id: "id" } });
    // @ts-expect-error client_secret is a string
    client.POST("/v1/token", { body: { client_id: "id", client_secret: 42 } });
  });

  it("cursor paging parameters are typed by their bracketed names", () => {
    client.GET("/v1/banking/accounts", {
      params: { query: { end_user_id: "eu_2f9c81d4", "page[size]": 100, "page[after]": "abc" } },
    });
    client.GET("/v1/banking/accounts", {
      // @ts-expect-error page[size] is a number
      params: { query: { end_user_id: "eu_2f9c81d4", "page[size]": "100" } },
    });
  });
});

describe("exact types: what the interface documents, nothing more", () => {
  it("error.message is a string on every operation", async () => {
    expectTypeOf<ErrorMessages<operations>>().toEqualTypeOf<{ [Id in keyof operations]: string }>();
    const { error } = await client.GET("/v1/accounts", { params: { query: { end_user_id: "eu_2f9c81d4" } } });
    expectTypeOf<NonNullable<typeof error>["message"]>().toEqualTypeOf<string>();
  });

  it("no schema accepts a key it does not name, except the detailed transactions envelope (a map)", () => {
    expectTypeOf<OpenPaths<components["schemas"]>>().toEqualTypeOf<"BankingTransactionList">();
  });

  it("a made-up field does not compile on a documented record", () => {
    const account = {} as Account;
    const banking = {} as BankingAccount;
    const consent = {} as ConsentList[number];
    const errors = {} as { short: ShortError; extended: ExtendedError };
    // @ts-expect-error not a field of Account
    void account.made_up_field;
    // @ts-expect-error not a field of BankingAccount
    void banking.made_up_field;
    // @ts-expect-error not a field of a consent (other fields exist, but none is documented)
    void consent.made_up_field;
    // @ts-expect-error not a field of the short error shape
    void errors.short.made_up_field;
    // @ts-expect-error not a field of the extended error shape
    void errors.extended.made_up_field;
  });
});

describe("the published declarations (dist/index.d.ts, through the package name)", () => {
  it("carry exactly the source's types", () => {
    expectTypeOf<Published.paths>().toEqualTypeOf<Source.paths>();
    expectTypeOf<Published.components>().toEqualTypeOf<Source.components>();
    expectTypeOf<Published.operations>().toEqualTypeOf<Source.operations>();
    // The client type is the shared runtime's, bundled into the declarations: a copy, so the same
    // shape both ways rather than one identical type.
    expectTypeOf<Published.Client>().toExtend<Source.Client>();
    expectTypeOf<Source.Client>().toExtend<Published.Client>();
    expectTypeOf<typeof Published.createClient>().toExtend<typeof Source.createClient>();
    expectTypeOf<typeof Source.createClient>().toExtend<typeof Published.createClient>();
    expectTypeOf<typeof Published.pagination>().toEqualTypeOf<typeof Source.pagination>();
    expectTypeOf<typeof Published.apiVersion>().toEqualTypeOf<"v2">();
  });
});
