// Every query parameter an operation declares is read by its handler (src/handlers.ts), but for the
// paging parameters, which replies.ts reads for every list: a declared filter the handler ignored would
// be accepted, checked against its schema, and then do nothing, and no answer would show it.
import { readRegistry } from "@cdas/spec/registry";
import { describe, expect, it } from "vitest";
import { bundleFolder, indexBundle, type OperationInfo, type ParameterInfo } from "../src/bundle.js";
import { generateDataSet } from "../src/data/generate.js";
import { handlers, SandboxState } from "../src/handlers.js";
import { TokenStore } from "../src/tokens.js";
import { loadBundle, TODAY, VERSIONS } from "./helpers.js";

const PAGING = new Set(["limit", "offset", "page[size]", "page[after]", "page[before]"]);
const registry = readRegistry(bundleFolder());
const data = generateDataSet({ seed: 1, referenceDate: TODAY });
const state = new SandboxState(
  data,
  TODAY,
  "cli_test",
  { token: "access_token", product: "bare" },
  new TokenStore([], 3600, Date.now, 1),
  Date.now,
  1,
);
const endUser = data.endUsers[0]!.id;

type Json = Record<string, unknown>;

/** The first example the bundle gives a parameter of an operation (ids the sandbox serves). */
function documentedExample(version: string, path: string, method: string, name: string): unknown {
  const bundle = loadBundle(version);
  const operation = ((bundle.paths as Json)[path] as Json)[method.toLowerCase()] as Json;
  const resolve = (node: unknown): Json => {
    const ref = (node as Json).$ref;
    if (typeof ref !== "string") return node as Json;
    return resolve(
      ref
        .slice(2)
        .split("/")
        .reduce<unknown>((at, key) => (at as Json)[key], bundle),
    );
  };
  const parameter = ((operation.parameters ?? []) as unknown[]).map(resolve).find((p) => p.name === name);
  if (parameter?.example !== undefined) return parameter.example;
  return (Object.values((parameter?.examples ?? {}) as Json)[0] as Json | undefined)?.value;
}

/** A value the handler takes past its first checks: a known end user and client, the documents' example, else one of the schema's. */
function valueFor(version: string, op: OperationInfo, parameter: ParameterInfo): unknown {
  if (parameter.name === "end_user_id") return endUser;
  if (parameter.name === "client_id") return state.clientId;
  const example = documentedExample(version, op.path, op.method, parameter.name);
  if (example !== undefined) return example;
  const { schema } = parameter;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.format === "date") return "2026-01-01";
  if (schema.type === "integer" || schema.type === "number") return 1;
  if (schema.type === "boolean") return true;
  return "x";
}

describe.each(VERSIONS)("%s", (version) => {
  const { operations } = indexBundle(version, loadBundle(version), registry.lineage(version));
  const filters = (parameters: ParameterInfo[]) =>
    parameters.filter((p) => p.in === "query" && !PAGING.has(p.name));
  const filtered = operations.filter((op) => filters(op.parameters).length > 0);

  it("has operations with filters to check", () => {
    expect(filtered.length).toBeGreaterThan(5);
  });

  it.each(filtered.map((op) => [op.operationId, op] as const))(
    "%s reads every query parameter it declares",
    (_operationId, op) => {
      const read = new Set<string>();
      const queryParameters = op.parameters.filter((p) => p.in === "query");
      const params = Object.fromEntries(
        op.parameters.filter((p) => p.in === "path").map((p) => [p.name, valueFor(version, op, p)]),
      );
      // Every parameter at once, then each one left out: parameters that exclude each other (energy
      // plans' retailer_id and institution_id) are refused together, and read one at a time.
      for (const leftOut of [undefined, ...queryParameters]) {
        const values = Object.fromEntries(
          queryParameters.filter((p) => p !== leftOut).map((p) => [p.name, valueFor(version, op, p)]),
        );
        const query = new Proxy(values, {
          get(target, key) {
            if (typeof key === "string") read.add(key);
            return Reflect.get(target, key);
          },
        });
        try {
          handlers[op.operationId]!({ op, query, params, body: undefined, scopes: new Set(), state });
        } catch {
          // A refusal after its reads still counts them.
        }
      }
      expect(
        filters(op.parameters)
          .map((p) => p.name)
          .filter((name) => !read.has(name)),
      ).toEqual([]);
    },
  );
});
