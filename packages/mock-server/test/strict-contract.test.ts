/**
 * The sandbox serves exactly what the documents declare: every page of every operation of every
 * version, for every end user of the default seed, validates against the bundle made strict
 * (strict-bundle.ts), and every field a 2xx response schema declares is served by some record on
 * some of those pages (src/data/variety.ts gives the optional fields generation leaves out).
 */
import { followRef } from "@cdas/spec/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  loadBundle,
  mainEndUsers,
  type Operation,
  operationsOf,
  Sandbox,
  undeclaredFields,
  VERSIONS,
  validRequests,
} from "./helpers.js";

type Json = Record<string, unknown>;

let sandbox: Sandbox;
let endUsers: string[];
/** The account ids of each end user (the summary product is asked for each account). */
const accountIds = new Map<string, string[]>();

beforeAll(async () => {
  sandbox = await Sandbox.start();
  endUsers = (await mainEndUsers(sandbox)).all;
  for (const endUser of endUsers) {
    const accounts = await sandbox.get(`/v1/accounts?end_user_id=${endUser}&limit=100`, "v2");
    accountIds.set(
      endUser,
      ((accounts.body as { data: { id: string }[] }).data ?? []).map((a) => a.id),
    );
  }
});
afterAll(() => sandbox.close());

/** The response to a request and to every `links.next` after it. */
async function* pages(version: string, method: string, call: ReturnType<typeof validRequests>[number]) {
  let path: string | undefined = call.path;
  for (let page = 0; path !== undefined && page < 500; page++) {
    const response: ApiResponse = await sandbox.call(method, path, {
      version,
      body: call.body,
      token: call.token,
    });
    yield response;
    const links = (response.body as { links?: { next?: string } } | undefined)?.links;
    path = links?.next;
  }
}

/** The valid requests of an operation for an end user, and the summary product of each of their accounts. */
function requests(operationId: string, endUser: string): ReturnType<typeof validRequests> {
  const calls = validRequests(sandbox.server, operationId, endUser);
  if (operationId !== "listProducts") return calls;
  const perAccount = (accountIds.get(endUser) ?? []).map((id) => ({
    path: `/v1/products?end_user_id=${endUser}&account_id=${id}`,
  }));
  return [...calls, ...perAccount];
}

/**
 * Every page of every valid request of an operation, for every end user: walked once per version and
 * operation, and read by both checks below.
 */
const walks = new Map<string, Promise<ApiResponse[]>>();
function walked(version: string, op: Operation): Promise<ApiResponse[]> {
  const key = `${version} ${op.operationId}`;
  let walk = walks.get(key);
  if (!walk) {
    walk = (async () => {
      const responses: ApiResponse[] = [];
      for (const endUser of endUsers)
        for (const call of requests(op.operationId, endUser))
          for await (const response of pages(version, op.method, call)) responses.push(response);
      return responses;
    })();
    walks.set(key, walk);
  }
  return walk;
}

/** Where to mend a field served that the version's documents do not declare, said under the list. */
const UNDECLARED_MENDING =
  '(`<schema path>: <field>`; the view that serves it, src/data/views.ts, must leave it out in this version: a field of some versions only is served under a flag of src/data/shapes.ts that the view reads, set in the entries of the versions that have it (a version with no entry there takes the forms of its base); if this version should have the field, its document in spec/ lacks it; spec/README.md, "A field", step 3)';

describe.each(VERSIONS)("%s: no field outside the documents", (version) => {
  for (const op of operationsOf(version)) {
    it(`${op.operationId}: every page for every end user declares every field it serves`, async () => {
      const undeclared = new Set<string>();
      let successes = 0;
      for (const response of await walked(version, op)) {
        // An end user without data may get a documented error (no product to show): it is checked too.
        for (const field of undeclaredFields(version, op.method, op.path, response)) undeclared.add(field);
        if (response.status < 300) successes++;
      }
      expect(
        successes,
        `${version} ${op.operationId}: no valid request was answered with a success`,
      ).toBeGreaterThan(0);
      expect(
        [...undeclared].sort(),
        `${version} ${op.operationId} serves fields its documents do not declare, ${[...undeclared].join(", ")} ${UNDECLARED_MENDING}`,
      ).toEqual([]);
    });
  }
});

/** Union tags (`*_u_type`, `*_utype`) served in a body that do not name an object beside them in camelCase. */
function strayTags(value: unknown, into: Set<string>): void {
  if (!value || typeof value !== "object") return;
  for (const [key, item] of Object.entries(value)) {
    if (/_u_?type$/.test(key) && typeof item === "string") {
      const snake = item.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      if (!/^[a-z][a-zA-Z0-9]*$/.test(item) || !(snake in value)) into.add(`${key}: ${item}`);
    }
    strayTags(item, into);
  }
}

describe.each(VERSIONS)("%s: union tags as the documents' examples write them", (version) => {
  // fee_method_u_type's documented values set the convention (spec/test/examples.test.ts checks the examples).
  it("every tag served is the camelCase name of an object beside it", async () => {
    const stray = new Set<string>();
    let tags = 0;
    for (const op of operationsOf(version).filter((o) => o.method === "GET")) {
      for (const call of validRequests(sandbox.server, op.operationId, endUsers[0] ?? "")) {
        for await (const response of pages(version, op.method, call)) {
          const text = JSON.stringify(response.body ?? null);
          tags += text.match(/_u_?type"/g)?.length ?? 0;
          strayTags(response.body, stray);
        }
      }
    }
    expect(tags).toBeGreaterThan(0);
    expect([...stray].sort()).toEqual([]);
  });
});

describe("the strict check fails on an extra field", () => {
  const fake = (body: unknown): ApiResponse => ({
    status: 200,
    headers: {},
    contentType: "application/json",
    text: JSON.stringify(body),
    body,
  });

  it.each(VERSIONS)("%s: at the top, in a nested object and in an allOf extension", async (version) => {
    const [endUser] = endUsers;
    const accounts = await sandbox.call("GET", `/v1/banking/accounts?end_user_id=${endUser}`, { version });
    const path = "/v1/banking/accounts";
    expect(undeclaredFields(version, "GET", path, accounts)).toEqual([]);
    const body = accounts.body as { accounts: Record<string, unknown>[] };
    const account = body.accounts.find((a) => (a.fees as unknown[]).length > 0)!;
    const mutations: [string, (copy: typeof body) => void][] = [
      ["made_up_root", (copy) => Object.assign(copy, { made_up_root: 1 })],
      ["made_up_account", (copy) => Object.assign(copy.accounts[0]!, { made_up_account: 1 })],
      [
        "made_up_fee",
        (copy) => {
          const fees = copy.accounts.find((a) => a.account_id === account.account_id)!.fees as object[];
          Object.assign(fees[0]!, { made_up_fee: 1 });
        },
      ],
    ];
    for (const [field, mutate] of mutations) {
      const copy = structuredClone(body);
      mutate(copy);
      expect(undeclaredFields(version, "GET", path, fake(copy)).join()).toContain(field);
    }
  });
});

/**
 * The paths of the fields a schema declares (`accounts[].fees[].amount`), through `$ref`, `items`,
 * `allOf`/`oneOf`/`anyOf` and documented maps (`additionalProperties` given as a schema: `*`).
 */
function declaredPaths(
  bundle: Json,
  schema: unknown,
  prefix: string,
  into: Set<string>,
  seen: string[] = [],
) {
  if (!schema || typeof schema !== "object") return;
  const { node, pointer } = followRef<Json>(bundle, schema as Json);
  if (pointer !== undefined && seen.includes(pointer)) return; // a schema that contains itself
  const inside = pointer === undefined ? seen : [...seen, pointer];
  for (const key of ["allOf", "oneOf", "anyOf"])
    for (const member of (node[key] as unknown[] | undefined) ?? [])
      declaredPaths(bundle, member, prefix, into, inside);
  if (node.items) declaredPaths(bundle, node.items, `${prefix}[]`, into, inside);
  const children: [string, unknown][] = Object.entries((node.properties as Json | undefined) ?? {});
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    children.push(["*", node.additionalProperties]);
  for (const [name, child] of children) {
    const path = prefix ? `${prefix}.${name}` : name;
    into.add(path);
    declaredPaths(bundle, child, path, into, inside);
  }
}

/** The paths of the fields a body serves, in the same notation (array items as `[]`). */
function servedPaths(value: unknown, prefix: string, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) servedPaths(item, `${prefix}[]`, into);
    return;
  }
  if (!value || typeof value !== "object") return;
  for (const [key, item] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    into.add(path);
    servedPaths(item, path, into);
  }
}

/** Whether a declared path (with `*` for a map's keys) is one of the served paths. */
function isServed(declared: string, served: Set<string>): boolean {
  if (!declared.includes("*")) return served.has(declared);
  const escaped = declared.replace(/[.[\]]/g, (c) => `\\${c}`).replace(/\*/g, "[^.\\[]+");
  const pattern = new RegExp(`^${escaped}$`);
  return [...served].some((path) => pattern.test(path));
}

/**
 * Declared fields no record is expected to serve, by operation:
 * - `links` and its `next`/`prev`: paging, present only where the walk's pages have them (a list
 *   served on one page has no `next`; paging.test.ts checks the links);
 * - createToken's `token`: the token's other form, served with `--token-form token` instead of
 *   `access_token` (auth.test.ts checks it);
 * - listProducts' `data` form (`data[]....`): the product's other form, served with `--product-form
 *   data` instead of the bare Product (contract.test.ts checks it);
 * - v1's `x2p101_payload` of a detailed banking transaction: the interface documents neither its
 *   type nor its fields, so any value would be invented (views.ts leaves it out).
 */
const NOT_SERVED: Record<string, RegExp> = {
  "*": /^links(\.|$)/,
  createToken: /^token$/,
  listProducts: /^data(\[\]|$)/,
  listBankingTransactions: /\.extended_data\.x2p101_payload$/,
};

/** Where to make a declared field served, said under the list (spec/README.md, "A field", has the steps). */
const NEVER_SERVED_MENDING =
  '(its record in src/data/model.ts, its value where its records are made (src/data/banking.ts, energy.ts, payees.ts, products.ts, transactions.ts, merchants.ts, ...; generate.ts only assembles them) and its form in src/data/views.ts; an optional field generation gives no record: on a record no example shows, in src/data/variety.ts; a field of some versions only: a flag in src/data/shapes.ts that the view reads, the handler passing it the call\'s shape (src/handlers.ts); a field no record can serve: NOT_SERVED in this test, saying why; spec/README.md, "A field", step 3)';

describe.each(VERSIONS)("%s: every declared field is served by some record", (version) => {
  const bundle = loadBundle(version);
  for (const op of operationsOf(version)) {
    it(`${op.operationId}: every field its 2xx responses declare is on some page for some end user`, async () => {
      const declared = new Set<string>();
      for (const [status, response] of Object.entries(op.operation.responses as Json)) {
        if (!status.startsWith("2")) continue;
        const content = (followRef<Json>(bundle, response as Json).node.content ?? {}) as Json;
        for (const media of Object.values(content))
          declaredPaths(bundle, (media as Json).schema, "", declared);
      }
      const served = new Set<string>();
      for (const response of await walked(version, op))
        if (response.status < 300) servedPaths(response.body, "", served);
      const exempt = [NOT_SERVED["*"]!, NOT_SERVED[op.operationId]].filter((e) => e !== undefined);
      const never = [...declared].filter(
        (path) => !isServed(path, served) && !exempt.some((e) => e.test(path)),
      );
      expect(served.size, `${version} ${op.operationId}: no page served a field`).toBeGreaterThan(0);
      expect(
        never.sort(),
        `${version} ${op.operationId} declares fields no page serves to any end user, ${never.join(", ")} ${NEVER_SERVED_MENDING}`,
      ).toEqual([]);
    });
  }
});
