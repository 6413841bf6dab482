// Version pin: every bundle narrows the X-Platform-Version header to its own version. That is the
// version switch itself, so it is reported once for the document rather than once per operation.
import { isObject } from "./openapi-walk.mjs";

const VERSION_HEADER = "x-platform-version";
const PINNED_PLACEHOLDER = "<pinned version>";

function pinnedHeaderValues(doc) {
  const found = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (node.in === "header" && String(node.name).toLowerCase() === VERSION_HEADER && isObject(node.schema)) {
      found.push(node);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(doc?.paths);
  visit(doc?.components?.parameters);
  return found;
}

export function normalizeVersionPin(doc) {
  const copy = structuredClone(doc);
  const values = new Set();
  for (const parameter of pinnedHeaderValues(copy)) {
    const { schema } = parameter;
    if (Array.isArray(schema.enum) && schema.enum.length === 1) {
      values.add(schema.enum[0]);
      if (parameter.example === schema.enum[0]) parameter.example = PINNED_PLACEHOLDER;
      if (schema.default === schema.enum[0]) schema.default = PINNED_PLACEHOLDER;
      schema.enum = [PINNED_PLACEHOLDER];
    } else if (typeof schema.const === "string") {
      values.add(schema.const);
      if (parameter.example === schema.const) parameter.example = PINNED_PLACEHOLDER;
      schema.const = PINNED_PLACEHOLDER;
    }
  }
  return { doc: copy, pinned: [...values] };
}
