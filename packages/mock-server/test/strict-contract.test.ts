/**
 * The sandbox serves only declared fields: every page of every operation of every version, for
 * every end user of the default seed, validates against the bundle made strict (strict-bundle.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  mainEndUsers,
  operationsOf,
  Sandbox,
  undeclaredFields,
  VERSIONS,
  validRequests,
} from "./helpers.js";

let sandbox: Sandbox;
let endUsers: string[];

beforeAll(async () => {
  sandbox = await Sandbox.start();
  endUsers = (await mainEndUsers(sandbox)).all;
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

describe.each(VERSIONS)("%s: no field outside the documents", (version) => {
  for (const op of operationsOf(version)) {
    it(`${op.operationId}: every page for every end user declares every field it serves`, async () => {
      const undeclared = new Set<string>();
      let successes = 0;
      for (const endUser of endUsers) {
        for (const call of validRequests(sandbox.server, op.operationId, endUser)) {
          for await (const response of pages(version, op.method, call)) {
            // An end user without data may get a documented error (no product to show): it is checked too.
            for (const field of undeclaredFields(version, op.method, op.path, response))
              undeclared.add(field);
            if (response.status < 300) successes++;
          }
        }
      }
      expect(successes).toBeGreaterThan(0);
      expect([...undeclared].sort()).toEqual([]);
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
