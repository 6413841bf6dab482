/**
 * Served examples: a request copied from the reference returns the records its examples show, on the
 * page the example says. For every 2xx response example of every version, the documented request it
 * answers is sent to the default seed (every page, following `links.next`): `exampleRequest` of
 * @cdas/spec/openapi, the same request the reference's code samples show (each parameter's example
 * named like the response example, else its first; a parameter paired only with other response
 * examples left out; the page size the example's links show). Each record of the example (an object
 * that carries the operation's record key, `RECORD_KEYS`, else `id`) must appear in the answer with
 * every field the example shows at the value it shows: objects are compared as subsets, arrays
 * element by element (by `id` where their elements have one, else by position, with the same
 * length).
 *
 * The records an example shows (their keys, in order) must also be where the example says they are,
 * the first of these that applies:
 * - named as a first page (`firstPage`), or its summary says "first page": exactly the records of the
 *   first page served, in order, and the example's `links` are that page's; named as a last page
 *   (`lastPage`), or its summary says "last page": the same for the page the walk ends on (the one
 *   without `links.next`);
 * - not paged (named `unpaged`, or its summary says "without paging"): the start of the whole list;
 * - it shows `links` (a page in between): exactly the records of the page served with those links;
 * - otherwise: the first records served, in order.
 *
 * A second test holds every list example to the start of its list, item by item (also items that
 * carry no key): its items are the first ones of the page its links name, else of the first page.
 * Examples whose records carry no key (the token, the detailed transactions' `{}` items, the common
 * identity's `{}` items) are not records for the first test.
 *
 * An example may leave out records' fields or a list's items, but its summary says so, as the
 * reader sees it beside the example: "abridged" (fields served that it does not show) and "shortened
 * here" (fewer items than the page served), each exactly when it is so: "abridged" for examples with
 * records (above), "shortened here" for list examples (below).
 */
import { exampleRequest, responseExamples } from "@cdas/spec/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBundle, type Operation, operationsOf, Sandbox, VERSIONS, type Version } from "./helpers.js";

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

interface Request {
  method: string;
  address: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * The documented request a response example answers: `exampleRequest` of @cdas/spec/openapi, the one
 * the reference's code samples show, as an address.
 */
function requestOf(version: string, op: Operation, name: string | undefined): Request {
  const bundle = loadBundle(version);
  const pathItem = (bundle.paths as Json)[op.path] as Json;
  const request = exampleRequest(bundle, pathItem, op.operation, name);
  const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(String(request.path[n])));
  const query = Object.entries(request.query).map(([n, value]): [string, string] => [n, String(value)]);
  const search = query.length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([n, value]) => [n.toLowerCase(), String(value)]),
  );
  return { method: op.method, address: `${path}${search}`, headers, body: request.body };
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

/** The fields `served` holds that `shown` leaves out (within the objects both have), as paths. */
function leftOut(shown: unknown, served: unknown, at: string): string[] {
  if (Array.isArray(shown) && Array.isArray(served)) {
    const byId = shown.every((item) => item && typeof item === "object" && typeof item.id === "string");
    return shown.flatMap((item, index) => {
      const match = byId ? served.find((s) => (s as Json | null)?.id === (item as Json).id) : served[index];
      return leftOut(item, match, `${at}[${index}]`);
    });
  }
  if (!shown || typeof shown !== "object" || !served || typeof served !== "object" || Array.isArray(served))
    return [];
  return Object.entries(served as Json).flatMap(([name, value]) =>
    name in shown ? leftOut((shown as Json)[name], value, `${at}.${name}`) : [`${at}.${name}`],
  );
}

/**
 * What an example's summary says of what it leaves out: "abridged" when its records are served with
 * fields it does not show, "shortened here" when its list has fewer items than the page served.
 * Either is said exactly when it is so, for a reader who copies the request and compares.
 */
const SAYS_ABRIDGED = /\babridged\b/;
const SAYS_SHORTENED = /\bshortened here\b/;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start();
});
afterAll(() => sandbox.close());

/** A page served: the records of the answer by key (in the order served) and its `links`. */
interface ServedPage {
  records: Map<string, Json>;
  links: Json | undefined;
  body: unknown;
}

/** Every page served for a request, following `links.next`, each with the answer's body. */
async function servedPages(version: string, request: Request, key: RecordKey): Promise<ServedPage[]> {
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
    pages.push({ records: recordsOf(response.body, key), links, body: response.body });
    address = links?.next as string | undefined;
  }
  return pages;
}

/** Where an example says its records are in the list, by its name, its summary or its links. */
type Position = "first page" | "last page" | "page" | "start";

function positionOf(name: string, summary: string, links: Json | undefined): Position {
  if (/first ?page/i.test(name)) return "first page";
  if (/last ?page/i.test(name)) return "last page";
  // An answer that is not paged is one page, the whole list: the example shows its start.
  if (/unpaged/i.test(name) || /without paging/i.test(summary)) return "start";
  if (/\bfirst page\b/i.test(summary)) return "first page";
  if (/\blast page\b/i.test(summary)) return "last page";
  if (links && Object.keys(links).length > 0) return "page";
  return "start";
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
    case "page": {
      const page = pages.find((p) => same(linksOf(links), linksOf(p.links)));
      return page ? samePage("page", page) : [`page: no page served has the links ${JSON.stringify(links)}`];
    }
    case "start":
      return same(shown, all.slice(0, shown.length))
        ? []
        : [`start: shows ${shown.join(", ")}; served first ${all.slice(0, shown.length).join(", ")}`];
  }
}

/** A 2xx response example of an operation, with where it is and its name and summary. */
interface NamedExample {
  op: Operation;
  where: string;
  name: string | undefined;
  summary: string;
  value: unknown;
}

/** Every 2xx response example of a version's operations, but those of a POST (`CREATES_RECORDS`). */
function readExamples(version: Version): NamedExample[] {
  const bundle = loadBundle(version);
  return operationsOf(version)
    .filter((op) => !CREATES_RECORDS(op))
    .flatMap((op) =>
      responseExamples(bundle, op.operation).map(({ name, summary, value }) => ({
        op,
        where: `${op.operationId} ${name ?? "example"}`,
        name,
        summary,
        value,
      })),
    );
}

describe.each(VERSIONS)("%s: the records of the response examples are served as shown", (version) => {
  const examples = readExamples(version)
    .map((example) => ({ ...example, records: recordsOf(example.value, keyOf(example.op)) }))
    .filter((example) => example.records.size > 0);
  it("finds records in the examples", () => {
    expect(examples.length).toBeGreaterThan(10);
  });
  for (const { op, where, name, summary, value, records } of examples) {
    const links = (value as { links?: Json } | undefined)?.links;
    const position = positionOf(name ?? "", summary, links);
    it(`${where} (${position}): ${[...records.keys()].join(", ")}`, async () => {
      const request = requestOf(version, op, name);
      const pages = await servedPages(version, request, keyOf(op));
      const served = new Map<string, Json>();
      for (const page of pages)
        for (const [id, record] of page.records) if (!served.has(id)) served.set(id, record);
      const found = [...records].flatMap(([id, shown]) => {
        const record = served.get(id);
        if (!record) return [`${id}: not in the answer to ${request.address}`];
        return differences(shown, record, id);
      });
      found.push(...misplaced(position, [...records.keys()], links, pages));
      expect(
        found.length,
        `${where}, sent ${request.address}, differs:\n${found.join("\n")}\n${MENDING}`,
      ).toBe(0);
      const omitted = [...records].flatMap(([id, shown]) => leftOut(shown, served.get(id), id));
      expect(
        SAYS_ABRIDGED.test(summary),
        omitted.length > 0
          ? `${where} leaves out fields served (${omitted.slice(0, 5).join(", ")}${omitted.length > 5 ? ", ..." : ""}): its summary must say "abridged"`
          : `${where} shows every field served: its summary must not say "abridged"`,
      ).toBe(omitted.length > 0);
    });
  }
});

/**
 * The list of a response body: the body itself (`x-cdas-pagination` items ""), the member its
 * `items` names, or, where the operation declares no paging, the one array member of an envelope
 * whose key the interface does not name (the detailed banking transactions). Undefined for a body
 * that is no list.
 */
function listOf(op: Operation, body: unknown): unknown[] | undefined {
  const items = (op.operation["x-cdas-pagination"] as { items?: string } | undefined)?.items;
  if (items === "") return Array.isArray(body) ? body : undefined;
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  if (items !== undefined) {
    const list = (body as Json)[items];
    return Array.isArray(list) ? list : undefined;
  }
  const arrays = Object.entries(body).filter(([key, value]) => key !== "links" && Array.isArray(value));
  return arrays.length === 1 && Object.keys(body).every((key) => key === "links" || key === arrays[0]?.[0])
    ? (arrays[0]?.[1] as unknown[])
    : undefined;
}

/**
 * Every list example shows the first items of the list served for its request, in order, item by
 * item (each field it shows at the value it shows; items without a key too, such as the detailed
 * transactions' `{}`): the first items of the page its links name, else of the first page. A list
 * example is a selection of the data set as served, never records picked from further down.
 */
describe.each(VERSIONS)("%s: a list example shows the first items served", (version) => {
  const examples = readExamples(version)
    .map((example) => ({ ...example, list: listOf(example.op, example.value) }))
    .filter((example) => example.list !== undefined && example.list.length > 0);
  it("finds list examples", () => {
    expect(examples.length).toBeGreaterThan(15);
  });
  for (const { op, where, name, summary, value, list } of examples) {
    it(`${where}: its ${list?.length} items are the first served`, async () => {
      const request = requestOf(version, op, name);
      const pages = await servedPages(version, request, keyOf(op));
      const links = (value as { links?: Json } | undefined)?.links;
      const page = links === undefined ? pages[0] : pages.find((p) => same(linksOf(links), linksOf(p.links)));
      expect(
        page,
        `${where}: no page served for ${request.address} has the links ${JSON.stringify(links)}`,
      ).toBeDefined();
      const served = listOf(op, page?.body) ?? [];
      const shown = list ?? [];
      const found = shown.flatMap((item, index) =>
        index < served.length
          ? differences(item, served[index], `items[${index}]`)
          : [`items[${index}]: not served`],
      );
      expect(
        found.length,
        `${where}, sent ${request.address}, shows other items than the first ${shown.length} of ${served.length} served:\n${found.join("\n")}\n${MENDING}`,
      ).toBe(0);
      expect(
        SAYS_SHORTENED.test(summary),
        shown.length < served.length
          ? `${where} shows ${shown.length} of the ${served.length} items served: its summary must say "shortened here"`
          : `${where} shows every item served: its summary must not say "shortened here"`,
      ).toBe(shown.length < served.length);
    });
  }
});
