/**
 * Served examples: a request copied from the reference returns the records its examples show. For
 * every 2xx response example of every version, the operation's documented example request is sent to
 * the default seed (every page, following `links.next`), and each record of the example (an object
 * that carries the operation's record key, `RECORD_KEYS`, else `id`) must appear in the answer with
 * every field the example shows at the value it shows: objects are compared as subsets, arrays element
 * by element (by `id` where their elements have one, else by position, with the same length).
 *
 * The documented example request is each parameter's example and the body's example; where a
 * parameter has an example named like the response example, that one is sent for it (the two form a
 * request and response pair: the home-loan products of both families and Origin's plans, which need
 * another request than the default one, have one). Examples whose records
 * carry no key (the token, the detailed transactions' `{}` items, the common identity's `{}` items)
 * are not records.
 */
import { deref } from "@cdas/spec/openapi";
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

/** The documented request a response example answers (one per alternative where there are alternatives). */
function exampleRequests(version: string, op: Operation, name: string): Request[] {
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

/** Every page of every request, the records of the answers by key. */
async function servedRecords(
  version: string,
  requests: Request[],
  key: RecordKey,
): Promise<Map<string, Json>> {
  const records = new Map<string, Json>();
  for (const request of requests) {
    let address: string | undefined = request.address;
    for (let pages = 0; address && pages < 1000; pages++) {
      const response = await sandbox.call(request.method, address, {
        version,
        body: request.body,
        headers: request.headers,
      });
      expect(response.status, `${address}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
      recordsOf(response.body, key, records);
      address = (response.body as { links?: { next?: string } } | undefined)?.links?.next;
    }
  }
  return records;
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
  for (const { op, where, name, records } of examples) {
    it(`${where}: ${[...records.keys()].join(", ")}`, async () => {
      const requests = exampleRequests(version, op, name);
      const served = await servedRecords(version, requests, keyOf(op));
      const found = [...records].flatMap(([id, shown]) => {
        const record = served.get(id);
        if (!record) return [`${id}: not in the answer to ${requests.map((r) => r.address).join(" and ")}`];
        return differences(shown, record, id);
      });
      const sent = requests.map((r) => r.address).join(" and ");
      expect(found.length, `${where}, sent ${sent}, differs:\n${found.join("\n")}\n`).toBe(0);
    });
  }
});
