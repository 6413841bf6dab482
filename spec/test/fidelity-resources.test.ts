// Interface spec, "Resources and their fields" and "States and transitions": one block per table.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  accepting,
  bool,
  type Expectation,
  expectSchema,
  type FieldRow,
  fieldRows,
  oneOf,
  openString,
} from "./expectations";
import { component, flatten, inline, loadBundle, schemaAt, VERSIONS, type Version } from "./helpers";
import {
  BANKING_PRODUCT,
  bankingAccount,
  bankingProductDetail,
  consent,
  PRODUCT_CATEGORIES,
  RESOURCES,
  TOKEN_RESPONSE_SHAPES,
} from "./interface-model";

/** Table rows for a component in every version: [version, field, expectation]. */
function rowsFor(expectation: Expectation | ((v: Version) => Expectation)): [Version, string, FieldRow][] {
  return VERSIONS.flatMap((v) =>
    fieldRows(typeof expectation === "function" ? expectation(v) : expectation).map(
      (row): [Version, string, FieldRow] => [v, row.field, row],
    ),
  );
}

/** One describe block per resource table: every field, its type, nullability, format and values. */
function resourceTable(
  title: string,
  name: string,
  expectation: Expectation | ((v: Version) => Expectation),
) {
  describe(title, () => {
    it.each(rowsFor(expectation))(`%s ${name}.%s`, (version, _field, row) => {
      const doc = loadBundle(version);
      const where = `${version} ${name}.${row.field}`;
      expectSchema(doc, schemaAt(doc, component(doc, name), row.path), row.expectation, where);
    });
  });
}

const strictTypesOff = () => new Ajv2020({ strictTypes: false, strict: false, allErrors: true });

describe("Token response (two shapes)", () => {
  it.each(VERSIONS)("%s TokenResponse is a oneOf of exactly the two shapes", (version) => {
    const doc = loadBundle(version);
    const branches = flatten(doc, component(doc, "TokenResponse")).branches;
    expect(branches.map((b) => JSON.stringify(inline(doc, b))).sort()).toEqual(
      ["TokenResponseAccessToken", "TokenResponseToken"]
        .map((name) => JSON.stringify(inline(doc, component(doc, name))))
        .sort(),
    );
  });

  it.each(VERSIONS)("%s TokenResponse accepts each form and tells them apart", (version) => {
    const doc = loadBundle(version);
    const validate = strictTypesOff().compile(inline(doc, component(doc, "TokenResponse")) as object);
    expect(validate({ access_token: "eyJhbGciOi", token_type: "Bearer", expires_in: 3600 })).toBe(true);
    expect(validate({ token: "eyJhbGciOi", expires_in: 900 })).toBe(true);
    expect(validate({ expires_in: 900 }), "a body with no token is not a token response").toBe(false);
  });

  for (const [name, expectation] of Object.entries(TOKEN_RESPONSE_SHAPES)) {
    it.each(rowsFor(expectation))(`%s ${name}.%s`, (version, _field, row) => {
      const doc = loadBundle(version);
      expectSchema(doc, schemaAt(doc, component(doc, name), row.path), row.expectation, `${version} ${name}`);
    });
  }
});

resourceTable("Account (summary family)", "Account", RESOURCES.Account!);

describe("Product categories (common categories, not necessarily complete)", () => {
  it.each(VERSIONS)(
    "%s ProductCategory is an open string that accepts the listed and other values",
    (version) => {
      const doc = loadBundle(version);
      const validate = strictTypesOff().compile(inline(doc, component(doc, "ProductCategory")) as object);
      for (const category of [...PRODUCT_CATEGORIES, "BUY_NOW_PAY_LATER"])
        expect(validate(category), category).toBe(true);
      expect(validate(42)).toBe(false);
    },
  );
});

resourceTable("Transaction (summary family)", "Transaction", RESOURCES.Transaction!);
describe("Transaction: the interface links no field to status", () => {
  it.each(VERSIONS)(
    "%s posted_date is neither required nor conditional on status, and its description says so",
    (version) => {
      const doc = loadBundle(version);
      const transaction = inline(doc, component(doc, "Transaction")) as Record<string, unknown>;
      expect([...flatten(doc, transaction).required]).not.toContain("posted_date");
      for (const keyword of ["if", "then", "else", "dependentRequired", "dependentSchemas", "oneOf", "anyOf"])
        expect(
          transaction,
          `no ${keyword}: the interface says nothing of posted_date by status`,
        ).not.toHaveProperty(keyword);
      const postedDate = flatten(doc, schemaAt(doc, transaction, ["posted_date"]));
      expect(postedDate.description).toMatch(/does not say whether a `PENDING` transaction has one/);
    },
  );
});
resourceTable("Service point (summary family)", "ServicePoint", RESOURCES.ServicePoint!);
resourceTable("Concession (summary family)", "Concession", RESOURCES.Concession!);
resourceTable("Identity (summary family)", "Identity", RESOURCES.Identity!);

describe("Identity: available fields depend on the permissions granted; consent_id is present in responses", () => {
  it.each(VERSIONS)("%s Identity requires consent_id and no other field", (version) => {
    const doc = loadBundle(version);
    expect([...flatten(doc, component(doc, "Identity")).required]).toEqual(["consent_id"]);
  });
});

resourceTable("Income (summary family)", "Income", RESOURCES.Income!);
describe("Income: confidence bands", () => {
  it.each(VERSIONS)(
    "%s confidence states the bands (0.9 high, 0.7 medium, 0.5 low, below very low)",
    (version) => {
      const doc = loadBundle(version);
      const confidence = schemaAt(doc, component(doc, "Income"), ["confidence"]);
      const text = JSON.stringify(inline(doc, confidence));
      for (const word of ["0.9", "0.7", "0.5", "high", "medium", "low"]) expect(text).toContain(word);
    },
  );
});

resourceTable("Scheduled payment (summary family)", "ScheduledPayment", RESOURCES.ScheduledPayment!);
resourceTable("Payee (summary family)", "Payee", RESOURCES.Payee!);
resourceTable("Product (summary family)", "Product", RESOURCES.Product!);
resourceTable("Energy balance (summary family)", "EnergyBalance", RESOURCES.EnergyBalance!);
resourceTable("Institution", "Institution", RESOURCES.Institution!);
resourceTable("Auth session", "AuthSession", RESOURCES.AuthSession!);

describe("Consent and end user (version 3 list envelopes)", () => {
  it.each(rowsFor(consent))("%s Consent.%s", (version, _field, row) => {
    const doc = loadBundle(version);
    expectSchema(
      doc,
      schemaAt(doc, component(doc, "Consent"), row.path),
      row.expectation,
      `${version} Consent`,
    );
  });
  it.each(VERSIONS)("%s Consent marks no field required (its field list is not shown)", (version) => {
    const doc = loadBundle(version);
    expect([...flatten(doc, component(doc, "Consent")).required]).toEqual([]);
  });
  it.each(rowsFor(RESOURCES.EndUser!))("%s EndUser.%s", (version, _field, row) => {
    const doc = loadBundle(version);
    expectSchema(
      doc,
      schemaAt(doc, component(doc, "EndUser"), row.path),
      row.expectation,
      `${version} EndUser`,
    );
  });
});

resourceTable("Detailed banking account (/v1/banking/accounts)", "BankingAccount", bankingAccount);
resourceTable("Detailed banking product (items of products)", "BankingProduct", BANKING_PRODUCT);
resourceTable(
  "Detailed banking product (product, single-product form)",
  "BankingProductDetail",
  bankingProductDetail,
);
resourceTable("Direct debit (direct_debits[])", "DirectDebit", RESOURCES.DirectDebit!);
resourceTable(
  "Detailed energy balance (balances[])",
  "EnergyAccountBalance",
  RESOURCES.EnergyAccountBalance!,
);
resourceTable("DER record (der_records[])", "DerRecord", RESOURCES.DerRecord!);
resourceTable("Energy plan (plans[])", "EnergyPlan", RESOURCES.EnergyPlan!);
resourceTable(
  "Detailed scheduled payment (scheduled_payments[])",
  "BankingScheduledPayment",
  RESOURCES.BankingScheduledPayment!,
);

describe("Detailed family: money and rate values are strings", () => {
  const moneyAndRates: [string, string[]][] = [
    ["BankingAccount", ["deposit_rate"]],
    ["BankingAccount", ["lending_rate"]],
    ["BankingAccount", ["credit_card", "min_payment_amount"]],
    ["BankingAccount", ["credit_card", "payment_due_amount"]],
    ["BankingAccount", ["deposit_rates", "[]", "rate"]],
    ["BankingAccount", ["lending_rates", "[]", "rate"]],
    ["BankingAccount", ["lending_rates", "[]", "comparison_rate"]],
    ["BankingAccount", ["loan", "original_loan_amount"]],
    ["BankingAccount", ["loan", "min_instalment_amount"]],
    ["BankingAccount", ["term_deposit", "[]", "maturity_amount"]],
    ["DirectDebit", ["last_debit_amount"]],
    ["EnergyAccountBalance", ["balance"]],
    ["BankingScheduledPayment", ["payment_set", "[]", "amount"]],
  ];
  it.each(
    VERSIONS.flatMap((v) =>
      moneyAndRates.map(([name, path]) => [v, `${name}.${path.join(".")}`, name, path]),
    ),
  )("%s %s is a string", (version, _label, name, path) => {
    const doc = loadBundle(version as Version);
    const flat = flatten(doc, schemaAt(doc, component(doc, name as string), path as string[]));
    expect([...(flat.types ?? [])]).toEqual(["string"]);
  });
});

describe("Not shown: left open, nothing invented", () => {
  it.each(VERSIONS)("%s BankingTransaction names only extended_data and stays open", (version) => {
    const doc = loadBundle(version);
    const flat = flatten(doc, component(doc, "BankingTransaction"));
    expect(
      Object.keys(flat.properties),
      "field lists of the detailed banking transaction: not shown",
    ).toEqual(["extended_data"]);
    expect(flat.additionalProperties).not.toBe(false);
    expect([...flat.required]).toEqual([]);
  });

  it.each(VERSIONS)("%s Consent stays open (other fields exist)", (version) => {
    const doc = loadBundle(version);
    expect(flatten(doc, component(doc, "Consent")).additionalProperties).not.toBe(false);
  });

  it.each(VERSIONS)("%s AuthSessionRequest marks no field required (not shown)", (version) => {
    const doc = loadBundle(version);
    expect([...flatten(doc, component(doc, "AuthSessionRequest")).required]).toEqual([]);
  });
});

resourceTable("Error body: short shape", "ShortError", RESOURCES.ShortError!);
resourceTable("Error body: extended shape", "ExtendedError", RESOURCES.ExtendedError!);

describe("States and transitions", () => {
  const states: [string, string[], Expectation][] = [
    ["Account", ["open_status"], oneOf("OPEN", "CLOSED")],
    ["Transaction", ["status"], oneOf("POSTED", "PENDING")],
    ["ServicePoint", ["status"], oneOf("ACTIVE", "INACTIVE")],
    ["ScheduledPayment", ["status"], accepting("ACTIVE")],
    ["ScheduledPayment", ["status"], openString], // "the only value shown"
    ["Institution", ["status", "connections", "status"], accepting("DEGRADED")],
    ["Institution", ["status", "connections", "status"], openString], // "the only value shown"
    ["Consent", ["active"], bool],
  ];
  it.each(
    VERSIONS.flatMap((v) =>
      states.map(([name, path, e]) => [v, `${name}.${path.join(".")}`, name, path, e] as const),
    ),
  )("%s %s", (version, label, name, path, expectation) => {
    const doc = loadBundle(version);
    expectSchema(doc, schemaAt(doc, component(doc, name), [...path]), expectation, `${version} ${label}`);
  });

  it.each(VERSIONS)("%s an auth session carries expires_at and no invented state field", (version) => {
    const doc = loadBundle(version);
    const names = Object.keys(flatten(doc, component(doc, "AuthSession")).properties);
    expect(names).toContain("expires_at");
    expect(names).not.toContain("status");
    expect(names).not.toContain("state");
  });
});
