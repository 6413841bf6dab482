// Loads the bundles in dist/ and gives a resolved, allOf-merged view of their schemas and operations.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deref as derefNode, inlineRefs, listOperations, operationParameters } from "../openapi/index.js";
import { readRegistry } from "../registry/index.js";
import { pairName, versionPairs } from "../scripts/lib/docs-site.mjs";

export { HTTP_METHODS, resolvePointer as pointer } from "../openapi/index.js";

/** A node of a JSON document: the tests only read, so a loose record is enough. */
// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are arbitrary JSON read by the tests.
export type Node = Record<string, any>;

export const SPEC_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
/**
 * The interface spec, the documents' source of truth: beside the repository (shared/ next to the
 * clone), where CDAS_INTERFACE_SPEC says, or at /work/shared; the tests that quote it fail without it.
 */
export const INTERFACE_SPEC =
  process.env.CDAS_INTERFACE_SPEC ??
  [join(SPEC_DIR, "..", "..", "shared", "interface-spec.md"), "/work/shared/interface-spec.md"].find((file) =>
    existsSync(file),
  ) ??
  join(SPEC_DIR, "..", "..", "shared", "interface-spec.md");
/** The bundles' folder: dist/, or CDAS_SPEC_DIST to test bundles written elsewhere. */
const DIST_DIR = process.env.CDAS_SPEC_DIST ?? join(SPEC_DIR, "dist");

/** A version name of the registry (`v1`, ...). */
export type Version = string;
/** The versions of the bundle folder, in release order (its versions.json, a copy of spec/versions.json). */
const REGISTRY = readRegistry(DIST_DIR);
export const VERSIONS: Version[] = REGISTRY.versions;
/**
 * Whether `version` is `base` or built on it (its lineage holds `base`). A fact of the interface's v3
 * holds for a later version based on it unless that version changes it: tests say `builtOn(v, "v3")`.
 */
export const builtOn = (version: Version, base: Version): boolean => REGISTRY.lineage(version).includes(base);
export const bundlePath = (version: Version) => join(DIST_DIR, `${version}.json`);

/**
 * `make` of every pair of registered versions (older first), under the build's names ("v1-to-v2", ...),
 * and `of(pair)` for a pair a test names (the interface's tables say what those pairs change): it
 * names the registered versions when the pair is not among them.
 */
export function everyVersionPair<T>(what: string, make: (from: Version, to: Version) => T) {
  const all = new Map<string, T>(
    (versionPairs(VERSIONS) as [Version, Version][]).map(([from, to]) => [
      pairName(from, to),
      make(from, to),
    ]),
  );
  const of = (pair: string): T => {
    if (!all.has(pair))
      throw new Error(`no ${what} ${pair}: the registered versions are ${VERSIONS.join(", ")}`);
    return all.get(pair) as T;
  };
  return { all, of };
}

const bundles = new Map<Version, Node>();

/** The parsed bundle dist/<version>.json (cached; run `pnpm --filter @cdas/spec build` first). */
export function loadBundle(version: Version): Node {
  const cached = bundles.get(version);
  if (cached) return cached;
  const path = bundlePath(version);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`pnpm --filter @cdas/spec build\` first`);
  const doc = JSON.parse(readFileSync(path, "utf8")) as Node;
  bundles.set(version, doc);
  return doc;
}

/** A fresh parsed copy, for tools that mutate the document they are given. */
export function freshBundle(version: Version): Node {
  return JSON.parse(readFileSync(bundlePath(version), "utf8")) as Node;
}

const isObject = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Resolves `$ref` chains at the top of a node (sibling keywords override the target's); an object. */
export function deref(doc: Node, node: unknown): Node {
  const resolved = derefNode(doc, node);
  if (!isObject(resolved)) throw new Error(`expected an object, got ${JSON.stringify(resolved)}`);
  return resolved;
}

/** A deep copy with every local `$ref` replaced by its target (the schemas here have no cycles). */
export const inline = (doc: Node, node: unknown): unknown => inlineRefs(doc, node);

/** The allOf-merged, oneOf/anyOf-united view of a schema that the fidelity assertions read. */
export interface Flat {
  /** JSON types the schema allows; null when it does not constrain the type. */
  types: Set<string> | null;
  properties: Record<string, Node>;
  required: Set<string>;
  /** Allowed values when every branch restricts them (enum or const); undefined when open. */
  enum: unknown[] | undefined;
  format: string | undefined;
  /** The first description found (own, then allOf members in order). */
  description: string | undefined;
  default: unknown;
  minimum: number | undefined;
  maximum: number | undefined;
  items: Node | undefined;
  /** false when some branch forbids additional properties. */
  additionalProperties: boolean | Node | undefined;
  deprecated: boolean;
  /** oneOf/anyOf branches (dereferenced) when the schema is a union. */
  branches: Node[];
}

function typesOfEnum(values: unknown[]): Set<string> {
  return new Set(
    values.map((v) =>
      v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v,
    ),
  );
}

function intersect(a: Set<string> | null, b: Set<string> | null): Set<string> | null {
  if (a === null) return b;
  if (b === null) return a;
  const result = new Set<string>();
  for (const type of a) {
    if (b.has(type)) result.add(type);
    else if (type === "integer" && b.has("number")) result.add("integer");
  }
  for (const type of b) if (type === "integer" && a.has("number")) result.add("integer");
  return result;
}

/** Dereferences a schema and merges its allOf members; unions of oneOf/anyOf members are combined. */
export function flatten(doc: Node, schema: unknown): Flat {
  const node = deref(doc, schema);
  const own: Flat = {
    types:
      node.type === undefined ? null : new Set<string>(Array.isArray(node.type) ? node.type : [node.type]),
    properties: { ...(node.properties ?? {}) },
    required: new Set<string>(node.required ?? []),
    enum: node.const !== undefined ? [node.const] : node.enum,
    format: node.format,
    description: node.description,
    default: node.default,
    minimum: node.minimum,
    maximum: node.maximum,
    items: node.items,
    additionalProperties: node.additionalProperties,
    deprecated: node.deprecated === true,
    branches: [],
  };
  if (own.types === null && own.enum) own.types = typesOfEnum(own.enum);
  let merged = own;
  for (const member of node.allOf ?? []) merged = mergeAll(merged, flatten(doc, member));
  const union = node.oneOf ?? node.anyOf;
  if (union) merged = mergeAll(merged, unite(doc, union));
  return merged;
}

function mergeAll(a: Flat, b: Flat): Flat {
  const properties: Record<string, Node> = { ...a.properties };
  for (const [name, schema] of Object.entries(b.properties)) {
    properties[name] = properties[name] ? { allOf: [properties[name], schema] } : schema;
  }
  return {
    types: intersect(a.types, b.types),
    properties,
    required: new Set([...a.required, ...b.required]),
    enum: a.enum && b.enum ? a.enum.filter((v) => b.enum!.some((w) => Object.is(v, w))) : (a.enum ?? b.enum),
    format: a.format ?? b.format,
    description: a.description ?? b.description,
    default: a.default ?? b.default,
    minimum: a.minimum ?? b.minimum,
    maximum: a.maximum ?? b.maximum,
    items: a.items && b.items ? { allOf: [a.items, b.items] } : (a.items ?? b.items),
    additionalProperties:
      a.additionalProperties === false || b.additionalProperties === false
        ? false
        : (a.additionalProperties ?? b.additionalProperties),
    deprecated: a.deprecated || b.deprecated,
    branches: [...a.branches, ...b.branches],
  };
}

function unite(doc: Node, members: unknown[]): Flat {
  const flats = members.map((member) => flatten(doc, member));
  const typed = flats.every((f) => f.types !== null);
  const properties: Record<string, Node> = {};
  for (const flat of flats) {
    for (const [name, schema] of Object.entries(flat.properties)) {
      properties[name] = properties[name] ? { anyOf: [properties[name], schema] } : schema;
    }
  }
  const nonNull = flats.filter((f) => !(f.types?.size === 1 && f.types.has("null")));
  const restricted = flats.every((f) => f.enum !== undefined || (f.types?.size === 1 && f.types.has("null")));
  const first = nonNull[0];
  return {
    types: typed ? new Set(flats.flatMap((f) => [...f.types!])) : null,
    properties,
    required: new Set(
      [...(flats[0]?.required ?? [])].filter((name) => flats.every((f) => f.required.has(name))),
    ),
    enum: restricted ? flats.flatMap((f) => f.enum ?? [null]) : undefined,
    format: nonNull.length === 1 ? first?.format : undefined,
    description: undefined,
    default: undefined,
    minimum: nonNull.length === 1 ? first?.minimum : undefined,
    maximum: nonNull.length === 1 ? first?.maximum : undefined,
    items: nonNull.length === 1 ? first?.items : undefined,
    additionalProperties: undefined,
    deprecated: false,
    branches: members.map((member) => deref(doc, member)),
  };
}

/** The component schema of that name, failing clearly when it is missing. */
export function component(doc: Node, name: string): Node {
  const schema = doc.components?.schemas?.[name];
  if (!schema) throw new Error(`components.schemas.${name} is missing`);
  return schema;
}

/**
 * The schema at a field path below a schema: segments are property names, "[]" steps into array items.
 * Returns undefined when a segment does not exist.
 */
export function schemaAt(doc: Node, root: unknown, path: string[]): Node | undefined {
  let current: unknown = root;
  for (const segment of path) {
    const flat = flatten(doc, current);
    current = segment === "[]" ? flat.items : flat.properties[segment];
    if (current === undefined) return undefined;
  }
  return current as Node;
}

export interface Operation {
  path: string;
  method: string;
  op: Node;
}

/** Every operation of a bundle, path items and operations dereferenced. */
export const operations = (doc: Node): Operation[] =>
  listOperations<Node>(doc).map(({ path, method, operation }) => ({ path, method, op: operation }));

/** The operation at path and method, failing clearly when it is missing. */
export function operation(doc: Node, path: string, method = "get"): Node {
  const item = doc.paths?.[path];
  if (!item) throw new Error(`path ${path} is missing`);
  const op = deref(doc, item)[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is missing`);
  return op;
}

/** The operation's parameters (path-level ones included, operation-level ones winning), dereferenced. */
export function parameters(doc: Node, path: string, method = "get"): Node[] {
  const item = deref(doc, doc.paths[path]);
  return operationParameters<Node>(doc, item, item[method] ?? {});
}

/** The query (or other location) parameter of that name, or undefined. */
export function parameter(doc: Node, path: string, name: string, where = "query", method = "get") {
  return parameters(doc, path, method).find((p) => p.in === where && p.name === name);
}

/** The response of that status, dereferenced. */
export function response(doc: Node, path: string, status: string, method = "get"): Node | undefined {
  const raw = operation(doc, path, method).responses?.[status];
  return raw === undefined ? undefined : deref(doc, raw);
}

/** The interface's `content-type` of a request with a body, the media type of every request body. */
export const REQUEST_MEDIA_TYPE = "application/json; charset=UTF-8";

/** Statuses of an operation's 2xx responses. */
export const successStatuses = (op: Node) => Object.keys(op.responses ?? {}).filter((s) => /^2/.test(s));
/** Statuses of an operation's error responses (4xx, 5xx, 4XX, default). */
export const errorStatuses = (op: Node) =>
  Object.keys(op.responses ?? {}).filter((s) => /^[45]/.test(s) || s === "default");

/** The set of property names of a (flattened) object schema. */
export const propertyNames = (doc: Node, schema: unknown) =>
  Object.keys(flatten(doc, schema).properties).sort();

/** The effective security requirements of an operation (its own, else the document's). */
export const securityOf = (doc: Node, op: Node): Node[] => op.security ?? doc.security ?? [];

/** The name of the document's http bearer security scheme. */
export function bearerSchemeName(doc: Node): string {
  const entry = Object.entries(doc.components?.securitySchemes ?? {}).find(([, scheme]) => {
    const resolved = deref(doc, scheme);
    return resolved.type === "http" && String(resolved.scheme).toLowerCase() === "bearer";
  });
  if (!entry) throw new Error("no http bearer security scheme in components.securitySchemes");
  return entry[0];
}

/** Walks a JSON value, calling visit with every object and its key path. */
export function walk(value: unknown, visit: (node: Node, path: string[]) => void, path: string[] = []): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) walk(item, visit, [...path, String(index)]);
  } else if (isObject(value)) {
    visit(value, path);
    for (const [key, child] of Object.entries(value)) walk(child, visit, [...path, key]);
  }
}

/** The version header parameter of an operation, if documented. */
export function versionHeader(doc: Node, path: string, method: string): Node | undefined {
  return parameters(doc, path, method).find(
    (p) => p.in === "header" && String(p.name).toLowerCase() === "x-platform-version",
  );
}

/** Runs the workspace's tsc on the project in `dir` (its tsconfig.json); gives its diagnostics, "" when clean. */
export function typeCheck(dir: string): string {
  const tsc = createRequire(join(SPEC_DIR, "..", "package.json")).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}
