/**
 * Served examples: a request copied from the reference returns the records its examples show, on the
 * page the example says. For every 2xx response example of every version, the operation's documented
 * example request is sent to the default seed (every page, following `links.next`), and each record
 * of the example (an object that carries the operation's record key, `RECORD_KEYS`, else `id`) must
 * appear in the answer with every field the example shows at the value it shows: objects are compared
 * as subsets, arrays element by element (by `id` where their elements have one, else by position,
 * with the same length).
 *
 * The records an example shows (their keys, in order) must also be where the example says they are,
 * the first of these that applies:
 * - named as a first page (`firstPage`): exactly the records of the first page served, in order, and
 *   the example's `links` are that page's; named as a last page (`lastPage`): the same for the page
 *   the walk ends on (the one without `links.next`);
 * - its summary says it is shortened ("... shortened here to two"): the first records served, as many
 *   as it shows, in order;
 * - not paged (named `unpaged`, or its summary says "without paging"): a first page, the whole list;
 *   its summary says "first page" or "last page": that page;
 * - it shows `links` (a page in between): exactly the records of the page served with those links;
 * - otherwise: its records appear in the order they are served (not necessarily next to each other).
 * Where the operation has alternative requests, the example answers one of them.
 *
 * The documented example request is each parameter's example and the body's example; where a
 * parameter has an example named like the response example, that one is sent for it (the two form a
 * request and response pair: the home-loan products of both families and Origin's plans, which need
 * another request than the default one, have one). The page size has no parameter example: a paged
 * example gives it in its `links` (`page[size]` or `limit`), and the request is sent with it, as a
 * reader who follows the example would. Examples whose records carry no key (the token, the detailed
 * transactions' `{}` items, the common identity's `{}` items) are not records.
 */
import { deref, examplePageSize } from "@cdas/spec/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  loadBundle,
  type Operation,
  Sandbox,
  type SuccessExample,
  successExamples,
  VERSIONS,
} from "./helpers.js";

type Json = Record<string, unknown>;

/** The key of a record of an operation, or undefined for an object that is not one of its records. */
type RecordKey = (item: Json) => string | undefined;

const field =
  (...names: string[]): RecordKey =>
  (item) => {
    const values = names.map((name) => item[name]);
    return values.every((v) => typeof v === "string") ? values.join(" ") : undefined;
  };

/**
 * Record keys of the operations whose records have no `id`: their own id field, or, where a record
 * has none (an identity of a consent, an income source, a direct debit), the fields that tell the
 * records of one answer apart.
 */
const RECORD_KEYS: Record<string, RecordKey> = {
  listBankingAccounts: field("account_id"),
  listBankingScheduledPayments: field("scheduled_payment_id"),
  listBankingProducts: field("product_id"),
  getBankingProduct: field("product_id"),
  listDerRecords: field("service_point_id"),
  listEnergyAccountBalances: field("account_id"),
  listEnergyBalances: field("account_id"),
  listEnergyPlans: field("plan_id"),
  listConsents: (item) => field("arrangementId")(item) ?? field("arrangement_id")(item),
  listIdentities: field("consent_id", "type"),
  listIncome: field("account_id", "source"),
  listDirectDebits: (item) => {
    const entity = item.authorised_entity as Json | undefined;
    return typeof item.account_id === "string" && typeof entity?.description === "string"
      ? `${item.account_id} ${entity.description}`
      : undefined;
  },
};
const keyOf = (op: Operation): RecordKey => RECORD_KEYS[op.operationId] ?? field("id");

/**
 * A POST creates a record: each auth session is new, with an id and an expiry made when it is
 * created, so its example shows no stored record that a copied request could return.
 */
const CREATES_RECORDS = (op: Operation) => op.method === "POST";

/**
 * The documented alternatives that cannot be sent together: the plans read takes exactly one of
 * `retailer_id` and `institution_id` (its description says so), and both have an example.
 */
const ALTERNATIVES: Record<string, string[][]> = { listEnergyPlans: [["retailer_id"], ["institution_id"]] };

/** The example of a parameter or media type named `name`, else its `example`, else the first of `examples`. */
function exampleOf(bundle: Json, node: Json, name: string): { value: unknown; paired: boolean } {
  const examples = node.examples as Json | undefined;
  if (examples?.[name] !== undefined)
    return { value: deref<{ value?: unknown }>(bundle, examples[name]).value, paired: true };
  if (node.example !== undefined) return { value: node.example, paired: false };
  const first = examples && Object.values(examples)[0];
  if (first !== undefined) return { value: deref<{ value?: unknown }>(bundle, first).value, paired: false };
  const schema: Json | undefined = node.schema ? deref<Json>(bundle, node.schema) : undefined;
  return { value: schema?.example ?? (schema?.examples as unknown[] | undefined)?.[0], paired: false };
}

interface Request {
  method: string;
  address: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * The documented request a response example answers (one per alternative where there are
 * alternatives), with the page size its links show.
 */
function exampleRequests(
  version: string,
  op: Operation,
  name: string,
  paging: [string, string][],
): Request[] {
  const bundle = loadBundle(version);
  let path = op.path;
  const query: [string, string][] = [];
  const paired = new Set<string>();
  const headers: Record<string, string> = {};
  for (const reference of (op.operation.parameters as Json[] | undefined) ?? []) {
    const parameter = deref<Json>(bundle, reference);
    const example = exampleOf(bundle, parameter, name);
    if (example.value === undefined) continue;
    const parameterName = parameter.name as string;
    if (example.paired) paired.add(parameterName);
    if (parameter.in === "path")
      path = path.replace(`{${parameterName}}`, encodeURIComponent(String(example.value)));
    else if (parameter.in === "query") query.push([parameterName, String(example.value)]);
    else if (parameter.in === "header") headers[parameterName.toLowerCase()] = String(example.value);
  }
  for (const [parameterName, value] of paging) {
    const index = query.findIndex(([n]) => n === parameterName);
    if (index >= 0) query.splice(index, 1);
    query.push([parameterName, value]);
  }
  let body: unknown;
  if (op.operation.requestBody) {
    const requestBody = deref<Json>(bundle, op.operation.requestBody);
    body = exampleOf(bundle, Object.values(requestBody.content as Json)[0] as Json, name).value;
  }
  const alternatives = ALTERNATIVES[op.operationId] ?? [[]];
  // A request paired with the example by name sends the alternative it names, and only that one.
  const chosen = alternatives.filter((only) => only.some((n) => paired.has(n)));
  return (chosen.length > 0 ? chosen : alternatives).map((only) => {
    const others = alternatives.flat().filter((n) => !only.includes(n));
    const sent = query.filter(([n]) => !others.includes(n));
    const search = sent.length > 0 ? `?${new URLSearchParams(sent).toString()}` : "";
    return { method: op.method, address: `${path}${search}`, headers, body };
  });
}

/** The top-most objects of a JSON value that are records (have a key), with their keys. */
function recordsOf(value: unknown, key: RecordKey, into = new Map<string, Json>()): Map<string, Json> {
  if (Array.isArray(value)) {
    for (const item of value) recordsOf(item, key, into);
  } else if (value && typeof value === "object") {
    const id = key(value as Json);
    if (id !== undefined) {
      if (!into.has(id)) into.set(id, value as Json);
    } else for (const item of Object.values(value)) recordsOf(item, key, into);
  }
  return into;
}

/** Where `served` differs from what `shown` shows, as `path: shown ≠ served` lines. */
function differences(shown: unknown, served: unknown, at: string): string[] {
  if (Array.isArray(shown)) {
    if (!Array.isArray(served)) return [`${at}: ${JSON.stringify(shown)} ≠ ${JSON.stringify(served)}`];
    const byId = shown.every((item) => item && typeof item === "object" && typeof item.id === "string");
    if (byId) {
      return shown.flatMap((item: Json) => {
        const match = served.find((s) => (s as Json | null)?.id === item.id);
        return match === undefined
          ? [`${at}[id=${item.id}]: not served`]
          : differences(item, match, `${at}[id=${item.id}]`);
      });
    }
    if (shown.length !== served.length)
      return [`${at}: ${shown.length} items ≠ ${served.length}: ${JSON.stringify(served).slice(0, 300)}`];
    return shown.flatMap((item, index) => differences(item, served[index], `${at}[${index}]`));
  }
  if (shown && typeof shown === "object") {
    if (!served || typeof served !== "object" || Array.isArray(served))
      return [`${at}: ${JSON.stringify(shown).slice(0, 200)} ≠ ${JSON.stringify(served)}`];
    return Object.entries(shown as Json).flatMap(([name, value]) =>
      name in served
        ? differences(value, (served as Json)[name], `${at}.${name}`)
        : [`${at}.${name}: ${JSON.stringify(value)} not served`],
    );
  }
  return Object.is(shown, served) ? [] : [`${at}: ${JSON.stringify(shown)} ≠ ${JSON.stringify(served)}`];
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start();
});
afterAll(() => sandbox.close());

/** A page served: the records of the answer by key (in the order served) and its `links`. */
interface ServedPage {
  records: Map<string, Json>;
  links: Json | undefined;
}

/** Every page of each request (one list per request), following `links.next`. */
async function servedPages(version: string, requests: Request[], key: RecordKey): Promise<ServedPage[][]> {
  const answers: ServedPage[][] = [];
  for (const request of requests) {
    const pages: ServedPage[] = [];
    let address: string | undefined = request.address;
    for (let count = 0; address && count < 1000; count++) {
      const response = await sandbox.call(request.method, address, {
        version,
        body: request.body,
        headers: request.headers,
      });
      expect(response.status, `${address}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
      const links = (response.body as { links?: Json } | undefined)?.links;
      pages.push({ records: recordsOf(response.body, key), links });
      address = links?.next as string | undefined;
    }
    answers.push(pages);
  }
  return answers;
}

/** Where an example says its records are in the list, by its name or its summary. */
type Position = "first page" | "last page" | "shortened" | "anywhere";

function positionOf(name: string, summary: string): Position {
  if (/first ?page/i.test(name)) return "first page";
  if (/last ?page/i.test(name)) return "last page";
  if (/\bshortened\b/i.test(summary)) return "shortened";
  // An answer that is not paged is one page, the whole list.
  if (/unpaged/i.test(name) || /\bfirst page\b|without paging/i.test(summary)) return "first page";
  if (/\blast page\b/i.test(summary)) return "last page";
  return "anywhere";
}

/** The summary of a 2xx response example of an operation, by name. */
function summaryOf(version: string, op: Operation, name: string): string {
  const bundle = loadBundle(version);
  for (const [status, response] of Object.entries(op.operation.responses as Json)) {
    if (!status.startsWith("2")) continue;
    for (const media of Object.values((deref<Json>(bundle, response).content ?? {}) as Json) as Json[]) {
      const example = (media.examples as Json | undefined)?.[name];
      if (example !== undefined) return String(deref<Json>(bundle, example).summary ?? "");
    }
  }
  return "";
}

/** Where to mend a difference, said under it. */
const MENDING =
  '(a value: src/data/documented.ts sets it for the record; an id: src/data/ids.ts; or the example itself; spec/README.md, "An example")';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** The links of a page, in one order (`next`, `prev`), to compare. */
const linksOf = (links: Json | undefined) =>
  Object.entries(links ?? {}).sort(([a], [b]) => a.localeCompare(b));
const keysOf = (page: ServedPage | undefined) => [...(page?.records.keys() ?? [])];

/**
 * Where the records an example shows (their keys, in order) and its links are not where it says in
 * the pages served for one request, as lines; none when they are.
 */
function misplaced(
  position: Position,
  shown: string[],
  links: Json | undefined,
  pages: ServedPage[],
): string[] {
  const samePage = (what: string, page: ServedPage | undefined) => [
    ...(same(shown, keysOf(page))
      ? []
      : [`${what}: shows ${shown.join(", ")}; served ${keysOf(page).join(", ")}`]),
    ...(same(linksOf(links), linksOf(page?.links))
      ? []
      : [`${what}: links ${JSON.stringify(links ?? {})}; served ${JSON.stringify(page?.links ?? {})}`]),
  ];
  const all = pages.flatMap(keysOf);
  switch (position) {
    case "first page":
      return samePage("first page", pages[0]);
    case "last page":
      return samePage("last page", pages.at(-1));
    case "shortened":
      return same(shown, all.slice(0, shown.length))
        ? []
        : [`shortened: shows ${shown.join(", ")}; served first ${all.slice(0, shown.length).join(", ")}`];
    case "anywhere": {
      if (links && Object.keys(links).length > 0) {
        const page = pages.find((p) => same(linksOf(links), linksOf(p.links)));
        return page
          ? samePage("page", page)
          : [`page: no page served has the links ${JSON.stringify(links)}`];
      }
      const order = shown.filter((id) => all.includes(id));
      const served = all.filter((id) => order.includes(id));
      return same(order, served) ? [] : [`order: shows ${order.join(", ")}; served ${served.join(", ")}`];
    }
  }
}

/** The 2xx response examples of a version that show records. */
function recordExamples(version: string): (SuccessExample & { name: string; records: Map<string, Json> })[] {
  return successExamples(version)
    .map((example) => ({
      ...example,
      name: example.where.slice(example.op.operationId.length + 1),
      records: recordsOf(example.value, keyOf(example.op)),
    }))
    .filter((example) => example.records.size > 0)
    .filter(({ op }) => !CREATES_RECORDS(op));
}

describe.each(VERSIONS)("%s: the records of the response examples are served as shown", (version) => {
  const examples = recordExamples(version);
  it("finds records in the examples", () => {
    expect(examples.length).toBeGreaterThan(10);
  });
  for (const { op, where, name, value, records } of examples) {
    const position = positionOf(name, summaryOf(version, op, name));
    it(`${where} (${position}): ${[...records.keys()].join(", ")}`, async () => {
      const pageSize = examplePageSize(value);
      const requests = exampleRequests(version, op, name, pageSize ? [pageSize] : []);
      const answers = await servedPages(version, requests, keyOf(op));
      const served = new Map<string, Json>();
      for (const page of answers.flat())
        for (const [id, record] of page.records) if (!served.has(id)) served.set(id, record);
      const found = [...records].flatMap(([id, shown]) => {
        const record = served.get(id);
        if (!record) return [`${id}: not in the answer to ${requests.map((r) => r.address).join(" and ")}`];
        return differences(shown, record, id);
      });
      // The example answers one of the alternative requests: the one it is in place for.
      const links = (value as { links?: Json } | undefined)?.links;
      const places = answers.map((pages) => misplaced(position, [...records.keys()], links, pages));
      if (!places.some((lines) => lines.length === 0)) found.push(...places.flat());
      const sent = requests.map((r) => r.address).join(" and ");
      expect(found.length, `${where}, sent ${sent}, differs:\n${found.join("\n")}\n${MENDING}`).toBe(0);
    });
  }
});
