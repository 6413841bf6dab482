/**
 * Every bound the sandbox enforces on a request is in the documents: for each numeric query
 * parameter of each operation and version, a value is refused exactly when the bundle's `minimum`,
 * `maximum` (or exclusive forms) exclude it. The bounds are read from the bundle, so the test holds
 * before and after the documents state the paging minimums (`limit`, `page[size]` >= 1, `offset` >= 0).
 */
import { followRef } from "@cdas/spec/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBundle, mainEndUsers, operationsOf, Sandbox, VERSIONS, validRequests } from "./helpers.js";

type Json = Record<string, unknown>;

let sandbox: Sandbox;
let person: string;
beforeAll(async () => {
  sandbox = await Sandbox.start();
  person = (await mainEndUsers(sandbox)).person;
});
afterAll(() => sandbox.close());

/** Values around the usual bounds of paging and amounts. */
const PROBES = [-1, 0, 1, 1000, 1001];

/** The node a reference names (the bundle's own object, so the test below can change it). */
const resolve = (bundle: Json, node: unknown): Json => followRef<Json>(bundle, node).node;

/** Whether the schema's documented bounds admit the value. */
function admits(schema: Json, value: number): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<
    string,
    number | undefined
  >;
  return (
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum) &&
    (exclusiveMinimum === undefined || value > exclusiveMinimum) &&
    (exclusiveMaximum === undefined || value < exclusiveMaximum)
  );
}

describe.each(VERSIONS)("%s: numeric parameter bounds are the documents'", (version) => {
  const bundle = loadBundle(version);
  for (const op of operationsOf(version)) {
    const numeric = ((op.operation.parameters as Json[] | undefined) ?? [])
      .map((p) => resolve(bundle, p))
      .filter((p) => p.in === "query")
      .map((p) => ({ name: p.name as string, schema: resolve(bundle, p.schema as Json) }))
      .filter(({ schema }) => schema.type === "integer" || schema.type === "number");
    if (numeric.length === 0) continue;

    it(`${op.operationId}: ${numeric.map((p) => p.name).join(", ")} refused only outside the bundle's bounds`, async () => {
      const [call] = validRequests(sandbox.server, op.operationId, person);
      for (const { name, schema } of numeric) {
        for (const value of PROBES) {
          const url = new URL(call!.path, "https://sandbox.invalid");
          url.searchParams.delete(name);
          url.searchParams.set(name, String(value));
          const response = await sandbox.call(op.method, `${url.pathname}${url.search}`, { version });
          const expected = admits(schema, value) ? 200 : 400;
          expect(response.status, `${name}=${value}: ${response.text.slice(0, 200)}`).toBe(expected);
          if (expected === 400) expect((response.body as { message: string }).message).toContain(name);
        }
      }
    });
  }
});

describe("enforcement follows the bundle", () => {
  it("refuses limit=0 and offset=-1 with a bundle that states limit >= 1 and offset >= 0", async () => {
    const bounded = structuredClone(loadBundle("v2"));
    const parameters = (bounded.paths as Json)["/v1/accounts"] as { get: { parameters: Json[] } };
    for (const raw of parameters.get.parameters) {
      const parameter = resolve(bounded, raw);
      const schema = resolve(bounded, parameter.schema as Json);
      if (parameter.name === "limit") schema.minimum = 1;
      if (parameter.name === "offset") schema.minimum = 0;
    }
    await Sandbox.using({ bundles: { v2: bounded } }, async (strict) => {
      for (const [query, status] of [
        ["limit=0", 400],
        ["offset=-1", 400],
        ["limit=1&offset=0", 200],
      ] as const) {
        const response = await strict.get(`/v1/accounts?end_user_id=${person}&${query}`, "v2");
        expect(response.status, query).toBe(status);
      }
    });
  });
});
