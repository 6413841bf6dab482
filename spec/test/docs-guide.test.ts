// The migration guides (scripts/lib/migration-guide.mjs), checked against two things outside the code
// that writes them: the versioning tables of the interface (every row appears in exactly one entry),
// and the compile errors of a small program written against v1 once it is compiled against v3 (each
// error is an entry of the v1-to-v3 guide, under the operation the failing line calls).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatGuideMarkdown } from "../scripts/lib/guide-format.mjs";
import { buildGuide, migrationSize, operationSections } from "../scripts/lib/migration-guide.mjs";
import { diffDocuments } from "../scripts/lib/spec-diff.mjs";
import { everyVersionPair, freshBundle, INTERFACE_SPEC, SPEC_DIR, typeCheck } from "./helpers";

const REPO = path.resolve(SPEC_DIR, "..");
const PROGRAM = path.join(import.meta.dirname, "fixtures", "migration", "program.ts");

type Entry = { text: string; places: string[]; breaking: boolean };
type Related = { operation: string; sections: { anchor: string; entries: number; breaking: number }[] };
type Section = {
  operations: string[];
  entries: Entry[];
  anchor: string;
  code?: string[];
  related?: Related[];
};
type Guide = {
  counts: { breaking: number };
  from: { label: string };
  to: { label: string };
  sections: Section[];
  folded: { class: string; pointer: string }[];
};

const load = freshBundle;
function guideOf(from: string, to: string): Guide {
  return buildGuide(diffDocuments(load(from), load(to), { from, to }), load(from), load(to));
}
/** The guide of every pair of registered versions, as the build writes them, and of a pair the checks below name. */
const { all: GUIDES, of: guideFor } = everyVersionPair("guide", guideOf);
const entriesOf = (guide: Guide) =>
  guide.sections.flatMap((s) => s.entries.map((e) => ({ ...e, operations: s.operations })));

/** The "Area" cells of a versioning table of the interface, found by the words that open it. */
function tableAreas(opening: string): string[] {
  const text = readFileSync(INTERFACE_SPEC, "utf8");
  const start = text.indexOf(opening);
  expect(start, opening).toBeGreaterThan(0);
  const rows = text.slice(start).split("\n").slice(1);
  const table = rows.slice(rows.findIndex((r) => r.startsWith("|")));
  const body = table.slice(
    2,
    table.findIndex((r, i) => i > 0 && !r.startsWith("|")),
  );
  return body.map((row) => row.split("|")[1]!.trim());
}

// Each row of the interface's tables, and what names it in the guide (written from the tables).
const V1_TO_V2: Record<string, string> = {
  "Rate tiers (`deposit_rates[]`, `lending_rates[]`, on product detail and accounts)": "`minimum_value`",
  "`applicability_conditions` (on rate and on tier)": "`applicability_conditions` is now an array",
  "Rate objects": "`application_type`",
  "Fees (product detail and accounts)": "`fee_method_u_type`",
  "Fee discounts": "`discount_method_u_type`",
  "`fee_type`": "`fee_type`",
  "Account feature `is_activated`": "`is_activated` is now a string",
  "Transactions `extended_data`": "`nppPayload` is now `npp_payload`",
  "Identity response": "`customer` is gone",
};
const V2_TO_V3: Record<string, string> = {
  "Consent list body": "`{consents, links?}` instead of a bare array",
  "End-user list body": "`{end_users, links?}` instead of a bare array",
  "Consent fields": "`arrangement_id` is now `arrangementId`",
  "Error body of both lists": "`fault`, `temporary` and `timeout` are gone from the error body",
  "Query `expires_before`": "`expires_before` is gone",
  Paging: "`page[size]`, `page[after]` and `page[before]`",
};

describe("the guides against the interface's versioning tables", () => {
  it("the transcription above covers every row of both tables", () => {
    expect(tableAreas("Version 1 to 2 changes").sort()).toEqual(Object.keys(V1_TO_V2).sort());
    expect(tableAreas("Version 2 to 3 changes").sort()).toEqual(Object.keys(V2_TO_V3).sort());
  });

  it.each([
    ["v1-to-v2", V1_TO_V2],
    ["v2-to-v3", V2_TO_V3],
    ["v1-to-v3", { ...V1_TO_V2, ...V2_TO_V3 }],
  ] as const)("%s: every row of its table(s) is in exactly one entry", (pair, rows) => {
    const entries = entriesOf(guideFor(pair));
    for (const [area, words] of Object.entries(rows)) {
      const holding = entries.filter((e) => e.text.includes(words));
      expect(
        holding.map((e) => e.text),
        `${pair}: ${area}`,
      ).toHaveLength(1);
    }
  });

  it("the v1-to-v2 guide says nothing about the consent and end-user lists, the v2-to-v3 guide nothing about banking", () => {
    const operations = (pair: string) => guideFor(pair).sections.flatMap((s) => s.operations);
    expect(operations("v1-to-v2").filter((op) => /consent|end-users/.test(op))).toEqual([]);
    expect(operations("v2-to-v3").filter((op) => /banking|identity/.test(op))).toEqual([]);
  });

  it("every breaking change is in an entry; only whole components and annotations are folded", () => {
    for (const guide of GUIDES.values()) {
      const foldedBreaking = guide.folded.filter((c) => c.class === "breaking");
      for (const change of foldedBreaking) expect(change.pointer).toMatch(/^\/components\/\w+\/[^/]+$/);
      // A breaking entry wherever the report counts a breaking difference (a new version starts with none).
      expect(entriesOf(guide).some((e) => e.breaking)).toBe(guide.counts.breaking > 0);
    }
  });

  it("no entry repeats another", () => {
    for (const guide of GUIDES.values()) {
      const texts = entriesOf(guide).map((e) => `${e.places.join(",")} ${e.text}`);
      expect(new Set(texts).size).toBe(texts.length);
    }
  });
});

describe("the version bar's link to a guide", () => {
  it("opens the section most an operation's own, not one it shares with others", () => {
    let shared = 0;
    for (const guide of GUIDES.values()) {
      const chosen = operationSections(guide);
      for (const [op, anchor] of Object.entries(chosen)) {
        const naming = guide.sections.filter((section) => section.operations.includes(op));
        const fewest = Math.min(...naming.map((section) => section.operations.length));
        const section = guide.sections.find((candidate) => candidate.anchor === anchor);
        expect(section?.operations.length, `${op} in ${guide.from.label}-to-${guide.to.label}`).toBe(fewest);
        if (naming.length > 1 && naming[0]!.operations.length > fewest) shared++;
      }
    }
    // Operations listed first in a shared section (getBankingProduct with the fees) exist: the case is real.
    expect(shared).toBeGreaterThan(0);
  });

  it("the section it opens links every other section that concerns the operation, with what each holds", () => {
    for (const guide of GUIDES.values()) {
      const pair = `${guide.from.label}-to-${guide.to.label}`;
      for (const [op, anchor] of Object.entries(operationSections(guide))) {
        if (op === "every operation") continue;
        const landing = guide.sections.find((section) => section.anchor === anchor)!;
        const elsewhere = guide.sections.filter(
          (section) =>
            section !== landing &&
            (section.operations.includes(op) || section.operations[0] === "every operation"),
        );
        const related = landing.related?.find((r) => r.operation === op)?.sections ?? [];
        expect(related.map((r) => r.anchor).sort(), `${op} in ${pair}`).toEqual(
          elsewhere.map((section) => section.anchor).sort(),
        );
        for (const link of related) {
          const section = guide.sections.find((candidate) => candidate.anchor === link.anchor)!;
          expect(link.entries).toBe(section.entries.length);
          expect(link.breaking).toBe(section.entries.filter((e) => e.breaking).length);
        }
      }
    }
    // The reported case: getBankingProduct's own section (the depositRates rename) leads to the fees.
    const product = guideFor("v1-to-v3").sections.find(
      (s) => s.operations.join() === "GET /v1/banking/products/{product_id}",
    )!;
    const markdown = formatGuideMarkdown(guideFor("v1-to-v3") as never);
    expect(markdown).toContain(
      "More changes of `GET /v1/banking/products/{product_id}` are in [`GET /v1/banking/accounts`, `GET /v1/banking/products/{product_id}`](#op-get-v1-banking-accounts--op-get-v1-banking-products-product-id)",
    );
    expect(product.related).toHaveLength(1);
  });
});

describe("the size of a migration", () => {
  it.each([...GUIDES.keys()])(
    "%s: the changes to make are the breaking entries, the differences the report's breaking count, and the guide says both",
    (pair) => {
      const guide = guideFor(pair);
      const size = migrationSize(guide);
      expect(size.toMake).toBe(entriesOf(guide).filter((e) => e.breaking).length);
      expect(size.differences).toBe(guide.counts.breaking);
      // One row of the interface is one difference or several, never fewer: saying which count is
      // which matters (a new version of one rename has one of each).
      expect(size.differences).toBeGreaterThanOrEqual(size.toMake);
      expect(size.text).toMatch(
        new RegExp(`^${size.toMake} breaking changes? to make .*${size.differences} breaking differences?`),
      );
      expect(formatGuideMarkdown(guide as never)).toContain(size.text);
    },
  );
});

describe("the code to change", () => {
  const sectionOf = (pair: string, operations: string) =>
    guideFor(pair).sections.find((s) => s.operations.join(" · ") === operations)!;

  it.each([...GUIDES.keys()])(
    "%s: every operation: the SDK's version, and the import of a client used directly",
    (pair) => {
      const { from, to } = guideFor(pair);
      const code = sectionOf(pair, "every operation").code ?? [];
      expect(code).toContain(`- import { createClient } from "@cdas/client-${from.label}";`);
      expect(code).toContain(`+ import { createClient } from "@cdas/client-${to.label}";`);
      expect(code.some((line) => line.includes(`createSdk({ version: "${to.label}"`))).toBe(true);
      // A record of the newer version fits the older one's types (every field optional): the guide says so.
      expect(code).toContain(`+ function describe(transaction: ${to.label.toUpperCase()}.Transaction) {`);
    },
  );

  it.each(["v1-to-v2", "v1-to-v3"] as const)(
    "%s: is_activated, a boolean become a string, is tested against the value the documents show",
    (pair) => {
      const code = sectionOf(pair, "GET /v1/banking/accounts").code ?? [];
      expect(code).toContain("- if (feature.is_activated) {");
      expect(code.find((line) => line.startsWith("+ if (feature.is_activated"))).toMatch(
        /^\+ if \(feature\.is_activated === "ACTIVATED"\) \{ .*do not list the other values$/,
      );
    },
  );

  it.each(["v2-to-v3", "v1-to-v3"] as const)(
    "%s: the error body's statuses are those the documents declare without the extended fields, and the code adds no rule",
    (pair) => {
      const v3 = load("v3");
      const last = (ref: string) => ref.split("/").pop()!;
      const errorSchema = (responseRef: string) =>
        v3.components.schemas[
          last(v3.components.responses[last(responseRef)].content["application/json"].schema.$ref)
        ];
      const section = sectionOf(pair, "GET /v1/consent · GET /v1/end-users");
      const entry = section.entries.find((e) => e.text.includes("gone from the error body"))!;
      const named = /error body \(([^)]+)\)/.exec(entry.text)![1]!.split(", ");
      const shortErrors = (path: string) =>
        Object.entries(v3.paths[path].get.responses as Record<string, { $ref?: string }>)
          .filter(([status]) => Number(status) >= 400)
          .filter(([, response]) => !("temporary" in (errorSchema(response.$ref!).properties ?? {})))
          .map(([status]) => status);
      expect(named).toEqual(shortErrors("/v1/consent"));
      expect(named).toEqual(shortErrors("/v1/end-users"));
      const hint = (section.code ?? []).find((line) => line.startsWith("+") && line.includes("error."))!;
      expect(hint).toContain("400, 401 and 500");
      expect(hint).not.toMatch(/>= ?500|retry/);
    },
  );
});

describe("reshaped containers (a field that becomes an array, or stops being one)", () => {
  const REVERSE = { "v3-to-v1": guideOf("v3", "v1"), "v2-to-v1": guideOf("v2", "v1") };
  const SHAPE = "`{rate_applicability_type, additional_value, additional_info, additional_info_uri}`";
  const applicability = (guide: Guide) =>
    entriesOf(guide).filter((e) => e.places.some((p) => p.endsWith("applicability_conditions")));

  it.each(["v1-to-v2", "v1-to-v3"] as const)(
    "%s: applicability_conditions is said with its items; fields that move into them are not gone",
    (pair) => {
      const [entry, ...more] = applicability(guideFor(pair));
      expect(more).toEqual([]);
      expect(entry!.text).toBe(
        `\`applicability_conditions\` is now an array of ${SHAPE} instead of an object; \`additional_info\` and \`additional_info_uri\` are now in each item`,
      );
      expect(entry!.text).not.toContain("gone");
    },
  );

  it.each(["v3-to-v1", "v2-to-v1"] as const)(
    "%s: the reverse names the field once as its subject, not the list of its places",
    (pair) => {
      const guide = REVERSE[pair];
      const [entry, ...more] = applicability(guide);
      expect(more).toEqual([]);
      expect(entry!.places).toHaveLength(8);
      for (const place of entry!.places) expect(entry!.text).not.toContain(place);
      expect(entry!.text).toBe(
        `\`applicability_conditions\` is now an object \`{additional_info, additional_info_uri}\` instead of an array of ${SHAPE}; \`rate_applicability_type\` and \`additional_value\` are gone`,
      );
      // The Markdown line lists the places once, and no envelope code is suggested for it.
      const markdown = formatGuideMarkdown(guide as never);
      const line = markdown.split("\n").find((l) => l.includes("is now an object `{additional_info"));
      expect(line?.split(entry!.places[0]!).length).toBe(2);
      expect(markdown).not.toContain("data?.additional_info");
    },
  );

  it.each(["v1-to-v2", "v1-to-v3"] as const)(
    "%s: a field that moves into a new object beside it is said as moved, with its code; new and renamed objects show their fields",
    (pair) => {
      const entries = entriesOf(guideFor(pair));
      const fees = entries.find((e) => e.places.includes("accounts[].fees[]"));
      expect(fees!.text).toContain("`amount` is now `fixed_amount.amount`");
      // A new field with an enum is said with its values, as the interface gives them.
      expect(fees!.text).toContain(
        "new: `fee_method_u_type` (`fixedAmount` or `rateBased`) and `fixed_amount` `{amount}`",
      );
      expect(fees!.text).not.toMatch(/`amount`[^;]* gone/);
      // The flat rate fields give way to `rate_based` as a whole (x-cdas-replaces): replaced, not gone.
      expect(fees!.text).toContain(
        "`accrual_frequency`, `accrued_rate`, `balance_rate` and `transaction_rate` are replaced by `rate_based` `{rate, rate_type}` as a whole",
      );
      const discounts = entries.find((e) => e.places.includes("accounts[].fees[].discounts[]"));
      expect(discounts!.text).toContain(
        "`accrued_rate`, `balance_rate`, `fee_rate` and `transaction_rate` are replaced by `rate_based`",
      );
      for (const entry of [fees, discounts]) expect(entry!.text).not.toContain("gone");
      const extended = entries.find((e) => e.places.some((p) => p.endsWith("extended_data")));
      expect(extended!.text).toContain("`service` is now `npp_payload.service`");
      // The renamed object holds fields the old one did not: they are shown.
      expect(extended!.text).toContain(
        "`nppPayload` is now `npp_payload` `{extended_description, service, service_version}`",
      );
      expect(extended!.text).toContain("`x2p101_payload` is gone");
      const markdown = formatGuideMarkdown(guideFor(pair) as never);
      expect(markdown).toContain("+ fee.fixed_amount?.amount");
      expect(markdown).toContain("+ fee.rate_based // replaces them as a whole");
      expect(markdown).toContain("+ extendedData.npp_payload?.service");
    },
  );

  it("an envelope's optional key is marked as the interface writes it (`links?`), its required list key not", () => {
    const text = readFileSync(INTERFACE_SPEC, "utf8");
    for (const [key, path] of [
      ["consents", "/v1/consent"],
      ["end_users", "/v1/end-users"],
    ] as const) {
      // The interface's version table: the v3 body is `{<key>: [...], links?}`.
      expect(text).toContain(`\`{${key}: [...], links?}\``);
      const said = entriesOf(guideFor("v2-to-v3"))
        .filter((e) => e.operations.includes(`GET ${path}`))
        .map((e) => e.text)
        .filter((t) => t.includes("instead of a bare array"));
      expect(said).toEqual([`the body is now \`{${key}, links?}\` instead of a bare array`]);
    }
  });

  it("v3-to-v2: a list envelope that becomes a bare array is said as such, its keys not gone", () => {
    const texts = entriesOf(guideOf("v3", "v2")).map((e) => e.text);
    expect(texts).toContain(
      "the body is now a bare array of the `consents` items instead of `{consents, links?}`",
    );
    expect(texts).toContain(
      "the body is now a bare array of the `end_users` items instead of `{end_users, links?}`",
    );
    expect(texts.filter((t) => /`(consents|end_users)`.* gone/.test(t))).toEqual([]);
  });
});

type CompileError = { line: number; column: number; code: string; message: string };

/** Compiles the program (or `source`) with "@cdas/client" mapped to one version's client; returns its errors. */
function compileAgainst(version: string, source?: string): CompileError[] {
  const dir = mkdtempSync(path.join(SPEC_DIR, "node_modules", ".cdas-migration-"));
  try {
    if (source === undefined) copyFileSync(PROGRAM, path.join(dir, "program.ts"));
    else writeFileSync(path.join(dir, "program.ts"), source);
    const types = path.join(REPO, "packages", `client-${version}`, "dist", "index.d.ts");
    const compilerOptions = {
      ...{ target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM"] },
      ...{ strict: true, noEmit: true, skipLibCheck: false, types: [], paths: { "@cdas/client": [types] } },
    };
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions, files: ["program.ts"] }),
    );
    const out = typeCheck(dir);
    return [...out.matchAll(/program\.ts\((\d+),(\d+)\): error (TS\d+): (.*)/g)].map((m) => ({
      line: Number(m[1]),
      column: Number(m[2]),
      code: m[3]!,
      message: m[4]!,
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Words a compile error is about: names quoted in its message, keys of a quoted object type, and the line from the error on. */
function wordsOf(error: CompileError, source: string[]): Set<string> {
  const quoted = [...error.message.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
  const words = quoted.flatMap((q) =>
    q.includes("{") ? [...q.matchAll(/(\w+)\??:/g)].map((m) => m[1]!) : [q],
  );
  const rest = source[error.line - 1]!.slice(error.column - 1);
  return new Set([...words, ...(rest.match(/\w+/g) ?? [])]);
}

/** The operation a line of the program calls: the nearest `client.GET("<path>")` at or above it. */
function operationAt(line: number, source: string[]): string {
  for (let i = line - 1; i >= 0; i--) {
    const call = /client\.GET\("([^"]+)"/.exec(source[i]!);
    if (call) return `GET ${call[1]}`;
  }
  throw new Error(`no call above line ${line}`);
}

describe("the guide's code on each side of a change", () => {
  it("a number that becomes a string: the old line compiles against v1, the new one against v3, the field optional", () => {
    const code = guideFor("v1-to-v3").sections.flatMap((s) => s.code ?? []);
    const lines = code.filter((l) => /^[-+] const \w+(: number \| undefined)? = tier\./.test(l));
    expect(lines.length).toBe(4); // maximum_value and minimum_value, before and after
    const tier = `NonNullable<NonNullable<components["schemas"]["BankingAccount"]["deposit_rates"]>[number]["tiers"]>[number]`;
    const program = (side: string) =>
      [
        `import type { components } from "@cdas/client";`,
        `declare const tier: ${tier};`,
        ...lines.filter((l) => l.startsWith(side)).map((l) => `{\n${l.slice(2)}\n}`),
      ].join("\n");
    expect(compileAgainst("v1", program("-"))).toEqual([]);
    expect(compileAgainst("v3", program("+"))).toEqual([]);
  }, 60_000);

  it("an object that becomes an array of items: the old line compiles against v1, the new one against v3", () => {
    const code = guideFor("v1-to-v3").sections.flatMap((s) => s.code ?? []);
    const lines = code.filter((l) => /^[-+] depositRate\.applicability_conditions\?\./.test(l));
    expect(lines.length).toBe(4); // additional_info and additional_info_uri, before and after
    const rate = `NonNullable<components["schemas"]["BankingAccount"]["deposit_rates"]>[number]`;
    const program = (side: string) =>
      [
        `import type { components } from "@cdas/client";`,
        `declare const depositRate: ${rate};`,
        ...lines.filter((l) => l.startsWith(side)).map((l) => `{\nconst read = ${l.slice(2)}\n}`),
      ].join("\n");
    expect(compileAgainst("v1", program("-"))).toEqual([]);
    expect(compileAgainst("v3", program("+"))).toEqual([]);
    // Each side's line is the other version's error.
    expect(compileAgainst("v3", program("-")).length).toBeGreaterThan(0);
  }, 60_000);

  it("temporary gone from an error body: the code says the SDK no longer retries a 500 there", () => {
    const section = guideFor("v1-to-v3").sections.find((s) =>
      s.entries.some((e) => e.text.includes("`temporary`") && e.text.includes("error body")),
    );
    expect(section?.code).toContain(
      "+ // and @cdas/sdk no longer retries a 500 here itself: it retries one only when the body says temporary: true",
    );
  });

  it("a new field the documents give no type is said to be unknown, one with an enum its values", () => {
    const markdown = formatGuideMarkdown(guideFor("v1-to-v2") as never);
    expect(markdown).toContain("new: `discount_method_u_type` (type not documented: `unknown`)");
    expect(markdown).toContain("new: `fee_method_u_type` (`fixedAmount` or `rateBased`)");
    expect(markdown).not.toMatch(/`fee_method_u_type` \(type not documented/);
  });

  it("new optional query parameters are said as many as there are: one is a parameter", () => {
    const before = load("v2");
    const after = structuredClone(before);
    after.paths["/v1/transactions"].get.parameters.push({
      name: "merchant_name",
      in: "query",
      schema: { type: "string" },
    });
    const guide = buildGuide(diffDocuments(before, after, { from: "v2", to: "v2" }), before, after);
    expect(entriesOf(guide).map((entry) => entry.text)).toEqual([
      "new optional query parameter `merchant_name`",
    ]);
    // Several, as the v2-to-v3 guide has them.
    expect(formatGuideMarkdown(guideFor("v2-to-v3") as never)).toContain(
      "New optional query parameters `page[size]`, `page[after]` and `page[before]`.",
    );
  });

  it("a place that was the items of a bare array, or becomes them, is said both ways", () => {
    const forward = formatGuideMarkdown(guideFor("v1-to-v3") as never);
    expect(forward).toContain(
      "In `consents[]` (before, the items of the bare array): `arrangement_id` is now `arrangementId`",
    );
    const backward = formatGuideMarkdown(guideOf("v3", "v1") as never);
    expect(backward).toContain(
      "In `[]` (the items of the bare array; before, `consents[]`): `arrangementId` is now `arrangement_id`",
    );
  });

  it("a place under a renamed field is named as it was too, so that 'were numbers' has a path in the older version", () => {
    const forward = formatGuideMarkdown(guideFor("v1-to-v3") as never);
    expect(forward).toContain(
      "`product.lending_rates[].tiers[]` (named `product.depositRates[].tiers[]` and `product.lendingRates[].tiers[]` before): `maximum_value` and `minimum_value` are now strings (were numbers)",
    );
    // An entry merged from several places names the older path of each (deposit and lending rates).
    expect(forward).toContain(
      "`product.lending_rates[]` (named `product.depositRates[]` and `product.lendingRates[]` before): new: `application_type`",
    );
    // Places that kept their names are not repeated: the v2-to-v3 guide has no rename above them.
    expect(formatGuideMarkdown(guideFor("v2-to-v3") as never)).not.toContain("before):");
  });
});

describe("the v1-to-v3 guide against a v1 program recompiled against v3", () => {
  const source = readFileSync(PROGRAM, "utf8").split("\n");

  it("the program compiles against v1", () => {
    expect(compileAgainst("v1")).toEqual([]);
  }, 60_000);

  it("each error against v3 is an entry of the guide under the operation it calls", () => {
    const errors = compileAgainst("v3");
    // An implicit any follows another error on the same line (a body that is no longer an array).
    const causes = errors.filter((e) => e.code !== "TS7006");
    for (const e of errors.filter((e) => e.code === "TS7006")) {
      expect(
        causes.some((c) => c.line === e.line),
        `TS7006 alone on line ${e.line}`,
      ).toBe(true);
    }
    expect(causes.length).toBeGreaterThanOrEqual(7);
    const entries = entriesOf(guideFor("v1-to-v3"));
    for (const error of causes) {
      const operation = operationAt(error.line, source);
      const candidates = entries.filter((e) => e.operations.includes(operation));
      // A missing argument is a parameter the operation now requires.
      const match =
        error.code === "TS2554"
          ? candidates.find((e) => /parameter .* is now required/.test(e.text))
          : candidates.find((e) => {
              const named = new Set(
                [...e.text.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.match(/\w+/g) ?? []),
              );
              return [...wordsOf(error, source)].some((w) => named.has(w));
            });
      expect(match?.text, `line ${error.line} (${operation}): ${error.message}`).toBeDefined();
    }
  }, 60_000);
});
