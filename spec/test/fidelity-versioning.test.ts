// Interface spec, "Versioning": the rules, then every row of both change tables, both ways.
import { describe, expect, it } from "vitest";
import { getPointer } from "../openapi/index.js";
import { differences } from "../scripts/layers.mjs";
import {
  builtOn,
  component,
  flatten,
  inline,
  loadBundle,
  type Node,
  operations,
  parameters,
  schemaAt,
  VERSIONS,
  type Version,
  versionHeader,
} from "./helpers";
import { CHANGED_V1_TO_V2, CHANGED_V2_TO_V3 } from "./interface-model";

const json = (value: unknown) => JSON.stringify(value);

/**
 * Where two JSON values first differ, as a JSON pointer (scripts/layers.mjs's `differences`) with both
 * values there; undefined when their JSON is the same.
 */
function firstDifference(before: unknown, after: unknown): string | undefined {
  if (json(before) === json(after)) return undefined;
  const [at] = differences(before, after) as string[];
  if (at === undefined) return `"" (the same keys in another order)`;
  const shown = (value: unknown) =>
    value === undefined ? "absent" : (json(value) ?? String(value)).slice(0, 120);
  return `"${at}" (${shown(getPointer(before, at))} → ${shown(getPointer(after, at))})`;
}
const typesAt = (doc: Node, root: string, path: string[]) => {
  const schema = schemaAt(doc, component(doc, root), path);
  expect(schema, `${root}.${path.join(".")} exists`).toBeDefined();
  return [...(flatten(doc, schema).types ?? ["(unconstrained)"])].sort();
};
const propertiesAt = (doc: Node, root: string, path: string[]) => {
  const schema = schemaAt(doc, component(doc, root), path);
  expect(schema, `${root}.${path.join(".")} exists`).toBeDefined();
  return Object.keys(flatten(doc, schema).properties).sort();
};

/** An operation, fully inlined, with the version header reduced to what does not depend on the version. */
function comparable(doc: Node, path: string, method: string, drop: string[] = []): unknown {
  const op = structuredClone(inline(doc, doc.paths[path])) as Node;
  const operation = op[method];
  operation.parameters = (operation.parameters ?? []).map((p: Node) =>
    String(p.name).toLowerCase() === "x-platform-version"
      ? { name: p.name, in: p.in, required: p.required }
      : p,
  );
  for (const status of drop) delete operation.responses[status];
  return operation;
}

const V2_BANKING_ROOTS: [string, string[]][] = [
  // [component, path to a rate array] on accounts and on the product detail
  ["BankingAccount", ["deposit_rates"]],
  ["BankingAccount", ["lending_rates"]],
];
const productRates = (v: Version): [string, string[]][] =>
  v === "v1"
    ? [
        ["BankingProductDetail", ["depositRates"]],
        ["BankingProductDetail", ["lendingRates"]],
      ]
    : [
        ["BankingProductDetail", ["deposit_rates"]],
        ["BankingProductDetail", ["lending_rates"]],
      ];
const rateArrays = (v: Version) => [...V2_BANKING_ROOTS, ...productRates(v)];
const feeArrays: [string, string[]][] = [
  ["BankingAccount", ["fees"]],
  ["BankingProductDetail", ["fees"]],
];
const rows = <T>(make: (v: Version) => T[]) =>
  VERSIONS.flatMap((v) => make(v).map((item) => [v, item] as [Version, T]));

describe("Versioning rules", () => {
  it("1. paths and methods are identical in every version", () => {
    const [v1, ...later] = VERSIONS.map((v) =>
      operations(loadBundle(v)).map(({ path, method }) => `${method} ${path}`),
    );
    for (const methods of later) expect(methods.sort()).toEqual(v1!.sort());
  });

  it.each(VERSIONS)("1. %s operationIds match the other versions", (version) => {
    const ids = (v: Version) =>
      operations(loadBundle(v)).map(({ path, method, op }) => `${method} ${path} ${op.operationId}`);
    expect(ids(version).sort()).toEqual(ids("v1").sort());
  });

  it.each(VERSIONS)(
    "2. %s every operation documents X-Platform-Version allowing only its own version",
    (version) => {
      const doc = loadBundle(version);
      for (const { path, method } of operations(doc)) {
        const header = versionHeader(doc, path, method);
        expect(header, `${method} ${path}`).toBeDefined();
        const flat = flatten(doc, header!.schema);
        expect([...(flat.types ?? [])], `${method} ${path}`).toEqual(["string"]);
        expect(flat.enum, `${method} ${path}`).toEqual([version]);
      }
    },
  );

  it.each(VERSIONS)("2. %s without the header the console pin applies (stated on the header)", (version) => {
    const doc = loadBundle(version);
    for (const { path, method } of operations(doc)) {
      expect(versionHeader(doc, path, method)?.description, `${method} ${path}`).toMatch(/console/i);
    }
  });

  it.each(VERSIONS)("3. %s the header is required only on the v3 consent and end-user lists", (version) => {
    const doc = loadBundle(version);
    for (const { path, method } of operations(doc)) {
      const required = builtOn(version, "v3") && ["/v1/consent", "/v1/end-users"].includes(path);
      expect(versionHeader(doc, path, method)?.required === true, `${method} ${path}`).toBe(required);
    }
  });

  it.each(VERSIONS)("%s info.version names the document's version", (version) => {
    expect(loadBundle(version).info.version).toBe(version);
  });
});

describe("Version 1 to 2 changes", () => {
  it.each(rows((v) => rateArrays(v).map(([root, path]) => `${root}.${path.join(".")}`)))(
    "rate tiers: %s %s[].tiers[] minimum_value/maximum_value are numbers in v1, strings later",
    (version, label) => {
      const doc = loadBundle(version);
      const [root, ...path] = label.split(".");
      const expected = version === "v1" ? ["number"] : ["string"];
      for (const field of ["minimum_value", "maximum_value"]) {
        expect(typesAt(doc, root!, [...path, "[]", "tiers", "[]", field]), field).toEqual(expected);
      }
    },
  );

  it.each(rows((v) => rateArrays(v).map(([root, path]) => `${root}.${path.join(".")}`)))(
    "applicability_conditions: %s %s on rate and tier, an object in v1, an array of objects later",
    (version, label) => {
      const doc = loadBundle(version);
      const [root, ...path] = label.split(".");
      for (const at of [
        [...path, "[]", "applicability_conditions"],
        [...path, "[]", "tiers", "[]", "applicability_conditions"],
      ]) {
        if (version === "v1") {
          expect(typesAt(doc, root!, at), at.join(".")).toEqual(["object"]);
          expect(propertiesAt(doc, root!, at)).toEqual(["additional_info", "additional_info_uri"]);
        } else {
          expect(typesAt(doc, root!, at), at.join(".")).toEqual(["array"]);
          expect(propertiesAt(doc, root!, [...at, "[]"])).toEqual(
            ["additional_info", "additional_info_uri", "additional_value", "rate_applicability_type"].sort(),
          );
        }
      }
    },
  );

  it.each(rows((v) => rateArrays(v).map(([root, path]) => `${root}.${path.join(".")}`)))(
    "rate objects: %s %s[] has application_type only from v2",
    (version, label) => {
      const doc = loadBundle(version);
      const [root, ...path] = label.split(".");
      const names = propertiesAt(doc, root!, [...path, "[]"]);
      if (version === "v1") expect(names).not.toContain("application_type");
      else {
        expect(names).toContain("application_type");
        expect(typesAt(doc, root!, [...path, "[]", "application_type"])).toEqual(["string"]);
      }
    },
  );

  const FLAT_FEE = ["accrual_frequency", "accrued_rate", "amount", "balance_rate", "transaction_rate"];
  it.each(rows(() => feeArrays.map(([root, path]) => `${root}.${path.join(".")}`)))(
    "fees: %s %s[] flat in v1, fee_method_u_type with fixed_amount/rate_based later",
    (version, label) => {
      const doc = loadBundle(version);
      const [root, ...path] = label.split(".");
      const names = propertiesAt(doc, root!, [...path, "[]"]);
      const nested = ["fee_method_u_type", "fixed_amount", "rate_based"];
      if (version === "v1") {
        for (const name of FLAT_FEE) expect(names, name).toContain(name);
        for (const name of nested) expect(names, name).not.toContain(name);
        return;
      }
      for (const name of FLAT_FEE) expect(names, name).not.toContain(name);
      for (const name of nested) expect(names, name).toContain(name);
      const method = flatten(doc, schemaAt(doc, component(doc, root!), [...path, "[]", "fee_method_u_type"]));
      expect([...(method.enum ?? [])].sort()).toEqual(["fixedAmount", "rateBased"]);
      expect(propertiesAt(doc, root!, [...path, "[]", "fixed_amount"])).toEqual(["amount"]);
      expect(propertiesAt(doc, root!, [...path, "[]", "rate_based"])).toEqual(["rate", "rate_type"]);
    },
  );

  const FLAT_DISCOUNT = ["accrued_rate", "amount", "balance_rate", "fee_rate", "transaction_rate"];
  it.each(rows(() => feeArrays.map(([root, path]) => `${root}.${path.join(".")}`)))(
    "fee discounts: %s %s[].discounts[] flat in v1, discount_method_u_type with nested objects later",
    (version, label) => {
      const doc = loadBundle(version);
      const [root, ...path] = label.split(".");
      const names = propertiesAt(doc, root!, [...path, "[]", "discounts", "[]"]);
      const nested = ["discount_method_u_type", "fixed_amount", "rate_based"];
      if (version === "v1") {
        for (const name of FLAT_DISCOUNT) expect(names, name).toContain(name);
        for (const name of nested) expect(names, name).not.toContain(name);
      } else {
        for (const name of FLAT_DISCOUNT) expect(names, name).not.toContain(name);
        for (const name of nested) expect(names, name).toContain(name);
      }
    },
  );

  it.each(rows(() => feeArrays.map(([root, path]) => `${root}.${path.join(".")}`)))(
    "fee_type: %s %s[].fee_type is a string validated loosely (no enum)",
    (version, label) => {
      const doc = loadBundle(version);
      const [root, ...path] = label.split(".");
      const flat = flatten(doc, schemaAt(doc, component(doc, root!), [...path, "[]", "fee_type"]));
      expect([...(flat.types ?? [])]).toEqual(["string"]);
      expect(flat.enum).toBeUndefined();
    },
  );

  it.each(VERSIONS)(
    "account feature is_activated: %s boolean in v1, a string (e.g. ACTIVATED) later",
    (version) => {
      const doc = loadBundle(version);
      const at = ["features", "[]", "is_activated"];
      expect(typesAt(doc, "BankingAccount", at)).toEqual(version === "v1" ? ["boolean"] : ["string"]);
      const values = flatten(doc, schemaAt(doc, component(doc, "BankingAccount"), at)).enum;
      if (version !== "v1" && values) expect(values).toContain("ACTIVATED");
    },
  );

  it.each(VERSIONS)("transactions extended_data: %s", (version) => {
    const doc = loadBundle(version);
    const names = propertiesAt(doc, "BankingTransaction", ["extended_data"]);
    if (version === "v1") {
      expect(names).toEqual(["nppPayload", "service", "x2p101_payload"]);
      return;
    }
    expect(names, "service and x2p101_payload removed from the root").toEqual([
      "extension_u_type",
      "npp_payload",
    ]);
    expect(propertiesAt(doc, "BankingTransaction", ["extended_data", "npp_payload"])).toEqual([
      "extended_description",
      "service",
      "service_version",
    ]);
    // "extension_u_type names the extension": no type and no values given, so none invented.
    expect(
      flatten(doc, schemaAt(doc, component(doc, "BankingTransaction"), ["extended_data", "extension_u_type"]))
        .enum,
    ).toBeUndefined();
  });

  it.each(VERSIONS)(
    "identity response: %s customer (deprecated) in v1 only, identities[] unchanged",
    (version) => {
      const doc = loadBundle(version);
      const flat = flatten(doc, component(doc, "CommonIdentityResponse"));
      expect(Object.keys(flat.properties).sort()).toEqual(
        version === "v1" ? ["customer", "identities"] : ["identities"],
      );
      if (version === "v1")
        expect(
          flatten(doc, flat.properties.customer).deprecated || flat.properties.customer?.deprecated,
        ).toBe(true);
      expect([...(flatten(doc, flat.properties.identities).types ?? [])]).toEqual(["array"]);
      const v1 = loadBundle("v1");
      expect(json(inline(doc, flat.properties.identities))).toBe(
        json(inline(v1, flatten(v1, component(v1, "CommonIdentityResponse")).properties.identities)),
      );
    },
  );

  it("only the four GET responses change: every other operation of v2 equals v1", () => {
    const [v1, v2] = [loadBundle("v1"), loadBundle("v2")];
    expect(unlistedChanges(v1, v2, CHANGED_V1_TO_V2), UNLISTED("CHANGED_V1_TO_V2")).toEqual([]);
    for (const { path, method } of operations(v1)) {
      // The four changed reads: everything but the 200 response (and the prose describing it) is equal.
      const changed = CHANGED_V1_TO_V2.includes(path);
      const [a, b] = [
        comparable(v1, path, method, changed ? ["200"] : []),
        comparable(v2, path, method, changed ? ["200"] : []),
      ] as Node[];
      if (changed) for (const op of [a, b]) delete op!.description;
      expect(json(b), `${method} ${path}`).toBe(json(a));
    }
  });

  it.each(CHANGED_V1_TO_V2)("the 200 response of GET %s differs between v1 and v2", (path) => {
    const [v1, v2] = [loadBundle("v1"), loadBundle("v2")];
    expect(json(comparable(v2, path, "get"))).not.toBe(json(comparable(v1, path, "get")));
  });
});

/** The operations that differ between two versions' documents in any way, but are not on the `listed` paths. */
function unlistedChanges(before: Node, after: Node, listed: readonly string[]): string[] {
  return operations(before)
    .filter(({ path }) => !listed.includes(path))
    .filter(
      ({ path, method }) => json(comparable(after, path, method)) !== json(comparable(before, path, method)),
    )
    .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
}

/** What a failure of `unlistedChanges` means, and where to say so. */
const UNLISTED = (list: string) =>
  `operations that differ but are not in ${list} (test/interface-model.ts): a change the interface states goes there, with a check of its own below (spec/README.md, "A query parameter", "A field")`;

describe("Version 2 to 3 changes", () => {
  const LISTS: [string, string, string][] = [
    ["/v1/consent", "ConsentList", "consents"],
    ["/v1/end-users", "EndUserList", "end_users"],
  ];
  const LIST_ROWS = VERSIONS.flatMap((v) => LISTS.map(([path, name, key]) => [v, path, name, key] as const));

  it.each(LIST_ROWS)(
    "list body: %s %s bare array in v1 and v2, an envelope in v3",
    (version, path, name, key) => {
      const doc = loadBundle(version);
      const flat = flatten(doc, component(doc, name));
      if (builtOn(version, "v3")) {
        expect([...(flat.types ?? [])]).toEqual(["object"]);
        expect(Object.keys(flat.properties).sort(), path).toEqual([key, "links"].sort());
        expect([...flat.required]).toEqual([key]);
      } else {
        expect([...(flat.types ?? [])], path).toEqual(["array"]);
      }
    },
  );

  it("end-user item fields are unchanged across versions", () => {
    const [first, ...later] = VERSIONS.map((v) =>
      json(inline(loadBundle(v), component(loadBundle(v), "EndUser"))),
    );
    for (const item of later)
      expect(
        item,
        "the interface's table keeps end-user item fields unchanged: a version that changes them stops this check before it (builtOn) and adds a check of its change",
      ).toBe(first);
  });

  it.each(VERSIONS)("consent fields: %s snake_case in v1 and v2, camelCase in v3", (version) => {
    const doc = loadBundle(version);
    const names = Object.keys(flatten(doc, component(doc, "Consent")).properties);
    if (builtOn(version, "v3")) {
      expect(names).toContain("arrangementId");
      expect(names).not.toContain("arrangement_id");
      for (const name of names) expect(name, "camelCase").toMatch(/^[a-z][a-zA-Z0-9]*$/);
    } else {
      expect(names).toContain("arrangement_id");
      expect(names).not.toContain("arrangementId");
      for (const name of names) expect(name, "snake_case").toMatch(/^[a-z][a-z0-9_]*$/);
    }
  });

  it.each(LIST_ROWS)("error body: %s %s extended in v1 and v2, short in v3", (version, path) => {
    const doc = loadBundle(version);
    const op = doc.paths[path].get;
    const errors = Object.entries(op.responses as Node).filter(([status]) => /^[45]/.test(status));
    expect(errors.length).toBeGreaterThan(0);
    for (const [status, raw] of errors) {
      const resolved = inline(doc, raw) as Node;
      for (const media of Object.values(resolved.content as Node)) {
        const names = Object.keys(flatten(doc, (media as Node).schema).properties).sort();
        const expected = builtOn(version, "v3")
          ? ["id", "message", "name"]
          : ["fault", "id", "message", "name", "temporary", "timeout"];
        expect(names, `${path} ${status}`).toEqual(expected);
      }
    }
  });

  it.each(VERSIONS)(
    "query expires_before: %s accepted on the consent list in v1 and v2, gone from both lists in v3",
    (version) => {
      const doc = loadBundle(version);
      const consent = parameters(doc, "/v1/consent").map((p) => p.name);
      const endUsers = parameters(doc, "/v1/end-users").map((p) => p.name);
      if (builtOn(version, "v3")) {
        expect(consent).not.toContain("expires_before");
        expect(endUsers).not.toContain("expires_before");
      } else {
        expect(consent).toContain("expires_before");
        // The row may cover the end-user list too; beside it that list has no query filter (not shown).
        expect(
          parameters(doc, "/v1/end-users").filter((p) => p.in === "query" && p.name !== "expires_before"),
        ).toEqual([]);
      }
    },
  );

  it.each(VERSIONS)(
    "query expires_before: %s the documents say the row does not name the list that accepts it",
    (version) => {
      const doc = loadBundle(version);
      const silent = /(without saying|does not say) which of the two/;
      const endUsers = doc.paths["/v1/end-users"].get.description as string;
      expect(endUsers).toMatch(silent);
      if (!builtOn(version, "v3")) {
        const parameter = parameters(doc, "/v1/consent").find((p) => p.name === "expires_before");
        expect(parameter?.description).toMatch(silent);
      }
    },
  );

  it.each(LIST_ROWS)(
    "paging: %s %s none in v1 and v2, opt-in page[size|after|before] in v3",
    (version, path) => {
      const doc = loadBundle(version);
      const paging = parameters(doc, path).filter((p) => String(p.name).startsWith("page["));
      if (!builtOn(version, "v3")) {
        expect(paging).toEqual([]);
        return;
      }
      expect(paging.map((p) => p.name).sort()).toEqual(["page[after]", "page[before]", "page[size]"]);
      for (const p of paging) expect(p.required ?? false, p.name).toBe(false);
      expect(paging.find((p) => p.name === "page[size]")?.schema?.maximum).toBe(1000);
    },
  );

  it("banking, energy and authentication are identical: every other operation of v3 equals v2", () => {
    const [v2, v3] = [loadBundle("v2"), loadBundle("v3")];
    expect(unlistedChanges(v2, v3, CHANGED_V2_TO_V3), UNLISTED("CHANGED_V2_TO_V3")).toEqual([]);
    for (const { path, method } of operations(v2)) {
      if (CHANGED_V2_TO_V3.includes(path)) continue;
      expect(json(comparable(v3, path, method)), `${method} ${path}`).toBe(
        json(comparable(v2, path, method)),
      );
    }
  });

  it("v3 component schemas equal v2 except the consent and end-user lists", () => {
    const [v2, v3] = [loadBundle("v2"), loadBundle("v3")];
    const changed = new Set(["Consent", "ConsentList", "EndUserList"]);
    const names = (doc: Node) => Object.keys(doc.components.schemas).filter((n) => !changed.has(n));
    expect(names(v3).sort()).toEqual(names(v2).sort());
    for (const name of names(v2)) {
      const [before, after] = [inline(v2, component(v2, name)), inline(v3, component(v3, name))];
      expect(
        json(after),
        `${name}: v3's differs from v2's first at ${firstDifference(before, after)}; a schema v3 changes, or one that inlines a changed one (a list's envelope holds its records), goes in \`changed\`, the set of component schemas v3 changes in this test (spec/test/fidelity-versioning.test.ts)`,
      ).toBe(json(before));
    }
  });

  it.each(CHANGED_V2_TO_V3)("GET %s differs between v2 and v3", (path) => {
    const [v2, v3] = [loadBundle("v2"), loadBundle("v3")];
    expect(json(comparable(v3, path, "get"))).not.toBe(json(comparable(v2, path, "get")));
  });
});

describe("Version 1 to 3: both sets of changes at once", () => {
  it("v3 carries the v2 banking shapes, not the v1 ones", () => {
    const [v1, v2, v3] = [loadBundle("v1"), loadBundle("v2"), loadBundle("v3")];
    for (const name of [
      "BankingAccount",
      "BankingProductDetail",
      "BankingTransaction",
      "CommonIdentityResponse",
    ]) {
      const shape = json(inline(v3, component(v3, name)));
      expect(shape, name).toBe(json(inline(v2, component(v2, name))));
      expect(shape, name).not.toBe(json(inline(v1, component(v1, name))));
    }
  });
});
