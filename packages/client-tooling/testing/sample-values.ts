// Realistic values built from the bundle's schemas: examples first, then enums, defaults and formats.
import { type Bundle, type ParameterObject, resolveRef, type SchemaObject } from "../lib/bundle.mjs";

const MAX_DEPTH = 8;

/** A value for a parameter: its example, else one built from its schema (and its name). */
export function sampleParameter(bundle: Bundle, parameter: ParameterObject): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const firstExample = Object.values(parameter.examples ?? {})[0];
  if (firstExample !== undefined) return resolveRef<{ value?: unknown }>(bundle, firstExample).value;
  return sampleSchema(bundle, parameter.schema ?? { type: "string" }, parameter.name);
}

/** The example of a media type object, else a value built from its schema. */
export function sampleMedia(bundle: Bundle, media: SchemaObject): unknown {
  if (media.example !== undefined) return media.example;
  const firstExample = Object.values((media.examples as Record<string, unknown> | undefined) ?? {})[0];
  if (firstExample !== undefined) return resolveRef<{ value?: unknown }>(bundle, firstExample).value;
  return sampleSchema(bundle, (media.schema as SchemaObject | undefined) ?? {}, "body");
}

export function sampleSchema(bundle: Bundle, rawSchema: unknown, name: string, depth = 0): unknown {
  const schema = resolveRef<SchemaObject>(bundle, rawSchema) ?? {};
  if ("const" in schema) return schema.const;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => sampleSchema(bundle, part, name, depth + 1)));
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (alternatives?.length) return sampleSchema(bundle, alternatives[0], name, depth + 1);
  switch (typeOf(schema)) {
    case "string":
      return sampleString(schema, name);
    case "integer":
      return clamp(25, schema);
    case "number":
      return clamp(42.5, schema);
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return depth > MAX_DEPTH ? [] : [sampleSchema(bundle, schema.items ?? {}, name, depth + 1)];
    default: {
      if (depth > MAX_DEPTH) return {};
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, sampleSchema(bundle, value, key, depth + 1)]),
      );
    }
  }
}

function typeOf(schema: SchemaObject): string | undefined {
  const { type } = schema;
  if (Array.isArray(type)) return type.find((candidate) => candidate !== "null") ?? "null";
  if (typeof type === "string") return type;
  return schema.properties ? "object" : undefined;
}

function sampleString(schema: SchemaObject, name: string): string {
  switch (schema.format) {
    case "date":
      return "2024-03-31";
    case "date-time":
      return "2024-03-31T09:30:00Z";
    case "uri":
    case "url":
      return `https://example.com.au/${name}`;
    case "email":
      return "jane.citizen@example.com.au";
    case "duration":
      return "P1M";
  }
  if (name.endsWith("_id") || name.endsWith("Id")) return `${name.replace(/_?[iI]d$/, "")}_7f3a2c`;
  return `sample ${name}`;
}

function clamp(preferred: number, schema: SchemaObject): number {
  const minimum = typeof schema.minimum === "number" ? schema.minimum : Number.NEGATIVE_INFINITY;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : Number.POSITIVE_INFINITY;
  return Math.min(Math.max(preferred, minimum), maximum);
}
