// The shared JSON pointer / $ref module (@cdas/spec/openapi) on small documents made for each case.
import { describe, expect, it } from "vitest";
import {
  deref,
  exampleRequest,
  followRef,
  getPointer,
  HTTP_METHODS,
  inlineRefs,
  listOperations,
  operationParameters,
  pointerTokens,
  resolvePointer,
  responseExamples,
  toPointer,
} from "../openapi/index.js";

const doc = {
  paths: {
    "/v1/things/{id}": {
      parameters: [{ $ref: "#/components/parameters/Id" }, { name: "q", in: "query" }],
      get: { parameters: [{ name: "q", in: "query", required: true }] },
      "x-note": { get: "not an operation" },
    },
    "/v1/other": { $ref: "#/components/pathItems/Other" },
  },
  components: {
    parameters: { Id: { name: "id", in: "path" } },
    pathItems: { Other: { post: { operationId: "postOther" } } },
    schemas: {
      A: { $ref: "#/components/schemas/B", description: "from A" },
      B: { type: "string", description: "from B", format: "date" },
      "a/b~c": { type: "integer" },
      Loop: { $ref: "#/components/schemas/Loop2" },
      Loop2: { $ref: "#/components/schemas/Loop" },
      Outer: { properties: { inner: { $ref: "#/components/schemas/A" } } },
    },
  },
};

describe("JSON pointers", () => {
  it("escapes and reads back tokens with / and ~", () => {
    const pointer = toPointer(["components", "schemas", "a/b~c"]);
    expect(pointer).toBe("/components/schemas/a~1b~0c");
    expect(pointerTokens(pointer)).toEqual(["components", "schemas", "a/b~c"]);
    expect(getPointer(doc, `#${pointer}`)).toEqual({ type: "integer" });
  });

  it("percent-decodes the URI fragment form only", () => {
    expect(pointerTokens("#/paths/%7Bid%7D")).toEqual(["paths", "{id}"]);
    expect(pointerTokens("/paths/%7Bid%7D")).toEqual(["paths", "%7Bid%7D"]);
    expect(pointerTokens("#")).toEqual([]);
    expect(() => pointerTokens("components")).toThrow(/not a JSON pointer: components/);
  });

  it("gives undefined for a missing key, and resolvePointer names it", () => {
    expect(getPointer(doc, "/components/schemas/Nope")).toBeUndefined();
    expect(getPointer(doc, "/components/schemas/constructor")).toBeUndefined();
    expect(() => resolvePointer(doc, "#/components/schemas/Nope")).toThrow(
      "dangling reference #/components/schemas/Nope",
    );
  });
});

describe("$refs", () => {
  it("follows a chain to its target and pointer", () => {
    expect(followRef(doc, doc.components.schemas.A, "/components/schemas/A")).toEqual({
      node: doc.components.schemas.B,
      pointer: "/components/schemas/B",
    });
    expect(followRef(doc, { type: "string" }, "/here").pointer).toBe("/here");
  });

  it("lays a reference's siblings over its target", () => {
    expect(deref(doc, doc.components.schemas.A)).toEqual({
      type: "string",
      description: "from A",
      format: "date",
    });
    expect(inlineRefs(doc, doc.components.schemas.Outer)).toEqual({
      properties: { inner: { type: "string", description: "from A", format: "date" } },
    });
  });

  it("refuses cycles, dangling and non-local references", () => {
    expect(() => followRef(doc, doc.components.schemas.Loop)).toThrow(/reference cycle/);
    expect(() => deref(doc, doc.components.schemas.Loop)).toThrow(/reference cycle/);
    expect(() => inlineRefs(doc, doc.components.schemas.Loop)).toThrow(/reference cycle/);
    expect(() => deref(doc, { $ref: "#/nowhere" })).toThrow("dangling reference #/nowhere");
    expect(() => deref(doc, { $ref: "other.yaml#/A" })).toThrow(/only local references/);
  });
});

describe("Operations", () => {
  it("lists operations of every HTTP method, path items dereferenced, extensions skipped", () => {
    expect(HTTP_METHODS).toEqual(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
    expect(listOperations(doc).map(({ path, method }) => `${method} ${path}`)).toEqual([
      "get /v1/things/{id}",
      "post /v1/other",
    ]);
  });

  it("merges path-level parameters, the operation's own winning", () => {
    const first = listOperations(doc)[0];
    expect(operationParameters(doc, first!.pathItem, first!.operation)).toEqual([
      { name: "id", in: "path" },
      { name: "q", in: "query", required: true },
    ]);
  });
});

describe("The request of a response example (exampleRequest)", () => {
  // The plans read's shape: two alternatives, each paired by name with one response example, and a
  // filter paired with both; a required path parameter paired with one example only.
  const plans = {
    parameters: [
      { name: "X-Platform-Version", in: "header", required: true, example: "v3" },
      { name: "id", in: "path", required: true, examples: { other: { value: "x2" }, agl: { value: "x1" } } },
      { name: "retailer_id", in: "query", examples: { agl: { value: "agl" } } },
      { $ref: "#/components/parameters/Institution" },
      {
        name: "status",
        in: "query",
        schema: { default: "active" },
        examples: { agl: { value: "active" }, origin: { value: "all" } },
      },
      { name: "q", in: "query", schema: { example: "from the schema" } },
      { name: "unset", in: "query", schema: { default: "left to the server" } },
      { name: "page[size]", in: "query" },
    ],
    requestBody: {
      content: {
        "application/json": { examples: { first: { value: { a: 1 } }, origin: { value: { a: 2 } } } },
      },
    },
    responses: {
      "200": { $ref: "#/components/responses/Plans" },
      "400": { content: { "application/json": { examples: { bad: { value: {} } } } } },
    },
  };
  const planDoc = {
    components: {
      parameters: {
        Institution: { name: "institution_id", in: "query", examples: { origin: { value: "inst_origin" } } },
      },
      responses: {
        Plans: {
          content: {
            "application/json": {
              examples: {
                agl: {
                  summary: "AGL",
                  value: { plans: [], links: { next: "/plans?page%5Bsize%5D=2&page%5Bafter%5D=c" } },
                },
                origin: { $ref: "#/components/examples/Origin" },
              },
            },
          },
        },
      },
      examples: { Origin: { summary: "Origin, all", value: { plans: [] } } },
    },
  };

  it("lists the 2xx response examples in order, references followed", () => {
    expect(responseExamples(planDoc, plans)).toEqual([
      {
        name: "agl",
        summary: "AGL",
        value: { plans: [], links: { next: "/plans?page%5Bsize%5D=2&page%5Bafter%5D=c" } },
      },
      { name: "origin", summary: "Origin, all", value: { plans: [] } },
    ]);
  });

  it("sends the first example's pair, leaves out the other alternative, takes the page size of its links", () => {
    expect(exampleRequest(planDoc, {}, plans)).toEqual({
      path: { id: "x1" },
      query: { retailer_id: "agl", status: "active", q: "from the schema", "page[size]": 2 },
      headers: { "X-Platform-Version": "v3" },
      body: { a: 1 },
    });
  });

  it("sends the alternative a named example pairs with, and its body", () => {
    expect(exampleRequest(planDoc, {}, plans, "origin")).toEqual({
      path: { id: "x2" },
      query: { institution_id: "inst_origin", status: "all", q: "from the schema" },
      headers: { "X-Platform-Version": "v3" },
      body: { a: 2 },
    });
  });

  it("refuses a name that is no 2xx response example", () => {
    expect(() => exampleRequest(planDoc, {}, plans, "bad")).toThrow(/no 2xx response example bad/);
  });
});
