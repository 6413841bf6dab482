// Walking OpenAPI documents: JSON pointers, local $refs, the operations of a document and which
// operations reach each component.

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Encodes path tokens as a JSON pointer (RFC 6901). */
export function toPointer(tokens) {
  return tokens.map((t) => `/${String(t).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

export function refTokens(ref) {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((t) => decodeURIComponent(t).replaceAll("~1", "/").replaceAll("~0", "~"));
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function lookup(doc, tokens) {
  let node = doc;
  for (const t of tokens) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, t)) return undefined;
    node = node[t];
  }
  return node;
}

/** Follows local $refs from `node` (found at `pointer`) until a node that is not a reference. */
export function deref(doc, node, pointer) {
  let current = { node, pointer };
  for (let hops = 0; hops < 64 && isObject(current.node) && typeof current.node.$ref === "string"; hops++) {
    const target = refTokens(current.node.$ref);
    if (!target) break;
    current = { node: lookup(doc, target), pointer: target };
  }
  return current;
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
    // A list under a key the interface does not name (`<key>`: the detailed banking transactions).
    if (isObject(node.additionalProperties))
      visit(node.additionalProperties, at ? `${at}.<key>` : "<key>", seen);
    for (const key of ["allOf", "oneOf", "anyOf"]) if (node[key]) visit(node[key], at, seen);
  };
  for (const [status, response] of Object.entries(operation?.responses ?? {})) {
    if (!status.startsWith("2")) continue;
    const resolved = deref(doc, response, []).node;
    for (const media of Object.values(resolved?.content ?? {})) visit(media.schema, "", new Set());
  }
  return [...found];
}
