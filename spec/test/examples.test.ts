// Examples: every operation has a success and an error example; every example is inline, under a
// schema, and names no field that schema does not define where the Redocly lint cannot tell (below an
// allOf); the examples are Australian (AUD, BSBs, NMIs). Whether an example's types and values fit
// its schema is the lint's job (no-invalid-*-examples, allowAdditionalProperties: false in
// redocly.yaml), so it is not repeated here.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import {
  deref,
  errorStatuses,
  inline,
  loadBundle,
  type Node,
  operations,
  successStatuses,
  VERSIONS,
  type Version,
  walk,
} from "./helpers";

/** OpenAPI's own schema keywords, which JSON Schema does not define. */
const OPENAPI_KEYWORDS = ["example", "discriminator", "xml", "externalDocs"];

function makeAjv(extensions: string[]): Ajv2020 {
  const ajv = new Ajv2020({
    strictSchema: true, // an unknown keyword in a document schema is a failure, not silently ignored
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
  });
  addFormats(ajv);
  for (const keyword of [...OPENAPI_KEYWORDS, ...extensions]) ajv.addKeyword(keyword);
  return ajv;
}

/** Every `x-` keyword used inside schemas of a bundle (allowed as annotations). */
function extensionKeywords(doc: Node): string[] {
  const found = new Set<string>();
  walk(doc, (node) => {
    for (const key of Object.keys(node)) if (key.startsWith("x-")) found.add(key);
  });
  return [...found];
}

/**
 * A copy of an inlined schema that refuses properties it does not name (like Redocly's
 * allowAdditionalProperties: false), wherever the document leaves additionalProperties unset.
 */
function closed(schema: unknown, allOfMember = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closed(item));
  if (typeof schema !== "object" || schema === null) return schema;
  const node = schema as Node;
  const copy: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties") {
      copy.properties = Object.fromEntries(
        Object.entries(value as Node).map(([name, child]) => [name, closed(child)]),
      );
    } else if (key === "allOf") {
      copy.allOf = (value as unknown[]).map((member) => closed(member, true));
    } else if (["items", "oneOf", "anyOf", "not", "additionalProperties"].includes(key)) {
      copy[key] = closed(value);
    } else copy[key] = value;
  }
  const objectLike = node.properties !== undefined || node.allOf !== undefined;
  if (
    objectLike &&
    !allOfMember &&
    node.additionalProperties === undefined &&
    node.unevaluatedProperties === undefined
  ) {
    copy.unevaluatedProperties = false;
  }
  return copy;
}

interface ExampleCase {
  version: Version;
  where: string;
  schema: unknown;
  value: unknown;
  /** An externalValue example, which neither the lint nor these tests can read. */
  external: boolean;
}

interface NamedExample {
  name: string;
  value: unknown;
  external: boolean;
}

/** The examples of a media type object or a parameter, each with a name. */
function examplesOf(doc: Node, holder: Node): NamedExample[] {
  const result: NamedExample[] = [];
  if (holder.example !== undefined) result.push({ name: "example", value: holder.example, external: false });
  for (const [name, raw] of Object.entries((holder.examples ?? {}) as Node)) {
    const example = deref(doc, raw);
    result.push({ name, value: example.value, external: example.externalValue !== undefined });
  }
  return result;
}

/** Every example of a bundle: request bodies, responses and parameters of every operation. */
function exampleCases(version: Version): ExampleCase[] {
  const doc = loadBundle(version);
  const cases: ExampleCase[] = [];
  const add = (where: string, schema: unknown, examples: NamedExample[]) => {
    for (const { name, value, external } of examples) {
      cases.push({ version, where: `${where} ${name}`, schema, value, external });
    }
  };
  for (const { path, method, op } of operations(doc)) {
    const label = `${method.toUpperCase()} ${path}`;
    const media = (owner: string, content: Node | undefined) => {
      for (const [type, raw] of Object.entries(content ?? {})) {
        add(`${label} ${owner} ${type}`, (raw as Node).schema, examplesOf(doc, raw as Node));
      }
    };
    if (op.requestBody) media("request", deref(doc, op.requestBody).content);
    for (const status of Object.keys(op.responses ?? {}))
      media(status, deref(doc, op.responses[status]).content);
    for (const raw of op.parameters ?? []) {
      const param = deref(doc, raw);
      add(`${label} parameter ${param.name}`, param.schema, examplesOf(doc, param));
    }
  }
  return cases;
}

const validators = new Map<string, ValidateFunction>();
/** Ajv for the schema with every object closed (see `closed`), compiled once per distinct schema. */
function closedValidator(version: Version, schema: unknown): ValidateFunction {
  const doc = loadBundle(version);
  const inlined = inline(doc, schema);
  const key = `${version}:${JSON.stringify(inlined)}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = makeAjv(extensionKeywords(doc)).compile(closed(inlined) as object);
    validators.set(key, validate);
  }
  return validate;
}

/** Whether an allOf appears anywhere in the schema, where the lint leaves objects open. */
function composesWithAllOf(doc: Node, schema: unknown): boolean {
  let found = false;
  walk(inline(doc, schema), (node) => {
    if (Array.isArray(node.allOf)) found = true;
  });
  return found;
}

const allCases = VERSIONS.flatMap((v) => exampleCases(v));
const errorText = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`)
    .join("; ");

describe("Every operation has examples", () => {
  const rows = VERSIONS.flatMap((v) =>
    operations(loadBundle(v)).map(
      ({ path, method, op }) => [v, `${method.toUpperCase()} ${path}`, op] as const,
    ),
  );
  const examplesUnder = (doc: Node, content: Node | undefined) =>
    Object.values(content ?? {}).flatMap((m) => examplesOf(doc, m as Node));
  const examplesOfStatuses = (doc: Node, op: Node, statuses: string[]) =>
    statuses.flatMap((status) => examplesUnder(doc, deref(doc, op.responses[status]).content));

  it.each(rows)("%s %s: a success example", (version, _label, op) => {
    const doc = loadBundle(version);
    expect(examplesOfStatuses(doc, op, successStatuses(op)).length).toBeGreaterThan(0);
  });

  it.each(rows)("%s %s: at least one error example", (version, _label, op) => {
    const doc = loadBundle(version);
    expect(examplesOfStatuses(doc, op, errorStatuses(op)).length).toBeGreaterThan(0);
  });

  it.each(rows.filter(([, , op]) => op.requestBody))(
    "%s %s: a request body example",
    (version, _label, op) => {
      const doc = loadBundle(version);
      expect(examplesUnder(doc, deref(doc, op.requestBody).content).length).toBeGreaterThan(0);
    },
  );

  it.each(VERSIONS)("%s token examples show the access_token form and the token form", (version) => {
    const doc = loadBundle(version);
    const op = doc.paths["/v1/token"].post;
    const keys = examplesOfStatuses(doc, op, successStatuses(op)).map(({ value }) =>
      Object.keys(value as Node)
        .sort()
        .join(","),
    );
    expect(keys).toContain("access_token,expires_in,token_type");
    expect(keys).toContain("expires_in,token");
  });
});

describe("Examples sit under a schema and name only the fields it defines", () => {
  it.each(VERSIONS)("%s every example is inline and has a schema", (version) => {
    const cases = allCases.filter((c) => c.version === version);
    expect(cases.length, "the bundle has examples").toBeGreaterThan(0);
    expect(cases.filter((c) => c.external).map((c) => c.where)).toEqual([]);
    expect(cases.filter((c) => c.schema === undefined).map((c) => c.where)).toEqual([]);
  });

  // The lint closes plain objects (allowAdditionalProperties: false) but leaves every object below an
  // allOf open, so an invented field there passes it; only those examples are checked here.
  const belowAllOf = allCases.filter(
    (c) => c.schema !== undefined && composesWithAllOf(loadBundle(c.version), c.schema),
  );
  it.each(belowAllOf.map((c) => [c.version, c.where, c] as const))(
    "%s %s names no field its schema does not define",
    (version, _where, c) => {
      const validate = closedValidator(version, c.schema);
      expect(validate(c.value), errorText(validate)).toBe(true);
    },
  );
});

/** What the interface's Australian conventions allow, by the kind of value. */
const AUSTRALIAN = {
  currency: /^AUD$/,
  bsb: /^\d{3}-?\d{3}$/,
  nmi: /^[0-9A-Z]{10,11}$/,
} as const;

interface AustralianFact {
  at: string;
  kind: keyof typeof AUSTRALIAN;
  value: string;
}

/** A string value of an example: where it is, its key, its path and the keys beside it. */
interface StringEntry {
  at: string;
  key: string;
  path: string[];
  value: string;
  beside: string[];
}

/** Every string value of an example, anywhere in it. */
function stringEntries(c: ExampleCase): StringEntry[] {
  const entries: StringEntry[] = [];
  walk(c.value, (node, path) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value !== "string") continue;
      entries.push({
        at: `${c.where} ${[...path, key].join(".")}`,
        key,
        path,
        value,
        beside: Object.keys(node),
      });
    }
  });
  return entries;
}

/** The currencies, BSBs and NMIs (service point ids) an example shows. */
function australianFacts(c: ExampleCase): AustralianFact[] {
  const servicePoints = /service-points 2\d\d /.test(c.where);
  return stringEntries(c).flatMap(({ at, key, path, value }): AustralianFact[] => {
    if (/currency$/i.test(key)) return [{ at, kind: "currency", value }];
    if (key === "bsb") return [{ at, kind: "bsb", value }];
    if (key === "service_point_id" || (servicePoints && path[0] === "data" && key === "id"))
      return [{ at, kind: "nmi", value }];
    return [];
  });
}

describe("Examples are Australian", () => {
  // An example that shows no currency, BSB or NMI has nothing to check, so it gets no row.
  const rows = allCases
    .map((c) => [c.version, c.where, australianFacts(c)] as const)
    .filter(([, , facts]) => facts.length > 0);

  it.each(rows)("%s %s: currencies are AUD, BSBs NNN-NNN, NMIs 10 or 11 characters", (_v, _where, facts) => {
    for (const { at, kind, value } of facts) expect(value, `${at} (${kind})`).toMatch(AUSTRALIAN[kind]);
  });

  it.each(VERSIONS)("%s some example shows an AUD amount, a BSB and an NMI", (version) => {
    const kinds = rows.filter(([v]) => v === version).flatMap(([, , facts]) => facts.map((f) => f.kind));
    expect(new Set(kinds)).toEqual(new Set(Object.keys(AUSTRALIAN)));
  });
});

/** Each `*_u_type`/`*_utype` value of an example, with the keys beside it. */
const unionTags = (c: ExampleCase) => stringEntries(c).filter(({ key }) => /_u_?type$/.test(key));

describe("Union tags name the object beside them", () => {
  // The interface documents one set of values, fee_method_u_type's: the nested object's name in
  // camelCase (fixedAmount for fixed_amount). The other tags' values are not documented; the
  // examples (and the sandbox) follow that convention, so a tag always finds its object.
  const rows = allCases
    .map((c) => [c.version, c.where, unionTags(c)] as const)
    .filter(([, , tags]) => tags.length > 0);

  it.each(rows)("%s %s: each tag is the camelCase name of an object beside it", (_v, _where, tags) => {
    for (const { at, value, beside } of tags) {
      expect(value, at).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      const snake = value.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      expect(beside, `${at} = ${value}`).toContain(snake);
    }
  });
});
