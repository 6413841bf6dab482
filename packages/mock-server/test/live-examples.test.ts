/**
 * Live examples: the documented request of each 2xx response example of each operation
 * (`exampleRequest` of @cdas/spec/openapi: its parameters' and body's examples, with the ids and the
 * team credentials the documents use; the request the reference's code samples show) gets a 2xx
 * from the sandbox's default seed, and so does every address in the `links` of every 2xx response
 * example (the cursors in them must be ones the sandbox issues).
 */
import { exampleRequest, responseExamples } from "@cdas/spec/openapi";
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

describe.each(VERSIONS)("%s: documented example requests", (version) => {
  const bundle = loadBundle(version);
  for (const op of operationsOf(version)) {
    const pathItem = (bundle.paths as Json)[op.path] as Json;
    // One request per 2xx response example (`exampleRequest`, the request the reference's code
    // samples show for its first), or the operation's one request when it shows none.
    const names = responseExamples(bundle, op.operation).map((example) => example.name);
    it(`${op.operationId} answers the request of each response example with a 2xx`, async () => {
      for (const name of names.length > 0 ? names : [undefined]) {
        const request = exampleRequest(bundle, pathItem, op.operation, name);
        const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) =>
          encodeURIComponent(String(request.path[n])),
        );
        expect(path).not.toContain("{");
        const query = Object.entries(request.query).map(([n, value]): [string, string] => [n, String(value)]);
        const search = query.length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([n, value]) => [n.toLowerCase(), String(value)]),
        );
        const response = await sandbox.call(op.method, `${path}${search}`, {
          version,
          body: request.body,
          headers,
          token: op.operationId === "createToken" ? null : undefined,
        });
        const what = `${name ?? "example"}: ${op.method} ${path}${search}`;
        expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBeLessThan(300);
        expect(response.status, what).toBeGreaterThanOrEqual(200);
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
