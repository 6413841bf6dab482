// Every value constraint in the bundles, each with the interface's words that state it. A constraint the
// interface does not state refuses data the real service may send (a validating proxy, the sandbox's
// request validation, a user's own Ajv), so a new one fails here until it is justified or removed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { INTERFACE_SPEC, loadBundle, type Node, VERSIONS, type Version } from "./helpers";

/** Keywords that narrow what a schema, a parameter or a body accepts. */
const CONSTRAINTS = [
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "multipleOf",
  "const",
  "enum",
  "required",
  "additionalProperties",
] as const;

/**
 * Where a constraint is (`schemas/Account.creation_date`, `GET /v1/accounts query limit`), the keyword
 * and its value: the key of JUSTIFIED. The version header's enum is written `[<version>]`.
 */
type Found = { key: string; versions: Version[] };

// The interface's words, quoted from /work/shared/interface-spec.md, for every constraint kept.
const JUSTIFIED: Record<string, string> = {
  // Dates and timestamps: format only where the interface gives `YYYY-MM-DD` or ISO 8601.
  "schemas/Account.creation_date format=date": "Account: `creation_date` string, Date, `YYYY-MM-DD`",
  "schemas/Transaction.posted_date format=date": "Transaction: `posted_date` string, `YYYY-MM-DD`",
  "schemas/Transaction.execution_date format=date": "Transaction: `execution_date` string, `YYYY-MM-DD`",
  "schemas/Identity.date_of_birth format=date": "Identity: `date_of_birth` string, For PERSON, `YYYY-MM-DD`",
  "GET /v1/transactions query from_date format=date": "`from_date`, `to_date` (`YYYY-MM-DD`, both inclusive)",
  "GET /v1/transactions query to_date format=date": "`from_date`, `to_date` (`YYYY-MM-DD`, both inclusive)",
  "schemas/EnergyBalance.as_of format=date-time": "Energy balance: `as_of` string, Timestamp (ISO 8601)",
  "schemas/BankingProduct.effective_from format=date-time":
    "Detailed banking product: `effective_from`, `effective_to`, `last_updated` (timestamps, ISO 8601)",
  "schemas/BankingProduct.effective_to format=date-time":
    "Detailed banking product: `effective_from`, `effective_to`, `last_updated` (timestamps, ISO 8601)",
  "schemas/BankingProduct.last_updated format=date-time":
    "Detailed banking product: `effective_from`, `effective_to`, `last_updated` (timestamps, ISO 8601)",
  // Durations: format only where the interface says ISO 8601 duration.
  "schemas/BankingRateBase.application_frequency format=duration":
    "Rate object: `application_frequency` (ISO 8601 duration)",
  "schemas/BankingRateBase.calculation_frequency format=duration":
    "Rate object: `calculation_frequency` (ISO 8601 duration)",
  "schemas/IdentityEmail.address format=email": "Identity: `emails` objects: `address` (string, e-mail)",

  // Enumerations the interface gives complete.
  "schemas/OpenStatus enum=OPEN,CLOSED":
    "Account: `open_status` `OPEN` or `CLOSED`; `/v1/accounts` query `open_status` (`OPEN`, `CLOSED`)",
  "schemas/Transaction.status enum=POSTED,PENDING": "Transaction: `status` `POSTED` or `PENDING`",
  "schemas/Transaction.type enum=DEBIT,CREDIT": "Transaction: `type` `DEBIT` or `CREDIT`",
  "GET /v1/transactions query status enum=POSTED,PENDING":
    "`/v1/transactions`: `status` (`POSTED`, `PENDING`)",
  "schemas/ServicePoint.classification enum=SMALL,LARGE":
    "Service point: `classification` `SMALL` or `LARGE`",
  "schemas/ServicePoint.status enum=ACTIVE,INACTIVE": "Service point: `status` `ACTIVE` or `INACTIVE`",
  "schemas/ServicePoint.meter_type enum=SMART,BASIC,INTERVAL":
    "Service point: `meter_type` `SMART`, `BASIC`, `INTERVAL`",
  "schemas/ServicePointRegister.register_type enum=CONSUMPTION,GENERATION,DEMAND":
    "Service point: `registers` objects with `register_type` (`CONSUMPTION`, `GENERATION`, `DEMAND`)",
  "schemas/Concession.type enum=GOVERNMENT,RETAILER,HARDSHIP,LOYALTY":
    "Concession: `type` `GOVERNMENT`, `RETAILER`, `HARDSHIP`, `LOYALTY`",
  "schemas/Identity.type enum=PERSON,ORGANISATION": "Identity: `type` `PERSON` or `ORGANISATION`",
  "schemas/IdentityAddress.type enum=RESIDENTIAL,MAILING,BUSINESS,REGISTERED":
    "Identity: `addresses` objects: `type` (`RESIDENTIAL`, `MAILING`, `BUSINESS`, `REGISTERED`)",
  "schemas/IdentityPhone.type enum=MOBILE,HOME,BUSINESS":
    "Identity: `phones` objects: `type` (`MOBILE`, `HOME`, `BUSINESS`)",
  "schemas/Income.frequency enum=WEEKLY,FORTNIGHTLY,MONTHLY,IRREGULAR":
    "Income: `frequency` `WEEKLY`, `FORTNIGHTLY`, `MONTHLY` in the model; `IRREGULAR` also listed",
  "schemas/ScheduledPayment.frequency enum=WEEKLY,FORTNIGHTLY,MONTHLY,QUARTERLY,ANNUALLY,ONE_OFF":
    "Scheduled payment: `frequency` `WEEKLY`, `FORTNIGHTLY`, `MONTHLY`, `QUARTERLY`, `ANNUALLY`, `ONE_OFF`",
  "schemas/Payee.type enum=DOMESTIC,BILLER,INTERNATIONAL":
    "Payee: `type` `DOMESTIC`, `BILLER`, `INTERNATIONAL`",
  "GET /v1/payees query type enum=DOMESTIC,BILLER,INTERNATIONAL":
    "`/v1/payees`: `type` (`DOMESTIC`, `BILLER`, `INTERNATIONAL`)",
  "schemas/Institution.industry enum=banking,energy": "Institution: `industry` `banking` or `energy`",
  "GET /v1/institutions query industry enum=banking,energy":
    "Institutions query: `industry` (`banking` or `energy`)",
  "GET /v1/institutions query institution_mode enum=recommended":
    "Institutions query: `institution_mode` (only value `recommended`)",
  "GET /v1/energy/plans query status enum=active,all":
    "`/v1/energy/plans`: `status` (`active` or `all`, default `active`)",
  "schemas/TokenResponseAccessToken.token_type enum=Bearer":
    "Token response: `token_type` string `Bearer` (same form)",
  "schemas/Fee.allOf[1].fee_method_u_type enum=fixedAmount,rateBased":
    "Versioning, fees in version 2: `fee_method_u_type` (values `fixedAmount`, `rateBased`)",
  "parameters/PlatformVersion enum=[<version>]":
    "Versioning 2: header `X-Platform-Version` (value `v1`, `v2` or `v3`); each bundle describes one version",
  "parameters/PlatformVersionRequired enum=[<version>]":
    "Versioning 2: header `X-Platform-Version` (value `v1`, `v2` or `v3`); each bundle describes one version",

  // Ranges.
  "schemas/Income.confidence minimum=0": "Income: `confidence` number, 0 to 1",
  "schemas/Income.confidence maximum=1": "Income: `confidence` number, 0 to 1",
  "parameters/PageSize maximum=1000":
    "`page[size]` (integer, capped at 1000); Limits: `page[size]` maximum 1000, all cursor-paged lists",

  // Required parameters and bodies.
  "parameters/EndUserId required=true": "Most data reads: `end_user_id` (required)",
  "parameters/PlatformVersionRequired required=true":
    "Versioning 3: in version 3 the header is documented as required on `GET /consent` and `GET /end-users`",
  "GET /v1/institutions query client_id required=true": "Institutions query: `client_id` (string, required)",
  "GET /v1/banking/products/{product_id} path product_id required=true":
    "`/v1/banking/products/{product_id}`: path `product_id` (string, required)",
  "POST /v1/token requestBody required=true":
    "Token: Body (JSON) `client_id` (required), `client_secret` (required)",
  "POST /v1/auth/session requestBody required=true":
    "Auth session: Body (JSON) `cancel_uri`, `end_user_id`, `institution_id`, `redirect_uri`",
  "schemas/TokenRequest required=client_id,client_secret":
    "Token: Body (JSON) `client_id` (string, required), `client_secret` (string, required)",
  "schemas/TokenResponseAccessToken required=access_token,token_type,expires_in":
    "Token: Response JSON with a token and `expires_in`; this form carries `access_token` and `token_type`",
  "schemas/TokenResponseToken required=token,expires_in":
    "Token: Response JSON with a token and `expires_in`; this form carries `token`",

  // Error shapes: every field of the shape the interface gives.
  "schemas/ShortError required=id,message,name":
    "Errors: Short shape, fields `id` (string), `message` (string), `name` (string)",
  "schemas/ExtendedError required=id,message,name,fault,temporary,timeout":
    "Errors: Extended shape, `id`, `message`, `name`, plus `fault` (boolean), `temporary` (boolean), `timeout` (boolean)",

  // Envelopes: the list key the interface writes in each response shape (links only where not `links?`).
  "schemas/AccountList required=data":
    "`/v1/accounts` response `{data: [Account], links: {next}}`; a `links` object may be present",
  "schemas/TransactionList required=data":
    "`/v1/transactions` response `{data: [Transaction], links: {next}}`; a `links` object may be present",
  "schemas/ServicePointList required=data": "`/v1/service-points` response `{data: [Service point]}`",
  "schemas/ConcessionList required=data": "`/v1/concessions` response `{data: [Concession]}`",
  "schemas/IdentityList required=data": "`/v1/identity` response `{data: [Identity]}`",
  "schemas/Identity required=consent_id": "Identity: `consent_id` string, Consent (present in responses)",
  "schemas/IncomeList required=data": "`/v1/income` response `{data: [Income]}`",
  "schemas/ScheduledPaymentList required=data":
    "`/v1/scheduled-payments` response `{data: [Scheduled payment]}`",
  "schemas/PayeeList required=data": "`/v1/payees` response `{data: [Payee]}`",
  "schemas/ProductList required=data":
    "Summary family: `/v1/accounts`, `/v1/transactions`, `/v1/service-points`, `/v1/concessions`, `/v1/identity`, `/v1/income`, `/v1/scheduled-payments`, `/v1/payees`, `/v1/products`, `/v1/energy-balances`. The list is in an array under `data`",
  "schemas/EnergyBalanceList required=data": "`/v1/energy-balances` response `{data: [Energy balance]}`",
  "schemas/BankingAccountList required=accounts,links":
    "`/v1/banking/accounts` response `{accounts: [...], links: {next, prev}}`",
  "schemas/DirectDebitList required=direct_debits,links":
    "`/v1/banking/acccounts/direct-debits` response `{direct_debits: [...], links}`",
  "schemas/BankingScheduledPaymentList required=scheduled_payments,links":
    "`/v1/banking/payments/scheduled` response `{scheduled_payments: [...], links}`",
  "schemas/BankingProductList required=products,links":
    "`/v1/banking/products` response `{products: [...], links}`",
  "schemas/BankingProductResponse required=product":
    "`/v1/banking/products/{product_id}` response `{product: {...}}`",
  "schemas/DerRecordList required=der_records,links":
    "`/v1/energy/der` response `{der_records: [...], links}`",
  "schemas/EnergyAccountBalanceList required=balances,links":
    "`/v1/energy/balances` response `{balances: [...], links}`",
  "schemas/EnergyPlanList required=plans,links": "`/v1/energy/plans` response `{plans: [...], links}`",
  "schemas/CommonIdentityResponse required=identities":
    "Identity response: has `customer` (deprecated) and `identities[]` in version 1; `identities[]` unchanged in version 2",
  "schemas/ConsentList required=consents":
    "`GET /v1/consent` in version 3: `{consents: [...], links?: {next, prev}}`",
  "schemas/EndUserList required=end_users":
    "`GET /v1/end-users` in version 3: `{end_users: [...], links?: {next, prev}}`",
};

/** Every constraint of one bundle, keyed as in JUSTIFIED. */
function constraintsOf(doc: Node, version: Version): string[] {
  const found: string[] = [];
  const visit = (node: unknown, where: string): void => {
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node as Node)) {
      if (key === "example" || key === "examples" || key.startsWith("x-")) continue;
      if ((CONSTRAINTS as readonly string[]).includes(key) && isConstraint(key, value)) {
        found.push(`${where} ${key}=${show(key, value, version)}`);
      }
      if (key === "properties") {
        for (const [name, child] of Object.entries(value as Node)) visit(child, `${where}.${name}`);
      } else if (key === "parameters" && Array.isArray(value)) {
        for (const parameter of value as Node[])
          visit(parameter, `${where} ${parameter.in} ${parameter.name}`);
      } else if (["allOf", "oneOf", "anyOf"].includes(key) && Array.isArray(value)) {
        for (const [index, member] of value.entries()) visit(member, `${where}.${key}[${index}]`);
      } else if (key === "items") {
        visit(value, `${where}[]`);
      } else if (key === "requestBody") {
        visit(value, `${where} requestBody`);
      } else {
        visit(value, where); // responses, content, media types, schema: the place stays the same
      }
    }
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    visit(schema, `schemas/${name}`);
  for (const [name, parameter] of Object.entries(doc.components?.parameters ?? {}))
    visit(parameter, `parameters/${name}`);
  for (const [name, response] of Object.entries(doc.components?.responses ?? {}))
    visit(response, `responses/${name}`);
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Node))
      visit(operation, `${method.toUpperCase()} ${path}`);
  }
  return found;
}

/** `required: false` and `additionalProperties` other than `false` accept everything: not constraints. */
function isConstraint(key: string, value: unknown): boolean {
  if (key === "required") return value === true || (Array.isArray(value) && value.length > 0);
  if (key === "additionalProperties") return value === false;
  return true;
}

function show(key: string, value: unknown, version: Version): string {
  if (key === "enum" && Array.isArray(value) && value.length === 1 && value[0] === version)
    return "[<version>]";
  return Array.isArray(value) ? value.join(",") : String(value);
}

function allConstraints(): Found[] {
  const byKey = new Map<string, Version[]>();
  for (const version of VERSIONS) {
    for (const key of new Set(constraintsOf(loadBundle(version), version))) {
      byKey.set(key, [...(byKey.get(key) ?? []), version]);
    }
  }
  return [...byKey].map(([key, versions]) => ({ key, versions }));
}

describe("every constraint in the bundles is stated by the interface", () => {
  const found = allConstraints();

  it.each(found.map((c) => [c.key, c.versions.join(",")]))("%s (%s)", (key) => {
    expect(
      JUSTIFIED[key],
      `${key}: no justification; cite the interface here or remove the constraint`,
    ).toEqual(expect.any(String));
  });

  it("every justification names a constraint the bundles still have", () => {
    const keys = new Set(found.map((c) => c.key));
    expect(Object.keys(JUSTIFIED).filter((key) => !keys.has(key))).toEqual([]);
  });

  it("no address, pattern or length constraint the interface never states", () => {
    const invented = found.filter((c) => /format=(uri|url|hostname|uuid)|pattern=|Length=/.test(c.key));
    expect(invented.map((c) => c.key)).toEqual([]);
  });
});

// Examples given in prose ("for example X", "e.g. X", "such as X") in the bundles' descriptions and
// summaries. A value the interface never gives (a kind of fee, a street type, `0.0475` for a rate whose
// notation it does not state) reads as a fact of the API, so each example kept is one of: a value the
// interface itself gives (its words quoted verbatim), a value of a format it states (`conforms`), or an
// id of the documents' example payloads, which the sandbox serves (`payloadId`).
type ProseExample = { quote: string; conforms?: RegExp } | { payloadId: true };
const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
const PROSE_EXAMPLES: Record<string, ProseExample> = {
  "`ACTIVATED`": { quote: "Account feature `is_activated` | boolean | string enum (e.g. `ACTIVATED`)" },
  periodic: { quote: "Rate objects | none | also have `application_type` (e.g. periodic)" },
  "`P1M`": { quote: "`application_frequency` (ISO 8601 duration)", conforms: ISO_DURATION },
  "`P1D`": { quote: "`calculation_frequency` (ISO 8601 duration)", conforms: ISO_DURATION },
  "`acc_agl_5520`": { payloadId: true },
  "`sess_b41e9a06` in its example": { payloadId: true },
};

const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();
const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");

/** Every prose example of one bundle: the text after "for example", "e.g." or "such as", up to `)`, `;` or a full stop. */
function proseExamplesOf(doc: Node): { example: string; where: string }[] {
  const found: { example: string; where: string }[] = [];
  const visit = (node: unknown, where: string): void => {
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node as Node)) {
      if (key === "example" || key === "examples") continue;
      if ((key === "description" || key === "summary") && typeof value === "string") {
        for (const match of squeeze(value).matchAll(
          /\b(?:for example|e\.g\.|such as)\s+(.+?)(?=[);]|\.(?:\s|$)|$)/gi,
        )) {
          found.push({ example: (match[1] ?? "").replace(/^["']|["']$/g, "").trim(), where });
        }
      }
      visit(value, `${where}/${key}`);
    }
  };
  visit(doc, "#");
  return found;
}

/** Every string of the example payloads of one bundle, joined. */
function payloadText(doc: Node): string {
  const parts: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node as Node)) {
      if (key === "example" || key === "examples") parts.push(JSON.stringify(value));
      else visit(value);
    }
  };
  visit(doc);
  return parts.join("\n");
}

describe("every example given in prose is the interface's own (or a sandbox id of the examples)", () => {
  const found = VERSIONS.flatMap((version) =>
    proseExamplesOf(loadBundle(version)).map((entry) => ({ ...entry, version })),
  );

  it("finds the prose examples", () => {
    expect(found.length).toBeGreaterThan(0);
  });

  it("every prose example is listed with its grounds", () => {
    const unlisted = found.filter((entry) => !(entry.example in PROSE_EXAMPLES));
    expect(
      unlisted.map((entry) => `${entry.version} ${entry.where}: (for example ${entry.example})`),
      "an example the interface does not give: remove it (keep the sentence; say the values are not documented), or cite the interface in PROSE_EXAMPLES",
    ).toEqual([]);
  });

  it.each(Object.entries(PROSE_EXAMPLES))("%s is grounded", (example, ground) => {
    if ("payloadId" in ground) {
      const ids = backticked(example);
      expect(ids.length).toBeGreaterThan(0);
      for (const version of VERSIONS.filter((v) =>
        found.some((e) => e.version === v && e.example === example),
      )) {
        const payloads = payloadText(loadBundle(version));
        for (const id of ids) expect(payloads, `${id} in the example payloads of ${version}`).toContain(id);
      }
      return;
    }
    const values = backticked(example);
    if (values.length === 0) expect(ground.quote).toContain(example);
    for (const value of values) {
      const stated = ground.quote.includes(`\`${value}\``) || (ground.conforms?.test(value) ?? false);
      expect(stated, `${value}: neither in "${ground.quote}" nor of its format`).toBe(true);
    }
  });

  it("every quote is the interface's text, verbatim", () => {
    const text = squeeze(readFileSync(INTERFACE_SPEC, "utf8"));
    const quotes = Object.values(PROSE_EXAMPLES).flatMap((ground) =>
      "quote" in ground ? [ground.quote] : [],
    );
    expect(quotes.filter((quote) => !text.includes(squeeze(quote)))).toEqual([]);
  });

  it("every listed example is still in the bundles", () => {
    const examples = new Set(found.map((entry) => entry.example));
    expect(Object.keys(PROSE_EXAMPLES).filter((example) => !examples.has(example))).toEqual([]);
  });
});
