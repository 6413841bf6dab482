import type { ErrorMessages, OpenPaths } from "@cdas/client-tooling/testing";
import type * as Published from "@cdas/client-v1";
import type { Client as OpenApiFetchClientOf } from "openapi-fetch";
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
  type OpenApiFetchClient,
  type operations,
  pagination,
  type paths,
  type RateTier,
  type ShortError,
} from "../src/index.js";

const client = createClient({ baseUrl: "https://api.example.com" });
type Feature = NonNullable<BankingAccount["features"]>[number];

describe("what version 1 looks like", () => {
  it("rate tier bounds are numbers", () => {
    expectTypeOf<NonNullable<RateTier["minimum_value"]>>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<RateTier["maximum_value"]>>().toEqualTypeOf<number>();
  });

  it("fees are flat: amount and rates at the top, no method union", () => {
    expectTypeOf<Fee>().toHaveProperty("amount");
    expectTypeOf<Fee>().toHaveProperty("balance_rate");
    expectTypeOf<Fee>().not.toHaveProperty("fee_method_u_type");
    expectTypeOf<Fee>().not.toHaveProperty("fixed_amount");
  });

  it("account feature is_activated is a boolean", () => {
    expectTypeOf<NonNullable<Feature["is_activated"]>>().toEqualTypeOf<boolean>();
  });

  it("common identity still has the deprecated customer", () => {
    expectTypeOf<CommonIdentityResponse>().toHaveProperty("customer");
    expectTypeOf<CommonIdentityResponse>().toHaveProperty("identities");
  });

  it("an object whose fields the interface does not document has fields of unknown type, not none", () => {
    // openapi-typescript's default for such an object, Record<string, never>, would type every field as never.
    type ExtendedData = NonNullable<components["schemas"]["BankingTransactionExtendedData"]>;
    expectTypeOf<NonNullable<ExtendedData["nppPayload"]>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<components["schemas"]["CommonIdentity"]>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<NonNullable<CommonIdentityResponse["customer"]>>().toEqualTypeOf<Record<string, unknown>>();
  });

  it("the consent list is a bare array with snake_case fields, not paged", async () => {
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

  // The exact init is the clients' shared runtime's (ExactClient), the same in every version: checked here once.
  it("a misspelt parameter or option is a type error (openapi-fetch's own types let it through)", () => {
    const query = { end_user_id: "eu_2f9c81d4" };
    // @ts-expect-error `limt` is not a query parameter of the accounts list
    client.GET("/v1/accounts", { params: { query: { ...query, limt: 5 } } });
    // @ts-expect-error `param` is not an option of a call
    client.GET("/v1/accounts", { param: { query } });
    // @ts-expect-error the same through `request`
    client.request("get", "/v1/accounts", { params: { query: { ...query, limt: 5 } } });
  });

  it("a query built beforehand is checked once typed as the README says; untyped, a misspelling passes", () => {
    const untyped = { end_user_id: "eu_2f9c81d4", limt: 5 };
    client.GET("/v1/accounts", { params: { query: untyped } }); // TypeScript checks a literal's keys only
    const typed: paths["/v1/accounts"]["get"]["parameters"]["query"] = {
      end_user_id: "eu_2f9c81d4",
      // @ts-expect-error `limt` is not a query parameter of the accounts list
      limt: 5,
    };
    expectTypeOf(typed.limit).toEqualTypeOf<number | undefined>();
  });

  it("hands itself to a library typed against openapi-fetch's own client as OpenApiFetchClient", () => {
    const takesOpenApiFetchClient = (loose: OpenApiFetchClientOf<paths>) => loose;
    // @ts-expect-error the exact client is not openapi-fetch's type (their methods' signatures differ)
    takesOpenApiFetchClient(client);
    expectTypeOf(takesOpenApiFetchClient(client as OpenApiFetchClient)).toEqualTypeOf<
      OpenApiFetchClientOf<paths>
    >();
  });

  it("the type of data follows parseAs", async () => {
    const query = { end_user_id: "eu_2f9c81d4" };
    const json = await client.GET("/v1/accounts", { params: { query } });
    expectTypeOf<NonNullable<typeof json.data>>().toEqualTypeOf<AccountList>();
    const text = await client.GET("/v1/accounts", { params: { query }, parseAs: "text" });
    expectTypeOf<NonNullable<typeof text.data>>().toEqualTypeOf<string>();
    const stream = await client.GET("/v1/accounts", { params: { query }, parseAs: "stream" });
    expectTypeOf<NonNullable<typeof stream.data>>().toEqualTypeOf<NonNullable<Response["body"]>>();
    // Options of fetch's own pass, as with openapi-fetch.
    client.GET("/v1/accounts", { params: { query }, signal: AbortSignal.timeout(1000), cache: "no-store" });
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
    expectTypeOf<typeof Published.apiVersion>().toEqualTypeOf<"v1">();
  });
});
