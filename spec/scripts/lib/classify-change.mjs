// The post-classifier: classes that take the direction of the data into account (a change that a reader
// of a response or a caller of a request must handle is breaking), for the schema keywords and places
// where api-smart-diff's class is wrong for OpenAPI 3.1.
import { deref, HTTP_METHODS, isObject, namesWithAllOf } from "./openapi-walk.mjs";

export const CHANGE_CLASSES = ["breaking", "non-breaking", "annotation"];
export const CLASS_RANK = { annotation: 0, "non-breaking": 1, breaking: 2 };
export const ANNOTATION_KEYWORDS = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
  "deprecated",
  "$comment",
  "tags",
]);

// Schema constraints: which way a larger value moves the set of accepted values.
const CONSTRAINT_KEYWORDS = {
  maximum: "upper",
  exclusiveMaximum: "upper",
  maxLength: "upper",
  maxItems: "upper",
  maxProperties: "upper",
  minimum: "lower",
  exclusiveMinimum: "lower",
  minLength: "lower",
  minItems: "lower",
  minProperties: "lower",
  pattern: "both",
  multipleOf: "both",
};

function typeSet(schema) {
  if (!isObject(schema) || schema.type === undefined) return undefined; // any type
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

/** Values of `after` that `before` does not accept (integer is a subset of number). */
function typesAdded(before, after) {
  if (after === undefined) return before === undefined ? [] : ["(any type)"];
  if (before === undefined) return [];
  return [...after].filter((t) => !before.has(t) && !(t === "integer" && before.has("number")));
}

function enumValues(schema) {
  if (!isObject(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v));
  if (schema.const !== undefined) return [JSON.stringify(schema.const)];
  return undefined; // any value
}

function valuesAdded(before, after) {
  if (after === undefined) return before === undefined ? [] : ["(any value)"];
  if (before === undefined) return [];
  return after.filter((v) => !before.includes(v));
}

/** Where a schema keyword sits in a change path ("type", "enum", ...), not a property of that name. */
function keywordIndex(path, word) {
  for (let i = path.length - 1; i >= 0; i--) {
    const isKeyword = path[i] === word && path[i - 1] !== "properties";
    if (isKeyword && (i === path.length - 1 || typeof path[i + 1] === "number")) return i;
  }
  return -1;
}

/**
 * The schemas holding the keyword at `index` of the change path, before and after, with their own
 * `$ref` followed: a body or response that points at a component (`schema: {$ref: ...}`) is that
 * component's schema, not the bare reference.
 */
function schemasAt(rule, index) {
  const prefix = rule.change.path.slice(0, index);
  const { context } = rule;
  const resolve = (doc, location) => deref(doc, location.node, []).node;
  return {
    before: resolve(context.before, context.locateBefore(prefix)),
    after: resolve(context.after, context.locateAfter(prefix)),
  };
}

/**
 * The names a schema requires: its own `required` and those of its `allOf` members (api-smart-diff
 * merges allOf, so a required item it reports may come from any member); undefined without a schema.
 */
function requiredNames(doc, schema) {
  if (!isObject(schema)) return undefined;
  return namesWithAllOf(doc, schema, (s) => (Array.isArray(s.required) ? s.required : []));
}

// Each rule receives { change, reads, key, parentKey, context } and returns [class, reason] or
// undefined when it does not apply; the first verdict wins (the order is that of specificity).

function typeRule(rule) {
  const index = keywordIndex(rule.change.path, "type");
  if (index < 0 || rule.parentKey === "properties") return undefined;
  const { before, after } = schemasAt(rule, index);
  const widened = typesAdded(typeSet(before), typeSet(after));
  const narrowed = typesAdded(typeSet(after), typeSet(before));
  if (rule.reads) {
    return widened.length
      ? ["breaking", `a response may now hold ${widened.join(", ")}: readers break`]
      : ["non-breaking", "the response type only narrows"];
  }
  return narrowed.length
    ? ["breaking", `a request may no longer hold ${narrowed.join(", ")}: callers break`]
    : ["non-breaking", "the request type only widens"];
}

function enumRule(rule) {
  const index = Math.max(keywordIndex(rule.change.path, "enum"), keywordIndex(rule.change.path, "const"));
  if (index < 0 || rule.parentKey === "properties") return undefined;
  const { before, after } = schemasAt(rule, index);
  const widened = valuesAdded(enumValues(before), enumValues(after));
  const narrowed = valuesAdded(enumValues(after), enumValues(before));
  if (rule.reads) {
    return widened.length
      ? ["breaking", `a response may now hold ${widened.join(", ")}: readers that switch on the values break`]
      : ["non-breaking", "response values only narrow"];
  }
  return narrowed.length
    ? ["breaking", `a request may no longer send ${narrowed.join(", ")}: callers break`]
    : ["non-breaking", "request values only widen"];
}

function formatRule({ key, parentKey, reads, change }) {
  if (key !== "format" || parentKey === "properties") return undefined;
  if (reads) {
    return change.action === "add"
      ? ["non-breaking", "a response format only narrows"]
      : ["breaking", "the response format changes: readers that parse it break"];
  }
  return change.action === "remove"
    ? ["non-breaking", "a request format only widens"]
    : ["breaking", "the request format changes: callers break"];
}

function additionalPropertiesRule({ key, parentKey, reads, change }) {
  if (key !== "additionalProperties" || parentKey === "properties") return undefined;
  const openness = (value) => (value === undefined || value === true ? "open" : "closed");
  const closes = openness(change.before) === "open" && openness(change.after) === "closed";
  if (reads) return ["non-breaking", "extra response fields are ignored by readers"];
  return closes
    ? ["breaking", "the request no longer accepts extra fields: callers break"]
    : ["non-breaking", "the request accepts more fields"];
}

function propertyRule({ parentKey, reads, change }) {
  if (parentKey !== "properties") return undefined;
  if (change.action === "add") {
    return reads
      ? ["non-breaking", "a new response field"]
      : ["non-breaking", "a new request field (required ones are reported separately)"];
  }
  return reads ? ["breaking", "a field removed from a response breaks readers"] : undefined;
}

function requiredRule(rule) {
  const index = keywordIndex(rule.change.path, "required");
  if (index < 0) return undefined;
  const { change, context } = rule;
  const { before, after } = schemasAt(rule, index);
  const namesBefore = requiredNames(context.before, before);
  const namesAfter = requiredNames(context.after, after);
  let added;
  let removed;
  if (namesBefore && namesAfter) {
    added = namesAfter.filter((n) => !namesBefore.includes(n));
    removed = namesBefore.filter((n) => !namesAfter.includes(n));
  } else {
    // A schema that is not found on one side: the change's own values say what moved.
    const list = (value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
    added = list(change.after).filter((n) => !list(change.before).includes(n));
    removed = list(change.before).filter((n) => !list(change.after).includes(n));
  }
  // A change of one item (`required/3`) names that item, when it is one that moved.
  if (typeof rule.key === "number") {
    const own = change.action === "remove" ? change.before : change.after;
    if (removed.includes(own)) removed = [own];
    if (added.includes(own)) added = [own];
  }
  if (rule.reads) {
    if (removed.length)
      return ["breaking", `readers can no longer rely on ${removed.join(", ")} being present`];
    return added.length
      ? ["non-breaking", `more response fields are always present (${added.join(", ")})`]
      : ["non-breaking", "the same response fields are required (only their order changes)"];
  }
  if (added.length) return ["breaking", `callers must now send ${added.join(", ")}`];
  return removed.length
    ? ["non-breaking", `fewer request fields are required (${removed.join(", ")} no longer)`]
    : ["non-breaking", "the same request fields are required (only their order changes)"];
}

function alternativesRule({ key, parentKey, reads, change }) {
  if (typeof key !== "number") return undefined;
  if ((parentKey === "oneOf" || parentKey === "anyOf") && change.action !== "replace") {
    if (change.action === "add") {
      return reads
        ? ["breaking", `a new ${parentKey} alternative in a response: readers break`]
        : ["non-breaking", `a new ${parentKey} alternative accepted in a request`];
    }
    return reads
      ? ["non-breaking", `a response ${parentKey} alternative removed: readers are unaffected`]
      : ["breaking", `a request ${parentKey} alternative removed: callers that send it break`];
  }
  if (parentKey === "allOf" && change.action === "remove") {
    return reads
      ? ["breaking", "an allOf member removed from a response takes its fields away: readers break"]
      : ["non-breaking", "an allOf member removed from a request: fewer constraints"];
  }
  return undefined;
}

function itemsRule({ key, reads, change }) {
  if (key !== "items") return undefined;
  if (change.action === "remove") {
    return reads
      ? ["breaking", "the response is no longer an array of these items: readers break"]
      : ["non-breaking", "request items are no longer constrained"];
  }
  if (change.action === "add") {
    return reads
      ? ["non-breaking", "response items are now described"]
      : ["breaking", "request items are now constrained: callers may break"];
  }
  return undefined;
}

function constraintRule({ key, parentKey, reads, change }) {
  const bound = CONSTRAINT_KEYWORDS[key];
  if (!bound || parentKey === "properties") return undefined;
  const { action } = change;
  const narrows =
    action === "add" ||
    (action === "replace" &&
      (bound === "both" ||
        (bound === "upper" && Number(change.after) < Number(change.before)) ||
        (bound === "lower" && Number(change.after) > Number(change.before))));
  const widens = action === "remove" || (action === "replace" && (bound === "both" || !narrows));
  if (reads) {
    return widens
      ? ["breaking", `the response constraint \`${key}\` loosens: readers that rely on it break`]
      : ["non-breaking", `the response constraint \`${key}\` tightens`];
  }
  return narrows
    ? ["breaking", `the request constraint \`${key}\` tightens: callers break`]
    : ["non-breaking", `the request constraint \`${key}\` loosens`];
}

const SCHEMA_RULES = [
  typeRule,
  enumRule,
  formatRule,
  additionalPropertiesRule,
  propertyRule,
  requiredRule,
  alternativesRule,
  itemsRule,
  constraintRule,
];

/** Classifies one schema change for one direction; undefined keeps api-smart-diff's class. */
export function classifySchemaChange(change, direction, context) {
  const key = change.path.at(-1);
  if (ANNOTATION_KEYWORDS.has(key) || (typeof key === "string" && key.startsWith("x-"))) return undefined;
  const rule = { change, reads: direction === "response", key, parentKey: change.path.at(-2), context };
  for (const apply of SCHEMA_RULES) {
    const verdict = apply(rule);
    if (verdict) return verdict;
  }
  return undefined;
}

/** Parameters added, removed or made required (an operation's own list or a shared component). */
export function classifyParameterChange(diff, context) {
  const { path, action } = diff;
  const index = path.lastIndexOf("parameters");
  const isComponent = path[0] === "components" && index === 1;
  const atParameter = isComponent ? path.length === 3 : index >= 0 && typeof path[index + 1] === "number";
  if (!atParameter) return undefined;
  const depth = isComponent ? 3 : index + 2;
  if (path.length === depth && !isComponent) {
    const parameter = deref(
      context[action === "remove" ? "before" : "after"],
      diff[action === "remove" ? "before" : "after"],
      [],
    ).node;
    if (action === "add") {
      return parameter?.required
        ? ["breaking", "a new required request parameter breaks callers"]
        : ["non-breaking", "a new optional request parameter"];
    }
    if (action === "remove") return ["breaking", "a request parameter removed: callers that send it break"];
  }
  if (path.length === depth + 1 && path.at(-1) === "required") {
    return diff.after === true
      ? ["breaking", "the parameter becomes required: callers that omit it break"]
      : ["non-breaking", "the parameter becomes optional"];
  }
  return undefined;
}

export function isSchemaPath(path) {
  if (path[0] === "components" && path[1] === "schemas") return 3;
  const index = path.indexOf("schema");
  return index >= 0 ? index + 1 : -1;
}

export function directionOfPath(path) {
  if (path[0] === "paths") {
    const rest = path.slice(2);
    const scope = HTTP_METHODS.includes(rest[0]) ? rest[1] : rest[0];
    if (scope === "parameters" || scope === "requestBody" || scope === "security") return "request";
    if (scope === "responses") return "response";
    return "operation";
  }
  return "document";
}

export function libraryClass(type) {
  if (type === "breaking" || type === "non-breaking" || type === "annotation") return type;
  return "annotation"; // "deprecated" and "unclassified"
}
