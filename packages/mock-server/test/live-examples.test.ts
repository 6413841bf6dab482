/**
 * Live examples: each operation's documented example request (its parameters' and body's
 * examples, with the ids and the team credentials the documents use) gets a 2xx from the sandbox's
 * default seed, and so does every address in the `links` of every 2xx response example (the
 * cursors in them must be ones the sandbox issues).
 */
import { deref } from "@cdas/spec/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertDocumentedResponse,
  forEachEntry,
  loadBundle,
  type Operation,
  operationsOf,
  Sandbox,
  successExamples,
  VERSIONS,
} from "./helpers.js";

type Json = Record<string, unknown>;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start();
});
afterAll(() => sandbox.close());

/** The example of a parameter or media type: `example`, else the first of `examples`. */
function exampleOf(bundle: Json, node: Json): unknown {
  if (node.example !== undefined) return node.example;
  const examples = node.examples as Json | undefined;
  const first = examples && Object.values(examples)[0];
  if (first !== undefined) return deref<{ value?: unknown }>(bundle, first).value;
  const schema: Json | undefined = node.schema ? deref<Json>(bundle, node.schema) : undefined;
  return schema?.example ?? (schema?.examples as unknown[] | undefined)?.[0];
}

/**
 * The documented alternatives that cannot be sent together: the plans read takes exactly one of
 * `retailer_id` and `institution_id` (its description says so), and both have an example.
 */
const ALTERNATIVES: Record<string, string[][]> = { listEnergyPlans: [["retailer_id"], ["institution_id"]] };

describe.each(VERSIONS)("%s: documented example requests", (version) => {
  const bundle = loadBundle(version);
  for (const op of operationsOf(version)) {
    it(`${op.operationId} answers its example request with a 2xx`, async () => {
      const parameters = ((op.operation.parameters as Json[] | undefined) ?? []).map((p) =>
        deref<Json>(bundle, p),
      );
      let path = op.path;
      const query: [string, string][] = [];
      const headers: Record<string, string> = {};
      for (const parameter of parameters) {
        const value = exampleOf(bundle, parameter);
        if (value === undefined) continue;
        const name = parameter.name as string;
        if (parameter.in === "path") path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
        else if (parameter.in === "query") query.push([name, String(value)]);
        else if (parameter.in === "header") headers[name.toLowerCase()] = String(value);
      }
      expect(path).not.toContain("{");
      let body: Json | undefined;
      if (op.operation.requestBody) {
        const requestBody = deref<Json>(bundle, op.operation.requestBody);
        const media = Object.values(requestBody.content as Json)[0] as Json;
        body = exampleOf(bundle, media) as Json;
      }
      const variants = ALTERNATIVES[op.operationId] ?? [[]];
      for (const only of variants) {
        const others = variants.flat().filter((name) => !only.includes(name));
        const sent = query.filter(([name]) => !others.includes(name));
        const search = sent.length > 0 ? `?${new URLSearchParams(sent).toString()}` : "";
        const response = await sandbox.call(op.method, `${path}${search}`, {
          version,
          body,
          headers,
          token: op.operationId === "createToken" ? null : undefined,
        });
        expect(response.status, `${op.method} ${path}${search}: ${response.text.slice(0, 300)}`).toBeLessThan(
          300,
        );
        expect(response.status).toBeGreaterThanOrEqual(200);
        assertDocumentedResponse(version, op.method, op.path, response);
      }
    });
  }
});

/** Every `links.*` address anywhere in a JSON value, each with where it was found. */
function collectLinks(value: unknown, where: string, into: [string, string][]): void {
  forEachEntry(value, (key, item) => {
    if (key !== "links" || !item || typeof item !== "object" || Array.isArray(item)) return;
    for (const [name, address] of Object.entries(item))
      if (typeof address === "string") into.push([`${where} links.${name}`, address]);
  });
}

/** The links of every 2xx response example of a version, with the operation and example they are in. */
function exampleLinks(version: string): { op: Operation; where: string; address: string }[] {
  return successExamples(version).flatMap(({ op, where, value }) => {
    const found: [string, string][] = [];
    collectLinks(value, where, found);
    return found.map(([at, address]) => ({ op, where: at, address }));
  });
}

describe.each(VERSIONS)("%s: links of the response examples", (version) => {
  const links = exampleLinks(version);
  it("finds links in the examples", () => {
    expect(links.length).toBeGreaterThan(5);
  });
  for (const { op, where, address } of links) {
    it(`${where} (${address}) gets a 2xx from the sandbox`, async () => {
      // Addresses may be absolute or relative; the sandbox is asked for the path and query.
      const url = new URL(address, "https://sandbox.invalid");
      const response = await sandbox.call("GET", `${url.pathname}${url.search}`, { version });
      expect(response.status, `${address}: ${response.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(response.status, `${address}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
      assertDocumentedResponse(version, "GET", op.path, response);
    });
  }
});
