/** Every operation of every version answers with a response its version's bundle documents. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertDocumentedResponse, mainEndUsers, operationsOf, Sandbox, VERSIONS } from "./helpers.js";

let sandbox: Sandbox;
let users: Awaited<ReturnType<typeof mainEndUsers>>;

beforeAll(async () => {
  sandbox = await Sandbox.start();
  users = await mainEndUsers(sandbox);
});
afterAll(() => sandbox.close());

type Call = { method?: string; path: string; body?: unknown; token?: null };

/** A valid request for each operation, for a given end user. */
function validRequests(operationId: string, endUser: string): Call[] {
  const server = sandbox.server;
  const byUser = (path: string) => [{ path: `${path}?end_user_id=${endUser}` }];
  switch (operationId) {
    case "createToken":
      return [{ method: "POST", path: "/v1/token", token: null, body: { client_id: server.clientId, client_secret: server.clientSecret } }];
    case "createAuthSession":
      return [
        {
          method: "POST",
          path: "/v1/auth/session",
          body: { end_user_id: endUser, institution_id: "inst_westpac", redirect_uri: "https://app.example.com.au/done", cancel_uri: "https://app.example.com.au/cancel" },
        },
      ];
    case "listInstitutions":
      return [
        { path: `/v1/institutions?client_id=${server.clientId}` },
        { path: `/v1/institutions?client_id=${server.clientId}&industry=energy&institution_mode=recommended`, token: null },
      ];
    case "listAccounts":
      return [{ path: `/v1/accounts?end_user_id=${endUser}&limit=3&offset=1` }];
    case "listTransactions":
      return [{ path: `/v1/transactions?end_user_id=${endUser}&from_date=2024-01-01&limit=50` }];
    case "listServicePoints":
      return byUser("/v1/service-points");
    case "listConcessions":
      return byUser("/v1/concessions");
    case "listIdentities":
      return byUser("/v1/identity");
    case "listIncome":
      return byUser("/v1/income");
    case "listScheduledPayments":
      return byUser("/v1/scheduled-payments");
    case "listPayees":
      return byUser("/v1/payees");
    case "listProducts":
      return byUser("/v1/products");
    case "listEnergyBalances":
      return byUser("/v1/energy-balances");
    case "listBankingAccounts":
      return [{ path: `/v1/banking/accounts?end_user_id=${endUser}&page%5Bsize%5D=1000` }];
    case "listDirectDebits":
      return byUser("/v1/banking/acccounts/direct-debits");
    case "listBankingScheduledPayments":
      return byUser("/v1/banking/payments/scheduled");
    case "listBankingProducts":
      return [{ path: "/v1/banking/products?institution_id=inst_cba&page%5Bsize%5D=1000" }, { path: "/v1/banking/products" }];
    case "getBankingProduct":
      return ["everyday", "saver", "card", "mortgage", "term"].map((key) => ({ path: `/v1/banking/products/prd_cba_${key}` }));
    case "listBankingTransactions":
      return [{ path: "/v1/banking/transactions" }];
    case "listDerRecords":
      return byUser("/v1/energy/der");
    case "listEnergyAccountBalances":
      return byUser("/v1/energy/balances");
    case "listEnergyPlans":
      return [{ path: "/v1/energy/plans?retailer_id=agl&status=all&page%5Bsize%5D=1000" }, { path: "/v1/energy/plans?institution_id=inst_origin" }];
    case "getCommonIdentity":
      return [{ path: "/v1/common/identity" }];
    case "listConsents":
      return [{ path: "/v1/consent" }];
    case "listEndUsers":
      return [{ path: "/v1/end-users" }];
    default:
      throw new Error(`no valid request written for ${operationId}: add one to contract.test.ts`);
  }
}

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
          const response = await sandbox.call(op.method, call.path, { version, body: call.body, token: call.token });
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
    const secured = security === undefined || (security.length > 0 && security.every((r) => Object.keys(r).length > 0));
    if (secured) {
      it(`${op.operationId}: without a bearer token the answer is a documented 401`, async () => {
        const [call] = validRequests(op.operationId, users.person);
        const response = await sandbox.call(op.method, call!.path, { version, body: call!.body, token: null });
        expect(response.status).toBe(401);
        assertDocumentedResponse(version, op.method, op.path, response);
      });
    }
  }
});
