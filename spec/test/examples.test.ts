// Examples: every operation has a success and an error example, every example validates against its
// schema (Ajv, JSON Schema 2020-12, strict types off), and the examples are Australian (AUD, BSBs, NMIs).
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
}

/** The examples of a media type object or a parameter, each with a name. */
function examplesOf(doc: Node, holder: Node): [string, unknown][] {
  const result: [string, unknown][] = [];
  if (holder.example !== undefined) result.push(["example", holder.example]);
  for (const [name, raw] of Object.entries((holder.examples ?? {}) as Node)) {
    const example = deref(doc, raw);
    expect(example.externalValue, `${name}: external examples are not validated`).toBeUndefined();
    result.push([name, example.value]);
  }
  return result;
}

/** Every example of a bundle: request bodies, responses and parameters of every operation. */
function exampleCases(version: Version): ExampleCase[] {
  const doc = loadBundle(version);
  const cases: ExampleCase[] = [];
  for (const { path, method, op } of operations(doc)) {
    const label = `${method.toUpperCase()} ${path}`;
    const media = (owner: string, content: Node | undefined) => {
      for (const [type, raw] of Object.entries(content ?? {})) {
        const mediaType = raw as Node;
        for (const [name, value] of examplesOf(doc, mediaType)) {
          cases.push({
            version,
            where: `${label} ${owner} ${type} ${name}`,
            schema: mediaType.schema,
            value,
          });
        }
      }
    };
    if (op.requestBody) media("request", deref(doc, op.requestBody).content);
    for (const status of Object.keys(op.responses ?? {}))
      media(status, deref(doc, op.responses[status]).content);
    for (const raw of op.parameters ?? []) {
      const param = deref(doc, raw);
      for (const [name, value] of examplesOf(doc, param)) {
        cases.push({
          version,
          where: `${label} parameter ${param.name} ${name}`,
          schema: param.schema,
          value,
        });
      }
    }
  }
  return cases;
}

const validators = new Map<string, ValidateFunction>();
function validator(version: Version, schema: unknown, strictProperties: boolean): ValidateFunction {
  const doc = loadBundle(version);
  const inlined = inline(doc, schema);
  const key = `${version}:${strictProperties}:${JSON.stringify(inlined)}`;
  let validate = validators.get(key);
  if (!validate) {
    const ajv = makeAjv(extensionKeywords(doc));
    validate = ajv.compile((strictProperties ? closed(inlined) : inlined) as object);
    validators.set(key, validate);
  }
  return validate;
}

const allCases = VERSIONS.flatMap((v) => exampleCases(v).map((c) => [c.version, c.where, c] as const));
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

  it.each(rows)("%s %s: a success example", (version, _label, op) => {
    const doc = loadBundle(version);
    const examples = successStatuses(op).flatMap((status) =>
      Object.values(deref(doc, op.responses[status]).content ?? {}).flatMap((m) =>
        examplesOf(doc, m as Node),
      ),
    );
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(rows)("%s %s: at least one error example", (version, _label, op) => {
    const doc = loadBundle(version);
    const examples = errorStatuses(op).flatMap((status) =>
      Object.values(deref(doc, op.responses[status]).content ?? {}).flatMap((m) =>
        examplesOf(doc, m as Node),
      ),
    );
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(rows.filter(([, , op]) => op.requestBody))(
    "%s %s: a request body example",
    (version, _label, op) => {
      const doc = loadBundle(version);
      const content = deref(doc, op.requestBody).content ?? {};
      expect(Object.values(content).flatMap((m) => examplesOf(doc, m as Node)).length).toBeGreaterThan(0);
    },
  );
});

describe("Token examples show both response forms", () => {
  it.each(VERSIONS)("%s access_token form and token form", (version) => {
    const doc = loadBundle(version);
    const op = doc.paths["/v1/token"].post;
    const values = successStatuses(op).flatMap((status) =>
      Object.values(deref(doc, op.responses[status]).content ?? {}).flatMap((m) =>
        examplesOf(doc, m as Node),
      ),
    );
    const keys = values.map(([, value]) =>
      Object.keys(value as Node)
        .sort()
        .join(","),
    );
    expect(keys).toContain("access_token,expires_in,token_type");
    expect(keys).toContain("expires_in,token");
  });
});

describe("Every example validates against its schema", () => {
  it.each(allCases)("%s %s", (version, _where, c) => {
    expect(c.schema, "the example has a schema").toBeDefined();
    const validate = validator(version, c.schema, false);
    expect(validate(c.value), errorText(validate)).toBe(true);
  });

  it.each(allCases)("%s %s names no field its schema does not define", (version, _where, c) => {
    const validate = validator(version, c.schema, true);
    expect(validate(c.value), errorText(validate)).toBe(true);
  });

  it.each(VERSIONS)("%s schema-level examples validate against their schema", (version) => {
    const doc = loadBundle(version);
    let checked = 0;
    for (const [name, schema] of Object.entries(doc.components.schemas as Node)) {
      walk(inline(doc, schema), (node, path) => {
        if (path.at(-1) === "properties" || !Array.isArray(node.examples)) return;
        const { examples, ...own } = node;
        const validate = validator(version, own, false);
        for (const value of examples) {
          checked += 1;
          expect(validate(value), `${name}.${path.join(".")}: ${errorText(validate)}`).toBe(true);
        }
      });
    }
    expect(checked, "schemas such as ProductCategory carry examples").toBeGreaterThan(0);
  });
});

describe("Examples are Australian", () => {
  it.each(allCases)(
    "%s %s: currencies are AUD, BSBs NNN-NNN, NMIs 10 or 11 characters",
    (_version, where, c) => {
      walk(c.value, (node, path) => {
        for (const [key, value] of Object.entries(node)) {
          if (typeof value !== "string") continue;
          const at = `${where} ${[...path, key].join(".")}`;
          if (/currency$/i.test(key)) expect(value, at).toBe("AUD");
          if (key === "bsb") expect(value, at).toMatch(/^\d{3}-?\d{3}$/);
          const servicePointId = /service-points 2\d\d /.test(where) && path[0] === "data" && key === "id";
          if (key === "service_point_id" || servicePointId) {
            expect(value, at).toMatch(/^[0-9A-Z]{10,11}$/);
          }
        }
      });
    },
  );

  it.each(VERSIONS)("%s some example shows an AUD amount", (version) => {
    const currencies = exampleCases(version).flatMap((c) => {
      const found: string[] = [];
      walk(c.value, (node) => {
        for (const [key, value] of Object.entries(node))
          if (/currency$/i.test(key)) found.push(String(value));
      });
      return found;
    });
    expect(currencies).toContain("AUD");
  });
});
