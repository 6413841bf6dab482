// Every row of the two versioning tables of the interface spec is found, and correctly classified, in
// the change reports of the bundles that span its step (TABLE_OF_PAIRS): v1→v2 rows in v1-to-v2 and
// v1-to-v3, v2→v3 rows in v2-to-v3 and v1-to-v3. Between v2 and v3 nothing else changes than the
// consent and end-user lists.
import { describe, expect, it } from "vitest";
import { loadSpec } from "../scripts/lib/load-spec.mjs";
import { diffDocuments } from "../scripts/lib/spec-diff.mjs";
import { everyVersionPair, VERSIONS } from "./helpers";
import { CHANGED_V1_TO_V2, CHANGED_V2_TO_V3 } from "./interface-model";

type Change = {
  class: "breaking" | "non-breaking" | "annotation";
  action: string;
  pointer: string;
  pointerScope: "document" | "dereferenced operation";
  operations: string[];
  before?: unknown;
  after?: unknown;
  reason?: string;
  summary?: string;
};
type Report = { changes: Change[]; counts: Record<string, number> };

const ACCOUNTS = "GET /v1/banking/accounts";
const PRODUCT = "GET /v1/banking/products/{product_id}";
const TRANSACTIONS = "GET /v1/banking/transactions";
const IDENTITY = "GET /v1/common/identity";
const CONSENT = "GET /v1/consent";
const END_USERS = "GET /v1/end-users";

// loadSpec reads dist/vN.json, or bundles the sources when the build has not run.
const docs = Object.fromEntries(VERSIONS.map((v) => [v, loadSpec(v).doc]));
const report = (from: string, to: string) => diffDocuments(docs[from], docs[to], { from, to }) as Report;
/** The report of every pair of registered versions, as the build writes them, and of a pair the rows below name. */
const { all: reports, of: reportOf } = everyVersionPair("report", report);

/** Changes whose pointer matches, that are not examples (examples are documentation). */
function find(r: Report, pointer: RegExp, action?: string): Change[] {
  return r.changes.filter(
    (c) => pointer.test(c.pointer) && (!action || c.action === action) && !/\/examples?\//.test(c.pointer),
  );
}

/** Exactly one change matches; it has the class and reaches at least the operations given. */
function expectOne(r: Report, pointer: RegExp, action: string, cls: Change["class"], operations: string[]) {
  const found = find(r, pointer, action);
  expect(
    found.map((c) => c.pointer),
    `${action} ${pointer}`,
  ).toHaveLength(1);
  expect(found[0]!.class, found[0]!.pointer).toBe(cls);
  expect(found[0]!.operations).toEqual(expect.arrayContaining(operations));
  return found[0]!;
}

type Row = { area: string; check: (r: Report) => void };

/** The name of a parameter a change adds or removes, following a $ref into the document it lives in. */
function parameterName(change: Change, doc: Record<string, unknown>): string | undefined {
  const value = (change.action === "remove" ? change.before : change.after) as {
    name?: string;
    $ref?: string;
  };
  if (!value?.$ref) return value?.name;
  const target = value.$ref
    .slice(2)
    .split("/")
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], doc);
  return (target as { name?: string })?.name;
}

// Version 1 to 2 (only four GET responses change: identity, transactions, product detail, accounts).
const V1_TO_V2: Row[] = [
  {
    area: "Rate tiers: minimum_value, maximum_value numbers become strings",
    check: (r) => {
      for (const bound of ["minimum_value", "maximum_value"]) {
        const change = expectOne(r, new RegExp(`/properties/${bound}/type$`), "replace", "breaking", [
          ACCOUNTS,
          PRODUCT,
        ]);
        expect([change.before, change.after]).toEqual(["number", "string"]);
      }
    },
  },
  {
    area: "applicability_conditions: one object becomes an array of conditions with rate_applicability_type",
    check: (r) => {
      const typeChange = expectOne(r, /ApplicabilityConditions?\/type$/, "replace", "breaking", [
        ACCOUNTS,
        PRODUCT,
      ]);
      expect([typeChange.before, typeChange.after]).toEqual(["object", "array"]);
      for (const field of ["additional_info", "additional_info_uri"]) {
        expectOne(r, new RegExp(`ApplicabilityConditions/properties/${field}$`), "remove", "breaking", [
          ACCOUNTS,
        ]);
      }
      const condition = r.changes.filter(
        (c) =>
          c.action === "add" &&
          !/\/examples?\//.test(c.pointer) &&
          JSON.stringify(c.after ?? "").includes("rate_applicability_type"),
      );
      expect(condition.length).toBeGreaterThan(0);
      // The new item component is an annotation when the items it gives are reported where they are used.
      for (const c of condition) expect(["non-breaking", "annotation"]).toContain(c.class);
      expectOne(r, /ApplicabilityConditions\/items$/, "add", "non-breaking", [ACCOUNTS, PRODUCT]);
    },
  },
  {
    area: "Rate objects also have application_type",
    check: (r) => {
      for (const rate of ["DepositRate", "LendingRate"]) {
        expectOne(r, new RegExp(`${rate}/.*properties/application_type$`), "add", "non-breaking", [
          ACCOUNTS,
          PRODUCT,
        ]);
      }
    },
  },
  {
    area: "Fees: flat amount and rates become fee_method_u_type with fixed_amount or rate_based",
    check: (r) => {
      for (const flat of [
        "amount",
        "balance_rate",
        "transaction_rate",
        "accrued_rate",
        "accrual_frequency",
      ]) {
        expectOne(r, new RegExp(`/Fee/.*properties/${flat}$`), "remove", "breaking", [ACCOUNTS, PRODUCT]);
      }
      for (const nested of ["fee_method_u_type", "fixed_amount", "rate_based"]) {
        expectOne(r, new RegExp(`/Fee/.*properties/${nested}$`), "add", "non-breaking", [ACCOUNTS, PRODUCT]);
      }
    },
  },
  {
    area: "Fee discounts: flat amount and rates become discount_method_u_type with fixed_amount or rate_based",
    check: (r) => {
      for (const flat of ["amount", "accrued_rate", "balance_rate", "fee_rate", "transaction_rate"]) {
        expectOne(r, new RegExp(`/FeeDiscount/.*properties/${flat}$`), "remove", "breaking", [
          ACCOUNTS,
          PRODUCT,
        ]);
      }
      for (const nested of ["discount_method_u_type", "fixed_amount", "rate_based"]) {
        expectOne(r, new RegExp(`/FeeDiscount/.*properties/${nested}$`), "add", "non-breaking", [ACCOUNTS]);
      }
    },
  },
  {
    area: "fee_type: the set of values can change (validate loosely)",
    // The bundles model fee_type as a plain string in both versions (the enumeration is not documented),
    // so only its documentation changes: an annotation, and no change to its type or values.
    check: (r) => {
      const found = find(r, /\/properties\/fee_type\//);
      expect(found.length).toBeGreaterThan(0);
      for (const c of found) expect(c.class).toBe("annotation");
      expect(find(r, /\/properties\/fee_type\/(type|enum)/)).toEqual([]);
    },
  },
  {
    area: "Account feature is_activated: boolean becomes a string",
    check: (r) => {
      const change = expectOne(r, /\/properties\/is_activated\/type$/, "replace", "breaking", [ACCOUNTS]);
      expect([change.before, change.after]).toEqual(["boolean", "string"]);
    },
  },
  {
    area: "Transactions extended_data: nppPayload becomes npp_payload; service and x2p101_payload leave the root",
    check: (r) => {
      for (const removed of ["nppPayload", "service", "x2p101_payload"]) {
        expectOne(r, new RegExp(`ExtendedData/properties/${removed}$`), "remove", "breaking", [TRANSACTIONS]);
      }
      const npp = expectOne(r, /ExtendedData\/properties\/npp_payload$/, "add", "non-breaking", [
        TRANSACTIONS,
      ]);
      expect(Object.keys((npp.after as { properties: object }).properties)).toEqual(
        expect.arrayContaining(["extended_description", "service", "service_version"]),
      );
      expectOne(r, /ExtendedData\/properties\/extension_u_type$/, "add", "non-breaking", [TRANSACTIONS]);
    },
  },
  {
    area: "Identity response: customer removed, identities[] unchanged",
    check: (r) => {
      expectOne(r, /\/properties\/customer$/, "remove", "breaking", [IDENTITY]);
      const identities = r.changes.filter(
        (c) => c.pointer.includes("identities") && c.class !== "annotation",
      );
      expect(identities).toEqual([]);
    },
  },
];

// Version 2 to 3 (only GET /consent and GET /end-users change).
const V2_TO_V3: Row[] = [
  {
    area: "Consent list body: bare array becomes {consents: [...], links?}",
    check: (r) => {
      const type = expectOne(r, /ConsentList\/type$/, "replace", "breaking", [CONSENT]);
      expect([type.before, type.after]).toEqual(["array", "object"]);
      expectOne(r, /ConsentList\/properties\/consents$/, "add", "non-breaking", [CONSENT]);
      expectOne(r, /ConsentList\/properties\/links$/, "add", "non-breaking", [CONSENT]);
      const required = find(r, /ConsentList\/required/);
      expect(required.map((c) => c.after)).toEqual(["consents"]);
    },
  },
  {
    area: "End-user list body: bare array becomes {end_users: [...], links?}; item fields unchanged",
    check: (r) => {
      const type = expectOne(r, /EndUserList\/type$/, "replace", "breaking", [END_USERS]);
      expect([type.before, type.after]).toEqual(["array", "object"]);
      expectOne(r, /EndUserList\/properties\/end_users$/, "add", "non-breaking", [END_USERS]);
      expectOne(r, /EndUserList\/properties\/links$/, "add", "non-breaking", [END_USERS]);
      const items = r.changes.filter(
        (c) => /\/EndUser\/|properties\/(email|phone)/.test(c.pointer) && c.class !== "annotation",
      );
      expect(
        items,
        "this row keeps end-user item fields unchanged: a version that changes them adds a row of its own, and this check leaves out its change",
      ).toEqual([]);
    },
  },
  {
    area: "Consent fields: snake_case becomes camelCase",
    check: (r) => {
      expectOne(r, /Consent\/properties\/arrangement_id$/, "remove", "breaking", [CONSENT]);
      expectOne(r, /Consent\/properties\/arrangementId$/, "add", "non-breaking", [CONSENT]);
      expect(find(r, /Consent\/properties\/active/)).toEqual([]);
    },
  },
  {
    area: "Error body of both lists: extended shape becomes short {id, message, name}",
    check: (r) => {
      for (const [op, path] of [
        [CONSENT, "consent"],
        [END_USERS, "end-users"],
      ]) {
        for (const status of ["400", "500"]) {
          for (const field of ["fault", "temporary", "timeout"]) {
            const pointer = new RegExp(`~1v1~1${path}/get/responses/${status}/.*/properties/${field}$`);
            expectOne(r, pointer, "remove", "breaking", [op!]);
          }
        }
      }
    },
  },
  {
    area: "Query expires_before: accepted, then no longer sent",
    check: (r) => {
      const withExpiresBefore = [CONSENT, END_USERS].filter((op) => {
        const [method, path] = op.split(" ");
        const parameters = docs.v2.paths[path!][method!.toLowerCase()].parameters as {
          name?: string;
          $ref?: string;
        }[];
        return JSON.stringify(parameters).includes("expires_before");
      });
      expect(withExpiresBefore.length).toBeGreaterThan(0);
      const removals = r.changes.filter(
        (c) => c.action === "remove" && parameterName(c, docs.v2) === "expires_before",
      );
      expect(removals.flatMap((c) => c.operations).sort()).toEqual(withExpiresBefore.sort());
      for (const c of removals) expect(c.class).toBe("breaking");
    },
  },
  {
    area: "Paging: page[size], page[after], page[before] (opt-in)",
    check: (r) => {
      for (const op of [CONSENT, END_USERS]) {
        for (const name of ["page[size]", "page[after]", "page[before]"]) {
          const added = r.changes.filter(
            (c) => c.action === "add" && c.operations.includes(op) && parameterName(c, docs.v3) === name,
          );
          expect(
            added.map((c) => c.class),
            `${op} ${name}`,
          ).toEqual(["non-breaking"]);
        }
      }
    },
  },
  {
    area: "Versioning rule 3: the version header is required on both lists in version 3",
    check: (r) => {
      for (const op of [CONSENT, END_USERS]) {
        const required = r.changes.filter(
          (c) => c.operations.includes(op) && c.pointer.endsWith("/required") && c.after === true,
        );
        expect(
          required.map((c) => c.class),
          op,
        ).toEqual(["breaking"]);
      }
    },
  },
];

/**
 * Written by hand: the reports each step's rows (the interface's table of v<N-1>→vN, `V<N-1>_TO_VN`)
 * are checked in, a row per report that spans the step: from v<N-1> or an earlier version to vN or a
 * later one, its own v<N-1>-to-vN first. "The table of pairs" below checks it against the registry.
 */
const TABLE_OF_PAIRS: readonly (readonly [report: string, rows: readonly Row[]])[] = [
  ["v1-to-v2", V1_TO_V2],
  ["v1-to-v3", V1_TO_V2],
  ["v2-to-v3", V2_TO_V3],
  ["v1-to-v3", V2_TO_V3],
];

describe.each(TABLE_OF_PAIRS)("%s report", (name, rows) => {
  it.each(rows.map((row) => [row.area, row] as const))("%s", (_area, row) => {
    row.check(reportOf(name));
  });
});

describe("the table of pairs", () => {
  const steps = VERSIONS.slice(1).map((to, i) => [VERSIONS[i] as string, to] as const);

  it.each(steps)("runs the rows of %s→%s on its own report and on every report that spans it", (from, to) => {
    const rowsName = `${from.toUpperCase()}_TO_${to.toUpperCase()}`;
    const own = TABLE_OF_PAIRS.find(([report]) => report === `${from}-to-${to}`);
    expect(
      own,
      `spec/test/diff-versioning.test.ts: TABLE_OF_PAIRS has no row for the ${from}-to-${to} report: add ["${from}-to-${to}", ${rowsName}], ${rowsName} being the rows of the interface's ${from}→${to} table`,
    ).toBeDefined();
    const rows = own?.[1];
    // Every report from the step's older version or an earlier one to its newer version or a later one.
    const spanning = VERSIONS.flatMap((older, i) =>
      i > VERSIONS.indexOf(from)
        ? []
        : VERSIONS.slice(VERSIONS.indexOf(to)).map((newer) => `${older}-to-${newer}`),
    );
    const missing = spanning.filter(
      (report) => !TABLE_OF_PAIRS.some(([name, checked]) => name === report && checked === rows),
    );
    expect(
      missing,
      `spec/test/diff-versioning.test.ts: TABLE_OF_PAIRS does not run the rows of ${from}→${to} (those of its ${from}-to-${to} row) on ${missing.join(", ")}, which span the step: add ${missing.map((report) => `["${report}", ${rowsName}]`).join(", ")}`,
    ).toEqual([]);
  });
});

describe("scope of each step", () => {
  const documentLevel = (c: Change) => c.operations.length === 0;
  /** The operations a step changes, as the interface model lists their paths (every one a GET). */
  const getsOf = (paths: readonly string[]) => paths.map((path) => `GET ${path}`);

  it("v2 to v3 changes nothing but the consent and end-user lists (and the document's own version)", () => {
    const r = reportOf("v2-to-v3");
    expect(r.counts.breaking).toBeGreaterThan(0);
    for (const change of r.changes) {
      if (documentLevel(change)) {
        expect(change.class, change.pointer).toBe("annotation");
        expect(change.pointer).toMatch(/^\/info\/|^\(X-Platform-Version header/);
      } else {
        expect(
          getsOf(CHANGED_V2_TO_V3),
          `${change.pointer} changes ${change.operations.join(", ")}: CHANGED_V2_TO_V3 (test/interface-model.ts) must list each`,
        ).toEqual(expect.arrayContaining(change.operations));
      }
    }
  });

  it("v1 to v2 changes only the identity, transactions, product detail and accounts responses", () => {
    const operations = new Set(reportOf("v1-to-v2").changes.flatMap((c) => c.operations));
    expect(
      [...operations].sort(),
      "the operations the report changes, and CHANGED_V1_TO_V2 (test/interface-model.ts)",
    ).toEqual(getsOf(CHANGED_V1_TO_V2).sort());
    for (const change of reportOf("v1-to-v2").changes.filter((c) => !documentLevel(c))) {
      expect(
        change.pointer.includes("/parameters/") || change.pointer.includes("requestBody"),
        change.pointer,
      ).toBe(false);
    }
  });

  it("v1 to v3 holds every change of both steps that the later step does not undo", () => {
    const key = (c: Change) => `${c.action} ${c.pointer} ${c.class}`;
    const combined = new Set(reportOf("v1-to-v3").changes.map(key));
    const operationChanges = [...reportOf("v1-to-v2").changes, ...reportOf("v2-to-v3").changes].filter(
      (c) => !documentLevel(c) && c.class !== "annotation",
    );
    expect(operationChanges.length).toBeGreaterThan(0);
    for (const change of operationChanges) expect(combined.has(key(change)), key(change)).toBe(true);
  });
});

describe("v2 to v3, counted once and said in words", () => {
  const changes = reportOf("v2-to-v3").changes;
  /** The single change at `pointer`. */
  const at = (pointer: string) => {
    const found = changes.filter((c) => c.pointer === pointer);
    expect(found.map((c) => c.pointer)).toEqual([pointer]);
    return found[0]!;
  };

  it("the extended error fields no longer required in the list errors break readers", () => {
    const required = changes.filter((c) =>
      /\/responses\/\d+\/content\/application~1json\/schema\/required\//.test(c.pointer),
    );
    expect(required.length).toBeGreaterThan(0);
    for (const change of required) {
      expect(change, change.pointer).toMatchObject({ class: "breaking", action: "remove" });
      expect(change.reason).toMatch(
        /^readers can no longer rely on (fault|temporary|timeout) being present$/,
      );
    }
  });

  it("the required version header is counted once; the removed error responses are not counted again", () => {
    expect(at("/components/parameters/PlatformVersionRequired")).toMatchObject({ class: "annotation" });
    for (const name of ["BadRequestExtended", "ServerErrorExtended", "UnauthorizedExtended"])
      expect(at(`/components/responses/${name}`)).toMatchObject({ class: "annotation" });
    const header = changes.filter((c) => c.pointer.endsWith("/parameters/0/required"));
    expect(header.map((c) => c.class)).toEqual(["breaking", "breaking"]);
  });

  it("a list that starts to page is said in words, not as a bare key", () => {
    const paging = (field: string) => at(`/paths/~1v1~1consent/get/x-cdas-pagination/${field}`);
    expect(paging("items")).toMatchObject({
      class: "annotation",
      summary: "the list: a bare array → under `consents` (x-cdas-pagination)",
    });
    expect(paging("style")).toMatchObject({ summary: "paging style: `none` → `cursor` (x-cdas-pagination)" });
  });
});

describe("pointers", () => {
  /** The node a JSON pointer names in a document, undefined when it names none. */
  const at = (doc: unknown, pointer: string) =>
    pointer
      .split("/")
      .slice(1)
      .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);

  it.each([...reports.keys()])(
    "%s: every pointer into the document names a place in the older or the newer bundle",
    (name) => {
      const [from, to] = name.split("-to-") as [string, string];
      const inDocument = reportOf(name).changes.filter((c) => c.pointerScope === "document");
      expect(inDocument.length).toBeGreaterThan(0);
      const dangling = inDocument
        .filter((c) => at(docs[from], c.pointer) === undefined && at(docs[to], c.pointer) === undefined)
        .map((c) => c.pointer);
      expect(dangling).toEqual([]);
    },
  );
});

describe("summaries", () => {
  it.each([...reports.keys()])(
    "%s: no two changes of an operation read alike (an example's field, a body schema's own description)",
    (name) => {
      const changes = reportOf(name).changes;
      expect(
        changes.some((c) => /example `\w+`: `[\w.[\]]+` (added|removed|changed)$/.test(c.summary ?? "")),
        `${name}: expected at least one change to an example's field (a summary "example \`<example>\`: \`<field>\` added|removed|changed", the lines most likely to read alike), so that the check of repeated lines below is not vacuous; there is none. If ${name}'s versions really change no example, leave ${name} out of this expectation (this test, spec/test/diff-versioning.test.ts); if they do, scripts/lib/describe-change.mjs no longer summarises an example's changes so`,
      ).toBe(true);
      const lines = changes.map((c) => `${c.summary} (${c.operations.join(", ")})`);
      expect(lines.filter((line, i) => lines.indexOf(line) !== i)).toEqual([]);
    },
  );
});
