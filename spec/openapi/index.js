// JSON pointers (RFC 6901), local `$ref`s and the HTTP methods of a path item in the bundled OpenAPI
// documents: the one implementation shared by the spec tests, the change report, the client tooling and
// the sandbox. The bundles are self-contained, so only local references ("#/...") are followed. Plain
// JavaScript with index.d.ts beside it, so the published package needs no build step to ship it.

/** The operation keys of an OpenAPI path item, in the specification's order. */
export const HTTP_METHODS = Object.freeze([
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
]);

const isRecord = (value) => typeof value === "object" && value !== null;

/** One token escaped for a JSON pointer: `~` becomes `~0`, `/` becomes `~1`. */
export function escapeToken(token) {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The JSON pointer of a list of tokens: `["paths", "/v1/token"]` gives `/paths/~1v1~1token`. */
export function toPointer(tokens) {
  return tokens.map((token) => `/${escapeToken(token)}`).join("");
}

/** The tokens of a JSON pointer written `/a/b` or as a URI fragment `#/a/b` (which is percent-decoded). */
export function pointerTokens(pointer) {
  const fragment = pointer.startsWith("#");
  const body = fragment ? pointer.slice(1) : pointer;
  if (body === "") return [];
  if (!body.startsWith("/")) throw new Error(`not a JSON pointer: ${pointer}`);
  return body
    .slice(1)
    .split("/")
    .map((raw) => (fragment ? decodeURIComponent(raw) : raw).replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at a JSON pointer, or undefined when it does not exist (own keys only). */
export function getPointer(doc, pointer) {
  let node = doc;
  for (const token of pointerTokens(pointer)) {
    if (!isRecord(node) || !Object.hasOwn(node, token)) return undefined;
    node = node[token];
  }
  return node;
}

/** The value at a JSON pointer; fails, naming the pointer, when it does not exist. */
export function resolvePointer(doc, pointer) {
  const node = getPointer(doc, pointer);
  if (node === undefined) throw new Error(`dangling reference ${pointer}`);
  return node;
}

function checkedRef(ref, seen) {
  if (!ref.startsWith("#")) throw new Error(`only local references are followed in a bundle: ${ref}`);
  if (seen.has(ref)) throw new Error(`reference cycle at ${ref}`);
  seen.add(ref);
  return ref;
}

/**
 * Follows a chain of local `$ref`s to the first node that is not a reference, and gives that node with
 * its pointer (`at`, the pointer of `node` itself, when it is no reference). Fails on a non-local,
 * dangling or cyclic reference.
 */
export function followRef(doc, node, at) {
  let current = node;
  let pointer = at;
  const seen = new Set();
  while (isRecord(current) && typeof current.$ref === "string") {
    const ref = checkedRef(current.$ref, seen);
    current = resolvePointer(doc, ref);
    pointer = toPointer(pointerTokens(ref));
  }
  return { node: current, pointer };
}

/**
 * The node a reference stands for, the reference's sibling keywords (OpenAPI 3.1 lets a reference
 * carry `description`, `summary` and, in schemas, any keyword) laid over the target's.
 */
export function deref(doc, node) {
  let current = node;
  const seen = new Set();
  while (isRecord(current) && typeof current.$ref === "string") {
    const { $ref, ...siblings } = current;
    const target = resolvePointer(doc, checkedRef($ref, seen));
    current = Object.keys(siblings).length && isRecord(target) ? { ...target, ...siblings } : target;
  }
  return current;
}

/** A deep copy with every local `$ref` replaced by its target (siblings laid over); fails on a cycle. */
export function inlineRefs(doc, node, trail = []) {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(doc, item, trail));
  if (!isRecord(node)) return node;
  if (typeof node.$ref === "string") {
    if (trail.includes(node.$ref)) throw new Error(`reference cycle: ${[...trail, node.$ref].join(" -> ")}`);
    const { $ref, ...siblings } = node;
    const target = inlineRefs(doc, resolvePointer(doc, checkedRef($ref, new Set())), [...trail, $ref]);
    return Object.keys(siblings).length ? { ...target, ...inlineRefs(doc, siblings, trail) } : target;
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlineRefs(doc, value, trail)]));
}

/** Every operation of a document in path then method order, path items dereferenced. */
export function listOperations(doc) {
  const result = [];
  for (const [path, raw] of Object.entries(doc.paths ?? {})) {
    const pathItem = deref(doc, raw);
    for (const method of HTTP_METHODS) {
      if (isRecord(pathItem[method])) result.push({ path, method, pathItem, operation: pathItem[method] });
    }
  }
  return result;
}

/**
 * The parameters of an operation, dereferenced: the path item's, less those the operation redefines
 * (same `in` and `name`), then the operation's own.
 */
export function operationParameters(doc, pathItem, operation) {
  const own = (operation.parameters ?? []).map((parameter) => deref(doc, parameter));
  const redefined = (p) => own.some((o) => o.in === p.in && o.name === p.name);
  const shared = (pathItem.parameters ?? []).map((parameter) => deref(doc, parameter));
  return [...shared.filter((parameter) => !redefined(parameter)), ...own];
}

/**
 * The page size an example's `links` show (`page[size]`, else `limit`), as `[name, value]`: the page
 * size of the request that example answers. Undefined when its links show none.
 */
export function examplePageSize(exampleValue) {
  for (const link of Object.values(exampleValue?.links ?? {})) {
    if (typeof link !== "string") continue;
    const search = new URL(link, "https://example.invalid").searchParams;
    for (const name of ["page[size]", "limit"]) if (search.has(name)) return [name, search.get(name)];
  }
  return undefined;
}
