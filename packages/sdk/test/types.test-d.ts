/** Type tests: the chosen version decides the client, the list paths and the item types. */
import { createClient as createV2Client } from "@cdas/client-v2";
import { describe, expectTypeOf, it } from "vitest";
// The model types come from @cdas/sdk itself: no second dependency needed.
import {
  type AnyCdasError,
  apiErrorOf,
  type CdasApiError,
  type CdasConnectionError,
  type CdasInvalidOptionsError,
  type CdasInvalidResponseError,
  type CdasPaginationLoopError,
  type CdasTimeoutError,
  createSdk,
  isCdasApiError,
  isCdasError,
  isSdkVersion,
  type Middleware,
  type Page,
  type Sdk,
  type SdkCallOptions,
  type V1,
  type V2,
  type V3,
  type Version,
} from "../src/index.js";

const credentials = { baseUrl: "https://api.example.com", clientId: "id", clientSecret: "secret" };
const v1 = createSdk({ version: "v1", ...credentials });
const v2 = createSdk({ version: "v2", ...credentials });
const v3 = createSdk({ version: "v3", ...credentials });
const query = { params: { query: { end_user_id: "eu_1" } } };

describe("sdk.client", () => {
  it("does not ask for what the SDK fills in: client_id of the institutions list", async () => {
    const { data } = await v1.client.GET("/v1/institutions", { params: { query: { industry: "energy" } } });
    expectTypeOf(data).toEqualTypeOf<V1.Institution[] | undefined>();
    v2.client.GET("/v1/institutions");
    // @ts-expect-error industry is banking or energy
    v1.client.GET("/v1/institutions", { params: { query: { industry: "water" } } });
  });

  it("returns the version's response types", async () => {
    const { data } = await v2.client.GET("/v1/banking/accounts", query);
    expectTypeOf(data).toMatchTypeOf<V2.BankingAccountList | undefined>();
    expectTypeOf(data).not.toMatchTypeOf<V1.BankingAccountList | undefined>();
    // @ts-expect-error an unknown path
    v2.client.GET("/v1/nope");
  });

  it("types error as the documented body or the SDK's error (an error answer without a body)", async () => {
    // The clients, which never put an error of their own there, keep openapi-fetch's type: the body.
    const bare = await createV2Client({ baseUrl: "https://api.example.com" }).GET("/v1/accounts", query);
    type Body = NonNullable<typeof bare.error>;
    expectTypeOf<Body["message"]>().toEqualTypeOf<string>();
    const { error } = await v2.client.GET("/v1/accounts", query);
    expectTypeOf<NonNullable<typeof error>>().toEqualTypeOf<Body | CdasApiError>();
    if (isCdasApiError(error)) expectTypeOf(error.status).toEqualTypeOf<number>();
    else if (error) expectTypeOf(error).toEqualTypeOf<Body>();
  });

  it("refuses a misspelt parameter or option, which openapi-fetch's own types let through", async () => {
    // @ts-expect-error `limt` is not a query parameter of the accounts list
    v2.client.GET("/v1/accounts", { params: { query: { end_user_id: "eu_1", limt: 5 } } });
    // @ts-expect-error nor of the institutions list, whose client_id the SDK fills in
    v3.client.GET("/v1/institutions", { params: { query: { industy: "energy" } } });
    // @ts-expect-error `param` is not an option of a call
    v1.client.GET("/v1/accounts", { param: query.params });
    // parseAs still decides the type of data
    const { data } = await v2.client.GET("/v1/accounts", { ...query, parseAs: "text" });
    expectTypeOf(data).toEqualTypeOf<string | undefined>();
  });

  it("checks a query built beforehand once it is typed with V2.paths, as the README says", async () => {
    const accountsQuery: V2.paths["/v1/accounts"]["get"]["parameters"]["query"] = {
      end_user_id: "eu_1",
      // @ts-expect-error `limt` is not a query parameter of the accounts list
      limt: 5,
    };
    await v2.client.GET("/v1/accounts", { params: { query: accountsQuery } });
    expectTypeOf(accountsQuery.limit).toEqualTypeOf<number | undefined>();
  });

  it("hands itself to a library typed against openapi-fetch's own client, as the version's OpenApiFetchClient", () => {
    const takesOpenApiFetchClient = (loose: V2.OpenApiFetchClient) => loose;
    takesOpenApiFetchClient(v2.client as V2.OpenApiFetchClient);
    expectTypeOf(v3.client as V3.OpenApiFetchClient).toHaveProperty("GET");
  });

  it("takes a middleware typed with the Middleware the SDK exports", () => {
    const middleware: Middleware = { onRequest: ({ request }) => request };
    expectTypeOf(middleware).toMatchTypeOf<Parameters<typeof v2.client.use>[0]>();
    v3.client.use(middleware);
    // @ts-expect-error a middleware's onRequest cannot return a string
    v3.client.use({ onRequest: () => "nope" });
  });

  it("needs a known version", () => {
    // @ts-expect-error there is no v9
    createSdk({ version: "v9", ...credentials });
    // @ts-expect-error version is required
    createSdk({ ...credentials });
  });
});

describe("sdk.withOptions", () => {
  it("returns an SDK of the same version, and takes only the limits of calls", () => {
    expectTypeOf(v2.withOptions({ timeoutMs: 5_000, maxRetries: 0 })).toEqualTypeOf<Sdk<"v2">>();
    expectTypeOf<keyof SdkCallOptions>().toEqualTypeOf<
      "timeoutMs" | "maxResponseBytes" | "maxRetries" | "retryBaseDelayMs" | "maxRetryDelayMs"
    >();
    // @ts-expect-error the version, the credentials and the address are createSdk's
    v2.withOptions({ version: "v3" });
  });
});

describe("sdk.paginate", () => {
  it("yields the item type of the version", () => {
    expectTypeOf(v1.paginate("/v1/banking/accounts", query)).toMatchTypeOf<
      AsyncIterable<V1.BankingAccount>
    >();
    expectTypeOf(v2.paginate("/v1/banking/accounts", query)).toMatchTypeOf<
      AsyncIterable<V2.BankingAccount>
    >();
    expectTypeOf(v1.paginate("/v1/transactions", query)).toMatchTypeOf<AsyncIterable<V1.Transaction>>();
    expectTypeOf(
      v2.paginate("/v1/banking/products", { params: { query: { institution_id: "inst_1" } } }),
    ).toMatchTypeOf<AsyncIterable<V2.BankingProduct>>();
  });

  it("differs between versions where the documents differ", async () => {
    for await (const account of v1.paginate("/v1/banking/accounts", query)) {
      type Activated = NonNullable<NonNullable<typeof account.features>[number]["is_activated"]>;
      expectTypeOf<Activated>().toEqualTypeOf<boolean>();
    }
    for await (const account of v2.paginate("/v1/banking/accounts", query)) {
      type Activated = NonNullable<NonNullable<typeof account.features>[number]["is_activated"]>;
      expectTypeOf<Activated>().toEqualTypeOf<V2.AccountFeature["is_activated"] & {}>();
      expectTypeOf<Activated>().not.toEqualTypeOf<boolean>();
    }
  });

  it("walks bare arrays in v1 and v3 envelopes", () => {
    expectTypeOf(v1.paginate("/v1/consent")).toMatchTypeOf<AsyncIterable<V1.ConsentList[number]>>();
    expectTypeOf(v3.paginate("/v1/consent")).toMatchTypeOf<AsyncIterable<V3.Consent>>();
    expectTypeOf(v3.paginate("/v1/end-users")).toMatchTypeOf<AsyncIterable<V3.EndUser>>();
    expectTypeOf(v1.paginate("/v1/institutions")).toMatchTypeOf<AsyncIterable<V1.Institution>>();
  });

  it("iterates whole pages with the body type", () => {
    expectTypeOf(v3.paginate("/v1/end-users").pages()).toEqualTypeOf<
      AsyncIterable<Page<V3.EndUser, V3.EndUserList>>
    >();
    expectTypeOf(v1.paginate("/v1/accounts", query).toArray()).toEqualTypeOf<Promise<V1.Account[]>>();
  });

  it("accepts only the version's list operations and their parameters", () => {
    // @ts-expect-error the token call is not a list
    v1.paginate("/v1/token");
    // @ts-expect-error a single product is not a list
    v2.paginate("/v1/banking/products/{product_id}", { params: { path: { product_id: "p" } } });
    // @ts-expect-error end_user_id is required
    v1.paginate("/v1/accounts");
    // @ts-expect-error end_user_id is required
    v1.paginate("/v1/accounts", { params: { query: {} } });
    // @ts-expect-error limit is a number
    v1.paginate("/v1/accounts", { params: { query: { end_user_id: "eu_1", limit: "ten" } } });
    v1.paginate("/v1/accounts", query, { maxItems: 10, maxPages: 2, pageSize: 100 });
  });

  it("fills client_id of the institutions list, so paginate makes it optional", () => {
    v1.paginate("/v1/institutions", { params: { query: { industry: "energy" } } });
    // @ts-expect-error industry is banking or energy
    v1.paginate("/v1/institutions", { params: { query: { industry: "water" } } });
  });
});

describe("what the SDK fills in is optional for paginate", () => {
  it("the version header is never asked for, on sdk.client or paginate", () => {
    v3.client.GET("/v1/consent");
    // @ts-expect-error the client sends the version header itself; its types do not offer it
    v3.client.GET("/v1/consent", { params: { header: { "X-Platform-Version": "v3" } } });
    v3.paginate("/v1/consent", {}, { pageSize: 50 });
    v3.paginate("/v1/consent", { params: { query: { "page[size]": 10 } } });
    v1.paginate("/v1/end-users");
    v2.paginate("/v1/institutions");
    // @ts-expect-error the v1 end-user list takes no query
    v1.paginate("/v1/end-users", { params: { query: { "page[size]": 10 } } });
  });
});

describe("code generic over the version", () => {
  const anyVersion = (version: Version) => createSdk({ version, ...credentials });

  it("paginates to the union of the versions' items", async () => {
    const sdk = anyVersion("v2");
    expectTypeOf(sdk.version).toEqualTypeOf<Version>();
    for await (const transaction of sdk.paginate("/v1/transactions", query)) {
      expectTypeOf(transaction).toEqualTypeOf<V1.Transaction | V2.Transaction | V3.Transaction>();
      expectTypeOf(transaction.id).toEqualTypeOf<V1.Transaction["id"]>();
    }
    expectTypeOf(sdk.paginate("/v1/consent").toArray()).toEqualTypeOf<
      Promise<(V1.ConsentList[number] | V2.ConsentList[number] | V3.Consent)[]>
    >();
  });

  it("calls sdk.client on the paths every version shares, answering the union of their bodies", async () => {
    const sdk = anyVersion("v3");
    const { data } = await sdk.client.GET("/v1/accounts", query);
    expectTypeOf(data).toEqualTypeOf<V1.AccountList | V2.AccountList | V3.AccountList | undefined>();
    await sdk.client.GET("/v1/institutions");
    // @ts-expect-error end_user_id is required in every version
    await sdk.client.GET("/v1/accounts", { params: { query: {} } });
    // @ts-expect-error a query parameter no version has
    await sdk.client.GET("/v1/accounts", { params: { query: { end_user_id: "eu_1", limt: 5 } } });
    // @ts-expect-error a path no version has
    await sdk.client.GET("/v1/nowhere");
  });

  it("narrows to one version, or some, with isSdkVersion", async () => {
    const sdk = anyVersion("v3");
    if (isSdkVersion(sdk, "v3")) {
      expectTypeOf(sdk).toEqualTypeOf<Sdk<"v3">>();
      for await (const consent of sdk.paginate("/v1/consent", { params: { query: { "page[size]": 5 } } })) {
        expectTypeOf(consent.arrangementId).toEqualTypeOf<string | undefined>();
      }
    }
    if (isSdkVersion(sdk, "v1", "v2")) {
      expectTypeOf(sdk).toEqualTypeOf<Sdk<"v1" | "v2">>();
      const { data } = await sdk.client.GET("/v1/consent");
      expectTypeOf(data).toEqualTypeOf<V1.ConsentList | V2.ConsentList | undefined>();
      // @ts-expect-error page[size] is v3's
      sdk.paginate("/v1/consent", { params: { query: { "page[size]": 5 } } });
    }
    // @ts-expect-error not a version (and never one: versions start at v1)
    isSdkVersion(sdk, "v0");
  });

  it("still checks the paths and the options", () => {
    const sdk = anyVersion("v1");
    // @ts-expect-error the token call is not a list
    sdk.paginate("/v1/token");
    sdk.paginate("/v1/accounts", query, { prefetch: true, pageSize: 100 });
    // @ts-expect-error prefetch is a boolean
    sdk.paginate("/v1/accounts", query, { prefetch: "yes" });
  });
});

describe("errors", () => {
  it("isCdasError narrows to the union of the kinds, which code narrows to each class", () => {
    const failure: unknown = new Error("x");
    if (!isCdasError(failure)) return;
    expectTypeOf(failure).toEqualTypeOf<AnyCdasError>();
    switch (failure.code) {
      case "api":
        expectTypeOf(failure).toEqualTypeOf<CdasApiError>();
        expectTypeOf(failure.status).toEqualTypeOf<number>();
        break;
      case "network":
        expectTypeOf(failure).toEqualTypeOf<CdasConnectionError>();
        expectTypeOf(failure.retryable).toEqualTypeOf<boolean>();
        break;
      case "timeout":
        expectTypeOf(failure).toEqualTypeOf<CdasTimeoutError>();
        break;
      case "invalid_response":
        expectTypeOf(failure).toEqualTypeOf<CdasInvalidResponseError>();
        break;
      case "pagination_loop":
        expectTypeOf(failure).toEqualTypeOf<CdasPaginationLoopError>();
        break;
      case "invalid_options":
        expectTypeOf(failure).toEqualTypeOf<CdasInvalidOptionsError>();
        break;
      default:
        // Every code is a case: a kind added without one fails here.
        expectTypeOf(failure).toEqualTypeOf<never>();
    }
  });

  it("apiErrorOf takes a result of sdk.client, of any method, and gives the SDK's error or undefined", async () => {
    const read = await v2.client.GET("/v1/accounts", query);
    expectTypeOf(apiErrorOf(read)).toEqualTypeOf<CdasApiError | undefined>();
    const written = await v3.client.POST("/v1/auth/session", { body: {} });
    expectTypeOf(apiErrorOf(written)).toEqualTypeOf<CdasApiError | undefined>();
  });
});
