// Walking OpenAPI documents: JSON pointers, local $refs, the operations of a document and which
// operations reach each component.

import { followRef, getPointer, HTTP_METHODS, pointerTokens, toPointer } from "../../openapi/index.js";

// Pointers, references and the HTTP methods come from the one shared module (@cdas/spec/openapi); this
// file adds what only the change report needs, with pointers as token lists.
export { HTTP_METHODS, toPointer };

/** The name a field path gives a list whose key the interface does not name (the detailed banking transactions). */
export const UNNAMED_KEY = "<list key>";

/** The tokens of a local `$ref` ("#/components/schemas/A" gives ["components", "schemas", "A"]). */
export function refTokens(ref) {
  return typeof ref === "string" && ref.startsWith("#/") ? pointerTokens(ref) : undefined;
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function lookup(doc, tokens) {
  return getPointer(doc, toPointer(tokens));
}

/** Follows local $refs from `node` (found at `pointer`) until a node that is not a reference. */
export function deref(doc, node, pointer) {
  const resolved = followRef(doc, node, toPointer(pointer));
  return { node: resolved.node, pointer: pointerTokens(resolved.pointer) };
}

/**
 * The names a schema lists and those its `allOf` members list, each once, in the order written: `own`
 * picks a schema's own names (its `required`, its property keys). A member's `$ref` is followed; a
 * dangling one is skipped.
 */
export function namesWithAllOf(doc, schema, own, seen = new Set()) {
  if (!isObject(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const names = [...own(schema)];
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) {
    let resolved;
    try {
      resolved = deref(doc, member, []).node;
    } catch {
      continue;
    }
    for (const name of namesWithAllOf(doc, resolved, own, seen)) if (!names.includes(name)) names.push(name);
  }
  return names;
}

export function operationLabel(method, path) {
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
export function componentUsage(doc) {
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

/** The operation object of a label ("GET /v1/consent"), or undefined. */
export function findOperation(doc, label) {
  const [method, ...rest] = label.split(" ");
  return doc?.paths?.[rest.join(" ")]?.[method.toLowerCase()];
}

/**
 * Where a component schema sits in an operation's success body, as field paths
 * ("accounts[].fees[]"; "" when it is the body itself). Follows properties, items, additionalProperties
 * and allOf/oneOf/anyOf.
 */
export function fieldPaths(doc, label, component) {
  const operation = findOperation(doc, label);
  const target = `#/components/schemas/${component}`;
  const found = new Set();
  const visit = (node, at, seen) => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n, at, seen);
      return;
    }
    if (!isObject(node)) return;
    if (node.$ref === target) found.add(at);
    if (typeof node.$ref === "string") {
      if (seen.has(node.$ref)) return;
      const tokens = refTokens(node.$ref);
      if (tokens) visit(lookup(doc, tokens), at, new Set([...seen, node.$ref]));
      return;
    }
    for (const [name, child] of Object.entries(node.properties ?? {}))
      visit(child, at ? `${at}.${name}` : name, seen);
    if (node.items) visit(node.items, `${at}[]`, seen);
    // A list under a key the interface does not name (`<list key>`: the detailed banking transactions).
    if (isObject(node.additionalProperties))
      visit(node.additionalProperties, at ? `${at}.${UNNAMED_KEY}` : UNNAMED_KEY, seen);
    for (const key of ["allOf", "oneOf", "anyOf"]) if (node[key]) visit(node[key], at, seen);
  };
  for (const [status, response] of Object.entries(operation?.responses ?? {})) {
    if (!status.startsWith("2")) continue;
    const resolved = deref(doc, response, []).node;
    for (const media of Object.values(resolved?.content ?? {})) visit(media.schema, "", new Set());
  }
  return [...found];
}
