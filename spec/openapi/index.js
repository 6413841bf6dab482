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

/**
 * The 2xx response examples of an operation, in the document's order: each with its name (undefined
 * for a media type's single `example`), its summary and its value, references followed.
 */
export function responseExamples(doc, operation) {
  const result = [];
  for (const [status, reference] of Object.entries(operation.responses ?? {})) {
    if (!/^2/.test(status)) continue;
    for (const media of Object.values(deref(doc, reference)?.content ?? {})) {
      if (media.example !== undefined) result.push({ name: undefined, summary: "", value: media.example });
      for (const [name, raw] of Object.entries(media.examples ?? {})) {
        const example = deref(doc, raw);
        result.push({ name, summary: example?.summary ?? "", value: example?.value });
      }
    }
  }
  return result;
}

/** A parameter's or media type's example named `name`, else its `example`, else the first of `examples`. */
function exampleValue(doc, node, name) {
  const examples = node.examples ?? {};
  if (name !== undefined && Object.hasOwn(examples, name)) return deref(doc, examples[name])?.value;
  if (node.example !== undefined) return node.example;
  const first = Object.values(examples)[0];
  return first === undefined ? undefined : deref(doc, first)?.value;
}

/**
 * The documented request that a 2xx response example answers (by default the operation's first): the
 * one request the reference's code samples show and the sandbox's tests send, so that the sample,
 * run, serves the page the example shows.
 *
 * - Each parameter sends its example named like the response example; a parameter whose examples
 *   are named after other response examples of the operation (it pairs with those) is left out
 *   when it is optional, so a request sends only the alternatives its example names (the plans'
 *   `retailer_id` or `institution_id`, never both), and sends its first example when it is required.
 * - Any other parameter sends its `example`, else the first of its `examples`, else its schema's
 *   example; a required one with none of these its schema's default (or first enum value); an
 *   optional one with none is left out (its default applies).
 * - The page size is the one the response example's links show (`examplePageSize`), where the
 *   operation has that parameter.
 * - The body is the request body's example named like the response example, else its first.
 *
 * Gives `{ path, query, headers, body }`: values by parameter name (as the examples write them; the
 * page size a number), `body` undefined when the operation takes none.
 */
export function exampleRequest(doc, pathItem, operation, exampleName) {
  const examples = responseExamples(doc, operation);
  const response =
    exampleName === undefined ? examples[0] : examples.find((example) => example.name === exampleName);
  if (exampleName !== undefined && response === undefined)
    throw new Error(`${operation.operationId ?? "the operation"} has no 2xx response example ${exampleName}`);
  const name = response?.name;
  const names = new Set(examples.map((example) => example.name).filter((n) => n !== undefined));
  const request = { path: {}, query: {}, headers: {}, body: undefined };
  const parameters = operationParameters(doc, pathItem, operation);
  for (const parameter of parameters) {
    const own = Object.keys(parameter.examples ?? {});
    const pairsWithOthers = !own.includes(name) && own.some((n) => names.has(n));
    if (pairsWithOthers && !parameter.required) continue;
    const schema = parameter.schema === undefined ? undefined : deref(doc, parameter.schema);
    let value = exampleValue(doc, parameter, name) ?? schema?.example ?? schema?.examples?.[0];
    if (value === undefined && parameter.required) value = schema?.default ?? schema?.enum?.[0];
    if (value === undefined) continue;
    const section = { path: "path", query: "query", header: "headers" }[parameter.in];
    if (section) request[section][parameter.name] = value;
  }
  const pageSize = examplePageSize(response?.value);
  if (pageSize && parameters.some((p) => p.in === "query" && p.name === pageSize[0]))
    request.query[pageSize[0]] = Number(pageSize[1]);
  const content = deref(doc, operation.requestBody)?.content;
  const media = content === undefined ? undefined : Object.values(content)[0];
  if (media !== undefined) request.body = exampleValue(doc, media, name);
  return request;
}
