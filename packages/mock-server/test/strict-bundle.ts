/**
 * A bundle "made strict" for response validation: every object schema admits only the properties
 * it (or the schemas it composes) declares. JSON Schema is open by default, so the plain bundle
 * would let the sandbox serve fields the documents never name; this copy makes those a failure.
 *
 * - `additionalProperties` given as a schema is a documented map and stays as it is.
 * - `additionalProperties: true` is treated as absent: the project rule says "other fields exist"
 *   is said in words, never with that keyword, so it must not let undeclared fields through.
 * - Members of `allOf`/`oneOf`/`anyOf` are not closed themselves (a base closed on its own would
 *   refuse the fields its extension adds); the schema that composes them gets
 *   `unevaluatedProperties: false`, which sees every property its members evaluate. A component
 *   used as such a member anywhere is closed at each of its other `$ref` sites instead.
 */
type Json = Record<string, unknown>;

const COMPOSITIONS = ["allOf", "oneOf", "anyOf"] as const;
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"] as const;
const SCHEMA_SINGLES = ["items", "contains", "not", "if", "then", "else", "propertyNames"] as const;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function objectLike(schema: Json): boolean {
  const type = schema.type;
  return (
    isObject(schema.properties) ||
    type === "object" ||
    (Array.isArray(type) && type.includes("object")) ||
    typeof schema.$ref === "string" ||
    COMPOSITIONS.some((key) => Array.isArray(schema[key]))
  );
}

/** Closes a schema in place; `member` says it is a member of a composition (left open). */
function close(schema: unknown, member: boolean): void {
  if (!isObject(schema)) return;
  if (schema.additionalProperties === true) delete schema.additionalProperties;
  for (const key of SCHEMA_MAPS)
    if (isObject(schema[key])) for (const child of Object.values(schema[key])) close(child, false);
  for (const key of SCHEMA_SINGLES) close(schema[key], false);
  if (Array.isArray(schema.prefixItems)) for (const child of schema.prefixItems) close(child, false);
  if (isObject(schema.additionalProperties)) close(schema.additionalProperties, false);
  for (const key of COMPOSITIONS)
    if (Array.isArray(schema[key])) for (const child of schema[key]) close(child, true);
  if (
    !member &&
    objectLike(schema) &&
    schema.additionalProperties === undefined &&
    schema.unevaluatedProperties === undefined
  )
    schema.unevaluatedProperties = false;
}

/** Names of components that some composition uses as a member (`allOf: [{$ref: …/Name}]`). */
function composedComponents(document: Json): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    for (const key of COMPOSITIONS) {
      const members = node[key];
      if (!Array.isArray(members)) continue;
      for (const m of members) {
        const ref = isObject(m) ? m.$ref : undefined;
        if (typeof ref === "string" && ref.startsWith("#/components/schemas/"))
          names.add(ref.slice("#/components/schemas/".length));
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(document);
  return names;
}

/** Every schema under `content` of responses and request bodies, wherever they sit in paths. */
function closeContentSchemas(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) closeContentSchemas(item);
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.content)) {
    for (const media of Object.values(node.content)) if (isObject(media)) close(media.schema, false);
  }
  for (const [key, value] of Object.entries(node)) if (key !== "content") closeContentSchemas(value);
}

/** A deep copy of the bundle with every object schema closed (see the module comment). */
export function strictBundle(document: Json): Json {
  const copy = structuredClone(document);
  const components = (copy.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  const composed = composedComponents(copy);
  for (const [name, schema] of Object.entries(schemas)) close(schema, composed.has(name));
  for (const [group, entries] of Object.entries(components))
    if (group !== "schemas" && isObject(entries)) closeContentSchemas(entries);
  closeContentSchemas(copy.paths);
  return copy;
}
