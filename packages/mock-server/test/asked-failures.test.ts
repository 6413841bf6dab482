/**
 * `Prefer: code=<status>` (Prism's convention): a valid request answered with an error status its
 * operation documents, in the documented form, so that a caller's handling of it can be tried.
 */
import { deref } from "@cdas/spec/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertDocumentedResponse,
  loadBundle,
  mainEndUsers,
  operationsOf,
  Sandbox,
  VERSIONS,
  validRequests,
} from "./helpers.js";

let sandbox: Sandbox;
let person: string;

beforeAll(async () => {
  sandbox = await Sandbox.start();
  person = (await mainEndUsers(sandbox)).person;
});
afterAll(() => sandbox.close());

const ask = (method: string, path: string, prefer: string, version = "v2", body?: unknown) =>
  sandbox.call(method, path, { version, headers: { prefer: prefer }, body });

describe("Prefer: code=<status> asks for a documented failure", () => {
  it("answers the status in the operation's documented form (a 500 of the end-user list)", async () => {
    for (const version of VERSIONS) {
      const response = await ask("GET", "/v1/end-users", "code=500", version);
      expect(response.status, version).toBe(500);
      assertDocumentedResponse(version, "GET", "/v1/end-users", response);
      expect(response.body).toMatchObject({
        name: "fault",
        message: "the failure asked for with Prefer: code=500",
      });
    }
  });

  it("takes a status documented as a class (the token call's 4XX) and any 401, the signal to renew", async () => {
    const { clientId, clientSecret } = sandbox.server;
    const token = await sandbox.call("POST", "/v1/token", {
      token: null,
      headers: { prefer: "code=429" },
      body: { client_id: clientId, client_secret: clientSecret },
    });
    expect(token.status).toBe(429);
    assertDocumentedResponse("v2", "POST", "/v1/token", token);
    const accounts = await ask("GET", `/v1/accounts?end_user_id=${person}`, 'respond-async, code="401"');
    expect(accounts.status).toBe(401);
    expect(accounts.body).toMatchObject({ name: "unauthorized" });
  });

  it("refuses a status the operation does not document, naming the header and what it documents", async () => {
    const response = await ask("GET", `/v1/accounts?end_user_id=${person}`, "code=503");
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toBe(
      'header Prefer asks for code="503", which GET /v1/accounts does not document; it documents 400, 401 (and its success)',
    );
    const unreadable = await ask("GET", `/v1/accounts?end_user_id=${person}`, "code=soon");
    expect(unreadable.status).toBe(400);
    expect(unreadable.text).toContain('header Prefer asks for code=\\"soon\\"');
  });

  it("answers as usual without a code, with a success code, and checks the request first", async () => {
    for (const prefer of ["return=minimal", "code=200"]) {
      const response = await ask("GET", `/v1/accounts?end_user_id=${person}`, prefer);
      expect(response.status, prefer).toBe(200);
    }
    const invalid = await ask("GET", "/v1/accounts", "code=500");
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain("end_user_id");
  });
});

type Json = Record<string, unknown>;

/**
 * Each error example of the documents has the fields of the body the sandbox answers with that
 * status on that operation (asked for with Prefer), so that the reference shows the shape a caller
 * meets: the extended shape where the sandbox answers it, the short one where it does.
 */
describe.each(VERSIONS)("%s: an error example has the fields of the sandbox's answer", (version) => {
  const bundle = loadBundle(version);
  const cases = operationsOf(version).flatMap((op) =>
    Object.entries(op.operation.responses as Json)
      .filter(([status]) => !status.startsWith("2"))
      .flatMap(([status, response]) => {
        const content = (deref<Json>(bundle, response).content ?? {}) as Record<string, Json>;
        return Object.values(content).flatMap((media) =>
          Object.entries((media.examples ?? {}) as Json).map(([name, raw]) => {
            const example = deref<Json>(bundle, raw);
            // A class (4XX) or the default is asked for as the status its example's summary names
            // ("(401)"), else as the class's first.
            const named = /\((\d{3})\)/.exec(String(example.summary ?? ""))?.[1];
            const first = status === "default" ? "400" : `${status[0]}00`;
            return {
              op,
              code: /^\d{3}$/.test(status) ? status : (named ?? first),
              where: `${op.operationId} ${status} ${name}`,
              value: example.value as Json,
            };
          }),
        );
      }),
  );
  it("finds error examples", () => {
    expect(cases.length).toBeGreaterThan(20);
  });
  it.each(cases)("$where", async ({ op, code, value }) => {
    const [call] = validRequests(sandbox.server, op.operationId, person);
    expect(call, `a valid request of ${op.operationId} (helpers.ts validRequests)`).toBeDefined();
    const response = await sandbox.call(call!.method ?? "GET", call!.path, {
      version,
      token: call!.token,
      body: call!.body,
      headers: { prefer: `code=${code}` },
    });
    expect(response.status).toBe(Number(code));
    expect(Object.keys(value).sort()).toEqual(Object.keys(response.body as Json).sort());
  });
});
