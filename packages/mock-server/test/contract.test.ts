/** Every operation of every version answers with a response its version's bundle documents. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertDocumentedResponse,
  mainEndUsers,
  operationsOf,
  validRequests as requestsFor,
  Sandbox,
  VERSIONS,
} from "./helpers.js";

let sandbox: Sandbox;
let users: Awaited<ReturnType<typeof mainEndUsers>>;

beforeAll(async () => {
  sandbox = await Sandbox.start();
  users = await mainEndUsers(sandbox);
});
afterAll(() => sandbox.close());

const validRequests = (operationId: string, endUser: string) =>
  requestsFor(sandbox.server, operationId, endUser);

/** Counts the records in a success body, wherever the list sits. */
function recordCount(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  const lists = Object.values(body as Record<string, unknown>).filter(Array.isArray) as unknown[][];
  return lists.length > 0 ? lists.reduce((n, l) => n + l.length, 0) : 1;
}

describe.each(VERSIONS)("every operation of %s", (version) => {
  it("is implemented by the sandbox", () => {
    expect(sandbox.server.unimplementedOperations).toEqual([]);
  });

  for (const op of operationsOf(version)) {
    it(`${op.operationId}: success responses validate against the bundle and carry data`, async () => {
      for (const endUser of [users.person, users.organisation]) {
        for (const call of validRequests(op.operationId, endUser)) {
          expect(call.method ?? "GET").toBe(op.method);
          const response = await sandbox.call(op.method, call.path, {
            version,
            body: call.body,
            token: call.token,
          });
          expect(response.status, `${call.path}: ${response.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
          expect(response.status).toBeLessThan(300);
          assertDocumentedResponse(version, op.method, op.path, response);
          expect(recordCount(response.body), `${op.operationId} returned no records`).toBeGreaterThan(0);
        }
      }
    });

    it(`${op.operationId}: a request with an unknown parameter gets a documented 400 naming it`, async () => {
      const [call] = validRequests(op.operationId, users.person);
      const separator = call!.path.includes("?") ? "&" : "?";
      const response = await sandbox.call(op.method, `${call!.path}${separator}not_a_parameter=1`, {
        version,
        body: call!.body,
        token: call!.token,
      });
      expect(response.status).toBe(400);
      assertDocumentedResponse(version, op.method, op.path, response);
      expect((response.body as { message: string }).message).toContain("not_a_parameter");
    });

    const security = op.operation.security as object[] | undefined;
    const secured =
      security === undefined || (security.length > 0 && security.every((r) => Object.keys(r).length > 0));
    if (secured) {
      it(`${op.operationId}: without a bearer token the answer is a documented 401`, async () => {
        const [call] = validRequests(op.operationId, users.person);
        const response = await sandbox.call(op.method, call!.path, {
          version,
          body: call!.body,
          token: null,
        });
        expect(response.status).toBe(401);
        assertDocumentedResponse(version, op.method, op.path, response);
      });
    }
  }
});

// The interface gives the summary products read as "Product (envelope: not shown)" and puts every
// summary list under `data`: the documents declare both forms, and the sandbox serves either.
describe.each(["bare", "data"] as const)("GET /v1/products in the %s form", (productForm) => {
  it.each(VERSIONS)("%s: a documented answer of that form", async (version) => {
    await Sandbox.using({ productForm }, async (formed) => {
      const { person } = await mainEndUsers(formed);
      const response = await formed.get(
        `/v1/products?end_user_id=${person}&account_id=acc_cba_9902`,
        version,
      );
      expect(response.status).toBe(200);
      assertDocumentedResponse(version, "GET", "/v1/products", response);
      const body = response.body as { id?: string; data?: { id?: string }[] };
      const product = productForm === "data" ? body.data?.[0] : body;
      expect(product?.id).toBe("prd_cba_svr_home_loan");
      if (productForm === "data") expect(Object.keys(body)).toEqual(["data"]);
    });
  });
});
