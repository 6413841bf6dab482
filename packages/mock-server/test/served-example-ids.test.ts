/**
 * Every id in the documents' response examples is one the default seed serves: each value of an
 * `id`, `*_id` or `*Id` key (or an `*_ids` list) in every 2xx example of every version appears in
 * some response of the sandbox to the documented end users' reads (every page of every read), or
 * names the documented auth session (the one a POST of the example request stands for). Error
 * bodies are left out: their `id` names one occurrence of an error, not a record.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCUMENTED_SESSION } from "../src/handlers.js";
import {
  forEachEntry,
  mainEndUsers,
  operationsOf,
  Sandbox,
  successExamples,
  VERSIONS,
  type Version,
  validRequests,
} from "./helpers.js";

const isIdKey = (key: string) => /^id$|_ids?$|[a-z]Ids?$/.test(key);

/** Values of id-like keys anywhere in a JSON value, each with where it was found. */
function collectIds(value: unknown, where: string, into: Map<string, string>): void {
  forEachEntry(value, (key, item) => {
    if (!isIdKey(key)) return;
    for (const id of Array.isArray(item) ? item : [item])
      if (typeof id === "string" && !into.has(id)) into.set(id, `${where} ${key}`);
  });
}

/** The ids of every 2xx response example of a version, each with the operation and example it is in. */
function exampleIds(version: Version): Map<string, string> {
  const ids = new Map<string, string>();
  for (const { where, value } of successExamples(version)) collectIds(value, where, ids);
  return ids;
}

let sandbox: Sandbox;
const served = new Set<string>([DOCUMENTED_SESSION.id, DOCUMENTED_SESSION.sessionId]);

/** Reads every page of every documented read of a version for both end users with data. */
async function collectServed(version: Version, users: string[]): Promise<void> {
  const ids = new Map<string, string>();
  for (const op of operationsOf(version).filter((o) => o.method === "GET")) {
    for (const user of users) {
      for (const call of validRequests(sandbox.server, op.operationId, user)) {
        let address: string | undefined = call.path;
        for (let pages = 0; address && pages < 1000; pages++) {
          const response = await sandbox.get(address, version);
          expect(response.status, `${address}: ${response.text.slice(0, 200)}`).toBe(200);
          collectIds(response.body, address, ids);
          address = (response.body as { links?: { next?: string } }).links?.next;
        }
      }
    }
  }
  for (const id of ids.keys()) served.add(id);
}

beforeAll(async () => {
  sandbox = await Sandbox.start();
  const { person, organisation } = await mainEndUsers(sandbox);
  for (const version of VERSIONS) await collectServed(version, [person, organisation]);
});
afterAll(() => sandbox.close());

describe.each(VERSIONS)("%s: ids of the response examples", (version) => {
  const ids = exampleIds(version);
  it("finds ids in the examples", () => {
    expect(ids.size).toBeGreaterThan(50);
  });
  for (const [id, where] of ids) {
    it(`${id} (${where}) is served by the default seed`, () => {
      expect(
        served.has(id),
        `${id}, in ${where}, appears in no response (src/data/ids.ts gives an id to a record; spec/README.md, "An example")`,
      ).toBe(true);
    });
  }
});
