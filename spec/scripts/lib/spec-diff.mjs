// Compares two OpenAPI 3.1 documents: api-smart-diff finds the changes, a small post-classifier fixes the
// classes it gets wrong for 3.1 schemas and for the direction of the data (request vs response), and
// changes inside shared components are reported once, with every operation that uses them.
import { apiCompare } from "api-smart-diff";

export const CHANGE_CLASSES = ["breaking", "non-breaking", "annotation"];
const CLASS_RANK = { annotation: 0, "non-breaking": 1, breaking: 2 };
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const VERSION_HEADER = "x-platform-version";
const PINNED_PLACEHOLDER = "<pinned version>";
const ANNOTATION_KEYWORDS = new Set([
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

// ---------------------------------------------------------------------------------------------------
// JSON pointers and $ref walking

/** Encodes path tokens as a JSON pointer (RFC 6901). */
export function toPointer(tokens) {
  return tokens.map((t) => `/${String(t).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

function refTokens(ref) {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((t) => decodeURIComponent(t).replaceAll("~1", "/").replaceAll("~0", "~"));
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function lookup(doc, tokens) {
  let node = doc;
  for (const t of tokens) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, t)) return undefined;
    node = node[t];
  }
  return node;
}

/** Follows local $refs from `node` (found at `pointer`) until a node that is not a reference. */
function deref(doc, node, pointer) {
  let current = { node, pointer };
  for (let hops = 0; hops < 64 && isObject(current.node) && typeof current.node.$ref === "string"; hops++) {
    const target = refTokens(current.node.$ref);
    if (!target) break;
    current = { node: lookup(doc, target), pointer: target };
  }
  return current;
}

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Finds, in a real array, the element that the merged (union) document holds at a given index. */
function matchArrayElement(doc, array, merged, index) {
  if (merged === undefined) return index < array.length ? index : -1;
  if (isObject(merged) && typeof merged.name === "string" && typeof merged.in === "string") {
    return array.findIndex((item) => {
      const { node } = deref(doc, item, []);
      return node?.name === merged.name && node?.in === merged.in;
    });
  }
  if (isObject(merged) && typeof merged.$ref === "string") {
    const found = array.findIndex((item) => isObject(item) && item.$ref === merged.$ref);
    if (found >= 0) return found;
  }
  const equal = array.findIndex((item) => deepEqual(item, merged));
  if (equal >= 0) return equal;
  return isObject(merged) || Array.isArray(merged) ? (index < array.length ? index : -1) : -1;
}

/**
 * Walks a path reported by api-smart-diff (which dereferences $refs, merges allOf without $refs and
 * indexes arrays in a merged view) through one real document. Returns the JSON pointer of the place in
 * that document (inside a component when the path crosses a $ref) and the node there, or undefined
 * when the document has no such node (the missing tail is appended as is).
 */
export function locate(doc, merged, path) {
  const walk = (node, pointer, mergedNode, rest) => {
    if (rest.length === 0) return { pointer, node, found: true, depth: 0 };
    const resolved = deref(doc, node, pointer);
    const mergedResolved = deref(merged, mergedNode, []).node;
    const [key, ...tail] = rest;
    const { node: here, pointer: herePointer } = resolved;
    let direct;
    if (Array.isArray(here) && typeof key === "number") {
      const index = matchArrayElement(doc, here, mergedResolved?.[key], key);
      if (index >= 0) {
        const inner = walk(here[index], [...herePointer, index], mergedResolved?.[key], tail);
        return { ...inner, depth: inner.depth + 1 };
      }
    } else if (isObject(here) && Object.hasOwn(here, key)) {
      const inner = walk(here[key], [...herePointer, key], mergedResolved?.[key], tail);
      direct = { ...inner, depth: inner.depth + 1 };
      if (inner.found || !Array.isArray(here.allOf)) return direct;
    }
    // api-smart-diff merges allOf members into one schema: look for the key in each member.
    if (isObject(here) && Array.isArray(here.allOf)) {
      let best;
      here.allOf.forEach((member, i) => {
        const attempt = walk(member, [...herePointer, "allOf", i], mergedResolved, rest);
        if (attempt.depth > 0 && (!best || (attempt.found && !best.found) || attempt.depth > best.depth)) {
          best = attempt;
        }
      });
      if (best && (!direct || (best.found && !direct.found) || best.depth > direct.depth)) return best;
    }
    if (direct) return direct;
    return { pointer: [...herePointer, ...rest], node: undefined, found: false, depth: 0 };
  };
  return walk(doc, [], merged, path);
}

/** The pointer of a located node once its own $ref (if any) is followed. */
function resolvedPointer(doc, location) {
  return location.node === undefined ? location.pointer : deref(doc, location.node, location.pointer).pointer;
}

// ---------------------------------------------------------------------------------------------------
// Where components are used

function operationLabel(method, path) {
  return `${method.toUpperCase()} ${path}`;
}

function collectRefs(doc, node, into, seen = new Set()) {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(doc, item, into, seen);
    return;
  }
  if (!isObject(node)) return;
  const target = refTokens(node.$ref);
  if (target && target[0] === "components") {
    const root = toPointer(target.slice(0, 3));
    into.add(root);
    if (!seen.has(root)) {
      seen.add(root);
      collectRefs(doc, lookup(doc, target.slice(0, 3)), into, seen);
    }
  }
  for (const [key, value] of Object.entries(node)) if (key !== "$ref") collectRefs(doc, value, into, seen);
}

/** Lists the operations of a document: label, method, path, and the operation object. */
export function listOperations(doc) {
  const operations = [];
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      if (isObject(item?.[method])) operations.push({ label: operationLabel(method, path), method, path });
    }
  }
  return operations;
}

/** Maps each component root (/components/schemas/Name) to the operations and directions that reach it. */
function componentUsage(doc) {
  const usage = new Map();
  const add = (root, label, direction) => {
    if (!usage.has(root)) usage.set(root, { operations: new Set(), directions: new Set() });
    usage.get(root).operations.add(label);
    usage.get(root).directions.add(direction);
  };
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (!isObject(operation)) continue;
      const label = operationLabel(method, path);
      const parts = [
        ["request", [item.parameters, operation.parameters, operation.requestBody, operation.security]],
        ["response", [operation.responses]],
      ];
      for (const [direction, nodes] of parts) {
        const refs = new Set();
        collectRefs(doc, nodes, refs);
        for (const root of refs) add(root, label, direction);
      }
    }
  }
  return usage;
}

// ---------------------------------------------------------------------------------------------------
// Version pin: every bundle narrows the X-Platform-Version header to its own version. That is the
// version switch itself, so it is reported once for the document rather than once per operation.

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

function normalizeVersionPin(doc) {
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

// ---------------------------------------------------------------------------------------------------
// Post-classifier

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

/** Classifies one schema change for one direction; undefined keeps api-smart-diff's class. */
function classifySchemaChange(change, direction, context) {
  const { path, action } = change;
  const reads = direction === "response";
  const key = path.at(-1);
  const parentKey = path.at(-2);
  const keywordIndex = (word) => {
    for (let i = path.length - 1; i >= 0; i--) {
      const isKeyword = path[i] === word && path[i - 1] !== "properties";
      if (isKeyword && (i === path.length - 1 || typeof path[i + 1] === "number")) return i;
    }
    return -1;
  };
  const schemasAt = (index) => ({
    before: context.locateBefore(path.slice(0, index)).node,
    after: context.locateAfter(path.slice(0, index)).node,
  });

  if (ANNOTATION_KEYWORDS.has(key) || (typeof key === "string" && key.startsWith("x-"))) return undefined;

  const typeIndex = keywordIndex("type");
  if (typeIndex >= 0 && parentKey !== "properties") {
    const { before, after } = schemasAt(typeIndex);
    const widened = typesAdded(typeSet(before), typeSet(after));
    const narrowed = typesAdded(typeSet(after), typeSet(before));
    if (reads) {
      return widened.length
        ? ["breaking", `a response may now hold ${widened.join(", ")}: readers break`]
        : ["non-breaking", "the response type only narrows"];
    }
    return narrowed.length
      ? ["breaking", `a request may no longer hold ${narrowed.join(", ")}: callers break`]
      : ["non-breaking", "the request type only widens"];
  }

  const enumIndex = Math.max(keywordIndex("enum"), keywordIndex("const"));
  if (enumIndex >= 0 && parentKey !== "properties") {
    const { before, after } = schemasAt(enumIndex);
    const widened = valuesAdded(enumValues(before), enumValues(after));
    const narrowed = valuesAdded(enumValues(after), enumValues(before));
    if (reads) {
      return widened.length
        ? [
            "breaking",
            `a response may now hold ${widened.join(", ")}: readers that switch on the values break`,
          ]
        : ["non-breaking", "response values only narrow"];
    }
    return narrowed.length
      ? ["breaking", `a request may no longer send ${narrowed.join(", ")}: callers break`]
      : ["non-breaking", "request values only widen"];
  }

  if (key === "format" && parentKey !== "properties") {
    if (reads) {
      return action === "add"
        ? ["non-breaking", "a response format only narrows"]
        : ["breaking", "the response format changes: readers that parse it break"];
    }
    return action === "remove"
      ? ["non-breaking", "a request format only widens"]
      : ["breaking", "the request format changes: callers break"];
  }

  if (key === "additionalProperties" && parentKey !== "properties") {
    const openness = (value) => (value === undefined || value === true ? "open" : "closed");
    const closes = openness(change.before) === "open" && openness(change.after) === "closed";
    if (reads) return ["non-breaking", "extra response fields are ignored by readers"];
    return closes
      ? ["breaking", "the request no longer accepts extra fields: callers break"]
      : ["non-breaking", "the request accepts more fields"];
  }

  if (parentKey === "properties") {
    if (action === "add") {
      return reads
        ? ["non-breaking", "a new response field"]
        : ["non-breaking", "a new request field (required ones are reported separately)"];
    }
    if (reads) return ["breaking", "a field removed from a response breaks readers"];
    return undefined;
  }

  const requiredIndex = keywordIndex("required");
  if (requiredIndex >= 0) {
    const { before, after } = schemasAt(requiredIndex);
    const names = (schema) => (Array.isArray(schema?.required) ? schema.required : []);
    const added = names(after).filter((n) => !names(before).includes(n));
    const removed = names(before).filter((n) => !names(after).includes(n));
    if (reads) {
      return removed.length
        ? ["breaking", `readers can no longer rely on ${removed.join(", ")} being present`]
        : ["non-breaking", "more response fields are always present"];
    }
    return added.length
      ? ["breaking", `callers must now send ${added.join(", ")}`]
      : ["non-breaking", "fewer request fields are required"];
  }

  if ((parentKey === "oneOf" || parentKey === "anyOf") && typeof key === "number" && action !== "replace") {
    if (action === "add") {
      return reads
        ? ["breaking", `a new ${parentKey} alternative in a response: readers break`]
        : ["non-breaking", `a new ${parentKey} alternative accepted in a request`];
    }
    return reads
      ? ["non-breaking", `a response ${parentKey} alternative removed: readers are unaffected`]
      : ["breaking", `a request ${parentKey} alternative removed: callers that send it break`];
  }

  if (parentKey === "allOf" && typeof key === "number" && action === "remove") {
    return reads
      ? ["breaking", "an allOf member removed from a response takes its fields away: readers break"]
      : ["non-breaking", "an allOf member removed from a request: fewer constraints"];
  }

  if (key === "items") {
    if (action === "remove") {
      return reads
        ? ["breaking", "the response is no longer an array of these items: readers break"]
        : ["non-breaking", "request items are no longer constrained"];
    }
    if (action === "add") {
      return reads
        ? ["non-breaking", "response items are now described"]
        : ["breaking", "request items are now constrained: callers may break"];
    }
  }

  const bound = CONSTRAINT_KEYWORDS[key];
  if (bound && parentKey !== "properties") {
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
  return undefined;
}

/** Parameters added, removed or made required (an operation's own list or a shared component). */
function classifyParameterChange(diff, context) {
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

function isSchemaPath(path) {
  if (path[0] === "components" && path[1] === "schemas") return 3;
  const index = path.indexOf("schema");
  return index >= 0 ? index + 1 : -1;
}

function directionOfPath(path) {
  if (path[0] === "paths") {
    const rest = path.slice(2);
    const scope = HTTP_METHODS.includes(rest[0]) ? rest[1] : rest[0];
    if (scope === "parameters" || scope === "requestBody" || scope === "security") return "request";
    if (scope === "responses") return "response";
    return "operation";
  }
  return "document";
}

function libraryClass(type) {
  if (type === "breaking" || type === "non-breaking" || type === "annotation") return type;
  return "annotation"; // "deprecated" and "unclassified"
}

// ---------------------------------------------------------------------------------------------------
// Diff

/** A readable name for the field a schema path points at: `rates[].tiers[].minimum_value`. */
function fieldName(path, start) {
  const parts = [];
  for (let i = start; i < path.length; i++) {
    if (path[i - 1] === "properties" && i - 1 >= start) parts.push(String(path[i]));
    else if (path[i] === "items" && path[i - 1] !== "properties") parts.push("[]");
  }
  return parts.join(".").replaceAll(".[]", "[]");
}

function describe(diff, context, pointerTokens) {
  const { path, action } = diff;
  const key = path.at(-1);
  const parentKey = path.at(-2);
  const verb = { add: "added", remove: "removed", replace: "changed", rename: "renamed" }[action];
  const where = [];
  const parameterIndex = path.lastIndexOf("parameters");
  if (pointerTokens[0] === "components") {
    where.push(`${pointerTokens[1].replace(/s$/, "").replace(/ie$/, "y")} \`${pointerTokens[2]}\``);
  } else if (path[0] === "components") where.push(`${path[1].replace(/s$/, "")} \`${path[2]}\``);
  else if (path.includes("requestBody")) where.push("request body");
  else if (path.includes("responses") && path.length > path.indexOf("responses") + 1) {
    where.push(`response ${path[path.indexOf("responses") + 1]}`);
  }
  if (parameterIndex >= 0 && typeof path[parameterIndex + 1] === "number") {
    const locatePart = action === "remove" ? context.locateBefore : context.locateAfter;
    const parameter = deref(
      context[action === "remove" ? "before" : "after"],
      locatePart(path.slice(0, parameterIndex + 2)).node,
      [],
    ).node;
    if (isObject(parameter) && parameter.name) where.push(`${parameter.in} parameter \`${parameter.name}\``);
  }
  // Inside a component the field is named from the component; elsewhere from the operation's body.
  const schemaStart = isSchemaPath(path);
  const inComponentSchema = pointerTokens[0] === "components" && pointerTokens[1] === "schemas";
  const field = inComponentSchema
    ? fieldName(pointerTokens, 3)
    : schemaStart >= 0
      ? fieldName(path, schemaStart)
      : "";
  let what;
  if (path[0] === "components" && path.length === 3) what = verb;
  else if (parentKey === "properties") what = `field \`${field}\` ${verb}`;
  else if (parameterIndex >= 0 && parameterIndex === path.length - 2) what = verb;
  else if (typeof key === "number") {
    const value = JSON.stringify(action === "remove" ? diff.before : diff.after) ?? "";
    const item = value.length <= 40 ? ` ${value}` : "";
    what = `${field ? `\`${field}\` ` : ""}${parentKey} item${item} ${verb}`;
  } else if ((key === "type" || key === "format") && action === "replace") {
    const show = (value) => (Array.isArray(value) ? value.join(" | ") : String(value));
    what = `${field ? `\`${field}\` ` : ""}${key} ${show(diff.before)} → ${show(diff.after)}`;
  } else if (parentKey === "responses") what = `response ${key} ${verb}`;
  else what = `${field ? `\`${field}\` ` : ""}${key} ${verb}`;
  return [where.join(", "), what].filter(Boolean).join(": ");
}

/**
 * Compares two documents and returns the report: every change with its operations, JSON pointer,
 * old and new values, class and the reason for the class.
 */
export function diffDocuments(beforeDoc, afterDoc, { from = "before", to = "after" } = {}) {
  const before = normalizeVersionPin(beforeDoc);
  const after = normalizeVersionPin(afterDoc);
  // api-smart-diff rewrites the documents it is given (allOf merges, empty arrays): give it copies.
  const { diffs, merged } = apiCompare(structuredClone(before.doc), structuredClone(after.doc));
  const usageBefore = componentUsage(before.doc);
  const usageAfter = componentUsage(after.doc);

  const changes = new Map();
  const record = (change) => {
    const id = `${change.action} ${change.pointer}`;
    const existing = changes.get(id);
    if (!existing) {
      changes.set(id, change);
      return;
    }
    for (const op of change.operations) if (!existing.operations.includes(op)) existing.operations.push(op);
    for (const d of change.directions) if (!existing.directions.includes(d)) existing.directions.push(d);
    // A class found in context (a rule, or the library on an operation) beats one found without it.
    const withoutContext = (c) => c.basis === "library-without-context";
    const replaces =
      (withoutContext(existing) && !withoutContext(change)) ||
      (withoutContext(existing) === withoutContext(change) &&
        CLASS_RANK[change.class] > CLASS_RANK[existing.class]);
    if (replaces) {
      existing.class = change.class;
      existing.reason = change.reason;
      existing.basis = change.basis;
    }
  };

  for (const diff of diffs) {
    const path = diff.path;
    const context = {
      before: before.doc,
      after: after.doc,
      locateBefore: (p) => locate(before.doc, merged, p),
      locateAfter: (p) => locate(after.doc, merged, p),
    };
    const parentBefore = resolvedPointer(before.doc, context.locateBefore(path.slice(0, -1)));
    const parentAfter = resolvedPointer(after.doc, context.locateAfter(path.slice(0, -1)));
    // The change lies in one place of both documents when the walks cross the same $refs: then the
    // pointer is that place (inside a component when it is one); otherwise it is the dereferenced path.
    const sharedLocation =
      toPointer(parentBefore) === toPointer(parentAfter) ||
      (parentBefore[0] === "paths" && parentAfter[0] === "paths");
    const own = diff.action === "remove" ? context.locateBefore(path) : context.locateAfter(path);
    const pointerTokens = sharedLocation ? own.pointer : path;

    const operations = [];
    let directions = [];
    if (pointerTokens[0] === "components") {
      const root = toPointer(pointerTokens.slice(0, 3));
      for (const usage of [
        diff.action !== "add" ? usageBefore.get(root) : undefined,
        diff.action !== "remove" ? usageAfter.get(root) : undefined,
      ]) {
        for (const op of usage?.operations ?? []) if (!operations.includes(op)) operations.push(op);
        for (const d of usage?.directions ?? []) if (!directions.includes(d)) directions.push(d);
      }
      const kind = pointerTokens[1];
      if (kind === "parameters" || kind === "requestBodies" || kind === "securitySchemes")
        directions = ["request"];
      if (kind === "responses" || kind === "headers") directions = ["response"];
    }
    if (path[0] === "paths") {
      const item = path[1];
      const methods = HTTP_METHODS.includes(path[2])
        ? [path[2]]
        : HTTP_METHODS.filter((m) => isObject((before.doc.paths?.[item] ?? after.doc.paths?.[item])?.[m]));
      for (const m of methods) {
        const op = operationLabel(m, item);
        if (!operations.includes(op)) operations.push(op);
      }
      const direction = directionOfPath(path);
      if (!directions.includes(direction)) directions.push(direction);
    }
    if (directions.length === 0) directions.push(pointerTokens[0] === "components" ? "unused" : "document");

    // Classify: the post-classifier where it has a rule for the schema keyword and direction.
    const schemaStart = isSchemaPath(path);
    let changeClass = libraryClass(diff.type);
    let reason = `api-smart-diff: ${diff.type}`;
    // Outside operations api-smart-diff does not know whether a schema is read or sent.
    let basis = path[0] === "paths" ? "library" : "library-without-context";
    if (schemaStart >= 0) {
      const verdicts = directions
        .filter((d) => d === "request" || d === "response")
        .map((d) => classifySchemaChange(diff, d, context))
        .filter(Boolean);
      if (verdicts.length) {
        const verdict = verdicts.reduce((a, b) => (CLASS_RANK[b[0]] > CLASS_RANK[a[0]] ? b : a));
        [changeClass, reason] = verdict;
        basis = "rule";
      }
    }
    const parameterVerdict = classifyParameterChange(diff, context);
    if (parameterVerdict) {
      [changeClass, reason] = parameterVerdict;
      basis = "rule";
    }
    if (path[0] === "components" && path.length === 3) {
      basis = "rule";
      [changeClass, reason] =
        diff.action === "remove"
          ? ["breaking", "a component removed: code that imports its generated type breaks"]
          : diff.action === "add"
            ? ["non-breaking", "a new component"]
            : [changeClass, reason];
    }
    if (
      ANNOTATION_KEYWORDS.has(path.at(-1)) &&
      path.at(-2) !== "properties" &&
      path.at(-1) !== "deprecated"
    ) {
      changeClass = "annotation";
      reason = "documentation only";
      basis = "rule";
    }
    const exampleIndex = path.findIndex(
      (key, i) => (key === "examples" || key === "example") && path[i - 1] !== "properties",
    );
    if (exampleIndex >= 0) {
      changeClass = "annotation";
      reason = "an example changed (documentation only)";
      basis = "rule";
    }
    const extension = path.find(
      (key, i) => typeof key === "string" && key.startsWith("x-") && path[i - 1] !== "properties",
    );
    if (extension && exampleIndex < 0) {
      changeClass = "annotation";
      reason = `the \`${extension}\` extension changed (metadata; the parameters and schemas carry the contract)`;
      basis = "rule";
    }
    if (path.at(-1) === "deprecated") {
      changeClass = "annotation";
      reason = "deprecation notice; nothing stops working yet";
      basis = "rule";
    }

    record({
      class: changeClass,
      action: diff.action,
      pointer: toPointer(pointerTokens),
      pointerScope: sharedLocation ? "document" : "dereferenced operation",
      operations,
      directions,
      summary: describe(diff, context, pointerTokens),
      before: diff.before,
      after: diff.after,
      reason,
      basis,
      library: { type: diff.type, description: diff.description },
    });
  }

  const pinnedBefore = before.pinned.join(", ");
  const pinnedAfter = after.pinned.join(", ");
  if (pinnedBefore !== pinnedAfter) {
    record({
      class: "annotation",
      action: "replace",
      pointer: "(X-Platform-Version header, every operation)",
      pointerScope: "document",
      operations: [],
      directions: ["document"],
      summary: "version header value pinned by the document",
      before: pinnedBefore || undefined,
      after: pinnedAfter || undefined,
      reason: "the version switch itself: send the new value in X-Platform-Version",
      basis: "rule",
      library: { type: "annotation", description: "normalized before comparison" },
    });
  }

  const list = [...changes.values()].sort(
    (a, b) => CLASS_RANK[b.class] - CLASS_RANK[a.class] || a.pointer.localeCompare(b.pointer),
  );
  for (const change of list) change.operations.sort();
  return buildReport(list, beforeDoc, afterDoc, from, to);
}

function buildReport(changes, beforeDoc, afterDoc, from, to) {
  const counts = { breaking: 0, "non-breaking": 0, annotation: 0, total: changes.length };
  const byOperation = {};
  for (const change of changes) {
    counts[change.class]++;
    for (const op of change.operations) {
      byOperation[op] ??= { breaking: 0, "non-breaking": 0, annotation: 0 };
      byOperation[op][change.class]++;
    }
  }
  const describeDoc = (doc, label) => ({ label, title: doc?.info?.title, version: doc?.info?.version });
  return {
    generatedBy: "pnpm spec:diff (api-smart-diff 1.0.6 and the @cdas/spec post-classifier)",
    from: describeDoc(beforeDoc, from),
    to: describeDoc(afterDoc, to),
    counts,
    operations: Object.fromEntries(Object.entries(byOperation).sort(([a], [b]) => a.localeCompare(b))),
    changes,
  };
}

/** True when the report holds at least one change of the class `failOn` or worse. */
export function hasChangesAtOrAbove(report, failOn) {
  return report.changes.some((change) => CLASS_RANK[change.class] >= CLASS_RANK[failOn]);
}
