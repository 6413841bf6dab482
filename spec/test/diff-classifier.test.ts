// The change classifier on small OpenAPI 3.1 documents: the cases api-smart-diff alone gets wrong
// (3.1 type arrays, response direction, additionalProperties) and those it gets right (oneOf, allOf).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffDocuments } from "../scripts/lib/spec-diff.mjs";

type Schema = Record<string, unknown>;
type Change = { class: string; action: string; pointer: string; operations: string[]; reason: string };

const BODY = "/paths/~1things/post/requestBody/content/application~1json/schema";
const RESPONSE = "/paths/~1things/post/responses/200/content/application~1json/schema";

/** One POST operation whose request body and 200 response use the given inline schemas. */
function api({ request, response, schemas = {} }: { request?: Schema; response?: Schema; schemas?: Schema }) {
  const operation: Schema = {
    operationId: "createThing",
    responses: {
      "200": {
        description: "ok",
        content: { "application/json": { schema: response ?? { type: "object" } } },
      },
    },
  };
  if (request) operation.requestBody = { content: { "application/json": { schema: request } } };
  return {
    openapi: "3.1.0",
    info: { title: "fixture", version: "1" },
    paths: { "/things": { post: operation } },
    components: { schemas },
  };
}

const field = (schema: Schema): Schema => ({ type: "object", properties: { value: schema } });

function changes(before: object, after: object): Change[] {
  return diffDocuments(before, after).changes as Change[];
}

/** The single change at `pointer`; fails when there is none. */
function changeAt(list: Change[], pointer: string): Change {
  const found = list.filter((c) => c.pointer === pointer);
  expect(
    found.map((c) => c.pointer),
    `changes: ${list.map((c) => c.pointer).join(", ")}`,
  ).toEqual([pointer]);
  return found[0]!;
}

describe("3.1 type arrays", () => {
  const typeCase = (where: "request" | "response", from: unknown, to: unknown) => {
    const before = api({ [where]: field({ type: from }) });
    const after = api({ [where]: field({ type: to }) });
    const base = where === "request" ? BODY : RESPONSE;
    return changes(before, after).filter((c) => c.pointer.startsWith(`${base}/properties/value/type`));
  };

  it("a response that may now be null breaks readers", () => {
    const [change] = typeCase("response", "string", ["string", "null"]);
    expect(change).toMatchObject({ class: "breaking" });
    expect(change!.reason).toContain("null");
  });

  it("a response that can no longer be null is non-breaking", () => {
    expect(typeCase("response", ["string", "null"], "string")[0]).toMatchObject({ class: "non-breaking" });
  });

  it("a request that no longer accepts null breaks callers; one that starts to is non-breaking", () => {
    expect(typeCase("request", ["string", "null"], "string")[0]).toMatchObject({ class: "breaking" });
    expect(typeCase("request", "string", ["string", "null"])[0]).toMatchObject({ class: "non-breaking" });
  });

  it("number to string inside a type array breaks readers of the response", () => {
    const found = typeCase("response", ["number", "null"], ["string", "null"]);
    expect(found.length).toBeGreaterThan(0);
    for (const change of found) expect(change.class).toBe("breaking");
  });

  it("number to string breaks readers and callers; integer to number only breaks readers", () => {
    expect(typeCase("response", "number", "string")[0]).toMatchObject({ class: "breaking" });
    expect(typeCase("request", "number", "string")[0]).toMatchObject({ class: "breaking" });
    expect(typeCase("response", "integer", "number")[0]).toMatchObject({ class: "breaking" });
    expect(typeCase("request", "integer", "number")[0]).toMatchObject({ class: "non-breaking" });
  });
});

describe("fields, parameters and direction", () => {
  it("a field removed from a response breaks readers; the reverse direction only adds it", () => {
    const wide = api({
      response: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } },
    });
    const narrow = api({ response: { type: "object", properties: { a: { type: "string" } } } });
    expect(changeAt(changes(wide, narrow), `${RESPONSE}/properties/b`)).toMatchObject({
      class: "breaking",
      action: "remove",
      operations: ["POST /things"],
    });
    expect(changeAt(changes(narrow, wide), `${RESPONSE}/properties/b`)).toMatchObject({
      class: "non-breaking",
      action: "add",
    });
  });

  it("a new required request parameter breaks callers; a new optional one does not", () => {
    const withParameters = (parameters: Schema[]) => {
      const doc = api({});
      (doc.paths["/things"].post as Schema).parameters = parameters;
      return doc;
    };
    const before = withParameters([{ name: "a", in: "query", schema: { type: "string" } }]);
    const after = withParameters([
      { name: "a", in: "query", schema: { type: "string" } },
      { name: "institution_id", in: "query", required: true, schema: { type: "string" } },
      { name: "page[size]", in: "query", required: false, schema: { type: "integer" } },
    ]);
    const list = changes(before, after);
    expect(changeAt(list, "/paths/~1things/post/parameters/1")).toMatchObject({
      class: "breaking",
      action: "add",
    });
    expect(changeAt(list, "/paths/~1things/post/parameters/2")).toMatchObject({
      class: "non-breaking",
      action: "add",
    });
  });

  it("a new required request property breaks callers", () => {
    const before = api({ request: { type: "object", properties: { a: { type: "string" } } } });
    const after = api({
      request: {
        type: "object",
        required: ["b"],
        properties: { a: { type: "string" }, b: { type: "string" } },
      },
    });
    expect(changeAt(changes(before, after), `${BODY}/required/0`)).toMatchObject({ class: "breaking" });
  });

  it("enum values: new values break readers, removed values break callers, dropping the enum breaks readers", () => {
    const values = (list?: string[]) => field(list ? { type: "string", enum: list } : { type: "string" });
    const added = changes(api({ response: values(["A"]) }), api({ response: values(["A", "B"]) }));
    expect(added.find((c) => c.pointer.includes("/enum"))).toMatchObject({ class: "breaking" });
    const removed = changes(api({ request: values(["A", "B"]) }), api({ request: values(["A"]) }));
    expect(removed.find((c) => c.pointer.includes("/enum"))).toMatchObject({ class: "breaking" });
    const loosened = changes(api({ response: values(["A"]) }), api({ response: values() }));
    expect(loosened.find((c) => c.pointer.includes("/enum"))).toMatchObject({ class: "breaking" });
    const loosenedRequest = changes(api({ request: values(["A"]) }), api({ request: values() }));
    expect(loosenedRequest.find((c) => c.pointer.includes("/enum"))).toMatchObject({ class: "non-breaking" });
  });
});

describe("required lists in bodies that point at components", () => {
  // The operation's schema is a bare `$ref` (as the error responses are) and the reference changes:
  // the required names are those of the two component schemas, not of the references.
  const withSchemas = (where: "request" | "response", name: string, schemas: Schema) =>
    api({ [where]: { $ref: `#/components/schemas/${name}` }, schemas });
  const extended = {
    type: "object",
    required: ["id", "message", "fault"],
    properties: { id: { type: "string" }, message: { type: "string" }, fault: { type: "boolean" } },
  };
  const short = { type: "object", required: ["id", "message"], properties: extended.properties };
  const pointer = (base: string) => `${base}/required/2`;

  it.each([
    [
      "removed from a response breaks readers, and the reason says so",
      "response",
      [extended, short],
      { class: "breaking", action: "remove", reason: "readers can no longer rely on fault being present" },
    ],
    [
      "added to a response is non-breaking",
      "response",
      [short, extended],
      {
        class: "non-breaking",
        action: "add",
        reason: expect.stringContaining("more response fields are always present"),
      },
    ],
    [
      "added to a request breaks callers",
      "request",
      [short, extended],
      { class: "breaking", reason: "callers must now send fault" },
    ],
    [
      "removed from a request does not",
      "request",
      [extended, short],
      { class: "non-breaking", reason: expect.stringContaining("fewer request fields are required") },
    ],
  ] as const)("a required field %s", (_, where, [from, to], expected) => {
    const list = changes(
      withSchemas(where, "Before", { Before: from }),
      withSchemas(where, "After", { After: to }),
    );
    expect(changeAt(list, pointer(where === "response" ? RESPONSE : BODY))).toMatchObject(expected);
  });
});

describe("whole components that restate the operations' own changes", () => {
  const error = (properties: string[]) => ({
    description: "error",
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: Object.fromEntries(properties.map((p) => [p, { type: "string" }])),
        },
      },
    },
  });
  const withError = (name: string, response: Schema) => {
    const doc = api({}) as ReturnType<typeof api> & { components: Schema };
    (doc.paths["/things"].post.responses as Schema)["400"] = { $ref: `#/components/responses/${name}` };
    doc.components.responses = { [name]: response };
    return doc;
  };

  it("a response component removed whose fields' removal is reported on the operation is not counted again", () => {
    const report = diffDocuments(
      withError("BadRequestExtended", error(["id", "fault"])),
      withError("BadRequestShort", error(["id"])),
    );
    const list = report.changes as Change[];
    const field = changeAt(
      list,
      "/paths/~1things/post/responses/400/content/application~1json/schema/properties/fault",
    );
    expect(field).toMatchObject({ class: "breaking", action: "remove" });
    expect(changeAt(list, "/components/responses/BadRequestExtended")).toMatchObject({
      class: "annotation",
      action: "remove",
      operations: ["POST /things"],
    });
    expect(changeAt(list, "/components/responses/BadRequestShort")).toMatchObject({ class: "annotation" });
    expect(report.counts.breaking).toBe(1);
  });

  it("a component renamed with the same content keeps its class: its name is the change", () => {
    const list = changes(withError("BadRequestA", error(["id"])), withError("BadRequestB", error(["id"])));
    expect(changeAt(list, "/components/responses/BadRequestA")).toMatchObject({ class: "breaking" });
  });
});

describe("oneOf", () => {
  const oneOf = (...types: string[]) => ({ oneOf: types.map((type) => ({ type })) });

  it("a new alternative breaks readers of a response, not callers of a request", () => {
    const response = changes(
      api({ response: oneOf("string") }),
      api({ response: oneOf("string", "integer") }),
    );
    expect(changeAt(response, `${RESPONSE}/oneOf/1`)).toMatchObject({ class: "breaking", action: "add" });
    const request = changes(api({ request: oneOf("string") }), api({ request: oneOf("string", "integer") }));
    expect(changeAt(request, `${BODY}/oneOf/1`)).toMatchObject({ class: "non-breaking", action: "add" });
  });

  it("a removed alternative breaks callers of a request, not readers of a response", () => {
    const request = changes(api({ request: oneOf("string", "integer") }), api({ request: oneOf("string") }));
    expect(changeAt(request, `${BODY}/oneOf/1`)).toMatchObject({ class: "breaking", action: "remove" });
    const response = changes(
      api({ response: oneOf("string", "integer") }),
      api({ response: oneOf("string") }),
    );
    expect(changeAt(response, `${RESPONSE}/oneOf/1`)).toMatchObject({ class: "non-breaking" });
  });
});

describe("allOf compositions", () => {
  const composed = (extra: Schema) => ({
    Base: { type: "object", properties: { name: { type: "string" } } },
    Rate: { allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", properties: extra }] },
  });
  const rateApi = (extra: Schema) => {
    const doc = api({ response: { $ref: "#/components/schemas/Rate" }, schemas: composed(extra) });
    doc.paths["/things"] = {
      ...doc.paths["/things"],
      get: { responses: doc.paths["/things"].post.responses },
    } as never;
    return doc;
  };

  it("a change inside an allOf member of a shared component is reported once, with every operation", () => {
    const list = changes(
      rateApi({ minimum_value: { type: "number" } }),
      rateApi({ minimum_value: { type: "string" } }),
    );
    const change = changeAt(list, "/components/schemas/Rate/allOf/1/properties/minimum_value/type");
    expect(change).toMatchObject({ class: "breaking", action: "replace" });
    expect(change.operations).toEqual(["GET /things", "POST /things"]);
  });

  it("a field removed through an allOf member breaks readers", () => {
    const list = changes(
      rateApi({ rate: { type: "string" }, tiers: { type: "array" } }),
      rateApi({ rate: { type: "string" } }),
    );
    expect(changeAt(list, "/components/schemas/Rate/allOf/1/properties/tiers")).toMatchObject({
      class: "breaking",
      action: "remove",
    });
  });

  it("inline allOf members (merged by the library) keep their real pointer", () => {
    const member = (properties: Schema) => ({
      allOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties },
      ],
    });
    const list = changes(
      api({ response: member({ b: { type: "string" } }) }),
      api({ response: member({ c: { type: "string" } }) }),
    );
    expect(changeAt(list, `${RESPONSE}/allOf/1/properties/b`)).toMatchObject({ class: "breaking" });
    expect(changeAt(list, `${RESPONSE}/allOf/1/properties/c`)).toMatchObject({ class: "non-breaking" });
  });
});

describe("additionalProperties", () => {
  const object = (additional?: unknown) =>
    additional === undefined
      ? { type: "object", properties: { a: { type: "string" } } }
      : { type: "object", properties: { a: { type: "string" } }, additionalProperties: additional };

  it("closing a request body breaks callers that send extra fields", () => {
    const list = changes(api({ request: object(true) }), api({ request: object(false) }));
    expect(changeAt(list, `${BODY}/additionalProperties`)).toMatchObject({ class: "breaking" });
  });

  it("opening a request body is non-breaking", () => {
    const list = changes(api({ request: object(false) }), api({ request: object(true) }));
    expect(changeAt(list, `${BODY}/additionalProperties`)).toMatchObject({ class: "non-breaking" });
  });

  it("extra response fields (closed, opened or typed) do not break readers", () => {
    for (const [from, to] of [
      [true, false],
      [false, true],
      [undefined, { type: "string" }],
    ]) {
      const list = changes(api({ response: object(from) }), api({ response: object(to) }));
      expect(changeAt(list, `${RESPONSE}/additionalProperties`)).toMatchObject({ class: "non-breaking" });
    }
  });
});

describe("fixture pair (test/fixtures/diff)", () => {
  const read = (name: string) =>
    JSON.parse(readFileSync(path.join(import.meta.dirname, "fixtures", "diff", name), "utf8"));
  const report = diffDocuments(read("before.json"), read("after.json"), { from: "before", to: "after" });
  const list = report.changes as Change[];

  it("reports the version pin once, as a document annotation, not per operation", () => {
    const pin = list.filter((c) => c.pointer.includes("X-Platform-Version"));
    expect(pin).toHaveLength(1);
    expect(pin[0]).toMatchObject({ class: "annotation", operations: [] });
    expect(list.some((c) => c.pointer.includes("/components/parameters/PlatformVersion"))).toBe(false);
  });

  it("a bare array becoming an envelope breaks readers", () => {
    const base = "/paths/~1v1~1consent/get/responses/200/content/application~1json/schema";
    expect(changeAt(list, `${base}/type`)).toMatchObject({ class: "breaking", action: "replace" });
    expect(changeAt(list, `${base}/properties/consents`)).toMatchObject({ class: "non-breaking" });
  });

  it("an error body that loses fields breaks readers even though the reference changed", () => {
    const change = changeAt(
      list,
      "/paths/~1v1~1consent/get/responses/400/content/application~1json/schema/properties/fault",
    );
    expect(change).toMatchObject({ class: "breaking", operations: ["GET /v1/consent"] });
  });

  it("counts add up and every change has a class, operations and a reason", () => {
    const { counts } = report;
    expect(counts.breaking + counts["non-breaking"] + counts.annotation).toBe(counts.total);
    expect(counts.total).toBe(list.length);
    for (const change of list) {
      expect(["breaking", "non-breaking", "annotation"]).toContain(change.class);
      expect(change.reason.length).toBeGreaterThan(0);
    }
  });
});
