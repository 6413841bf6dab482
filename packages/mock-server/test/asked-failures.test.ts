/**
 * `Prefer: code=<status>` (Prism's convention): a valid request answered with an error status its
 * operation documents, in the documented form, so that a caller's handling of it can be tried.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertDocumentedResponse, mainEndUsers, Sandbox } from "./helpers.js";

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
    for (const version of ["v1", "v2", "v3"]) {
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
