/**
 * Against the mock server over real HTTPS on loopback: every operation of every version through
 * sdk.client, every list operation through sdk.paginate across several pages. Parameters are read
 * from the bundles; ids come from the sandbox's own data.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockServer, SUPPORTED_VERSIONS, startMockServer } from "@cdas/mock-server";
import { Agent, type Dispatcher, EnvHttpProxyAgent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CdasConnectionError,
  createSdk,
  isCdasApiError,
  type SdkOptions,
  type Version,
} from "../src/index.js";

// Every version the sandbox serves: those of the registry (test/versions.test.ts holds the SDK to it).
const VERSIONS = SUPPORTED_VERSIONS as Version[];
const specDir = join(dirname(fileURLToPath(import.meta.url)), "../../../spec/dist");

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  pagination?: { style: string; items: string };
}

function operationsOf(version: Version): Operation[] {
  const bundle = JSON.parse(readFileSync(join(specDir, `${version}.json`), "utf8"));
  const resolve = (parameter: { $ref?: string } & Parameter): Parameter =>
    parameter.$ref ? bundle.components.parameters[parameter.$ref.split("/").pop() as string] : parameter;
  return Object.entries(bundle.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Record<string, unknown>>)
      .filter(([, operation]) => typeof operation === "object" && operation.operationId)
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId as string,
        parameters: ((operation.parameters ?? []) as Parameter[]).map(resolve),
        pagination: operation["x-cdas-pagination"] as Operation["pagination"],
      })),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: table-driven calls over every path; typing is covered by types.test-d.ts
type LooseClient = { GET: any; POST: any };
// biome-ignore lint/suspicious/noExplicitAny: idem
type LooseSdk = { client: LooseClient; paginate: any };

let sandbox: MockServer;
let dispatcher: Agent;
const ids = { endUsers: [] as string[], bank: "", energy: "", productId: "" };

function sdkFor(
  version: Version,
  extra: Partial<Omit<SdkOptions, "version">> = {},
  server = sandbox,
  agent: Dispatcher = dispatcher,
) {
  return createSdk({
    version,
    baseUrl: server.url,
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    // Node's fetch with undici's Agent trusting the sandbox CA.
    fetch: (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit),
    ...extra,
  }) as unknown as LooseSdk;
}

/** Query values for the required parameters, plus the end user and the institution filters. */
function queryFor(operation: Operation, endUser: string): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const parameter of operation.parameters.filter((p) => p.in === "query")) {
    if (parameter.name === "end_user_id") query.end_user_id = endUser;
    else if (parameter.name === "client_id") query.client_id = sandbox.clientId;
    else if (parameter.name === "institution_id" && operation.path.startsWith("/v1/banking/products"))
      query.institution_id = ids.bank;
    else if (parameter.name === "institution_id" && operation.path === "/v1/energy/plans")
      query.institution_id = ids.energy;
    else if (parameter.required)
      throw new Error(`no value for required ${parameter.name} of ${operation.operationId}`);
  }
  return query;
}

function initFor(operation: Operation, version: Version, endUser: string) {
  const header = operation.parameters.some((p) => p.in === "header" && p.required)
    ? { "X-Platform-Version": version }
    : undefined;
  const path = operation.path.includes("{product_id}") ? { product_id: ids.productId } : undefined;
  return { params: { query: queryFor(operation, endUser), header, path } };
}

beforeAll(async () => {
  sandbox = await startMockServer();
  dispatcher = new Agent({ connect: { ca: sandbox.ca as string } });
  const sdk = sdkFor("v2");
  ids.endUsers = (await sdk.paginate("/v1/end-users").toArray()).map((user: { id: string }) => user.id);
  const institutions = await sdk.paginate("/v1/institutions").toArray();
  ids.bank = institutions.find((i: { industry: string }) => i.industry === "banking").id;
  ids.energy = institutions.find((i: { industry: string }) => i.industry === "energy").id;
  const products = await sdk.paginate("/v1/banking/products", {
    params: { query: { institution_id: ids.bank } },
  });
  ids.productId = (await products.toArray())[0].product_id;
});

afterAll(async () => {
  await sandbox?.close();
  await dispatcher?.close();
});

describe.each(VERSIONS)("version %s against the mock server", (version) => {
  const operations = operationsOf(version);

  it("the sandbox implements every operation of the bundle", () => {
    expect(operations).toHaveLength(25);
    expect(sandbox.unimplementedOperations).toEqual([]);
  });

  it("answers every operation through sdk.client with 2xx", async () => {
    const sdk = sdkFor(version);
    const [endUser] = ids.endUsers;
    const outcomes: Record<string, number> = {};
    for (const operation of operations) {
      const endUserWithData = await endUserFor(sdk, operation, version);
      let result: { data?: unknown; error?: unknown; response: Response };
      if (operation.operationId === "createToken") {
        result = await sdk.client.POST("/v1/token", {
          body: { client_id: sandbox.clientId, client_secret: sandbox.clientSecret },
        });
      } else if (operation.operationId === "createAuthSession") {
        result = await sdk.client.POST("/v1/auth/session", {
          body: {
            end_user_id: endUser,
            institution_id: ids.bank,
            redirect_uri: "https://app.example.com/done",
            cancel_uri: "https://app.example.com/cancel",
          },
        });
      } else {
        result = await sdk.client.GET(operation.path, initFor(operation, version, endUserWithData));
      }
      outcomes[operation.operationId] = result.response.status;
      expect(result.error, `${operation.operationId}: ${JSON.stringify(result.error)}`).toBeUndefined();
      expect(result.data).toBeDefined();
    }
    expect(Object.values(outcomes).every((status) => status >= 200 && status < 300)).toBe(true);
    expect(Object.keys(outcomes)).toHaveLength(operations.length);
  });

  it("walks every list operation through sdk.paginate, paged ones across several pages", async () => {
    const sdk = sdkFor(version);
    const lists = operations.filter((operation) => operation.pagination);
    expect(lists.map((operation) => operation.path).sort()).toEqual(Object.keys(listPaths(sdk)).sort());
    for (const operation of lists) {
      const endUser = await endUserFor(sdk, operation, version);
      const init = initFor(operation, version, endUser);
      const whole = await sdk.paginate(operation.path, init, { pageSize: 1000 }).toArray();
      expect(whole.length, operation.operationId).toBeGreaterThan(0);
      if (operation.pagination?.style === "none") continue;
      // The default seed holds at least two records for every paged list, so each walk spans pages.
      expect(whole.length, operation.operationId).toBeGreaterThan(1);
      const pageSize = Math.max(1, Math.floor(whole.length / 3));
      const pages = [];
      for await (const page of sdk.paginate(operation.path, init, { pageSize }).pages()) pages.push(page);
      expect(pages.length, operation.operationId).toBeGreaterThan(1);
      expect(pages.every((page) => page.items.length <= pageSize)).toBe(true);
      expect(
        pages.flatMap((page) => page.items),
        operation.operationId,
      ).toEqual(whole);
    }
  });
});

/** The sdk's runtime map of list paths (what paginate accepts). */
function listPaths(sdk: LooseSdk): Record<string, unknown> {
  const accepted: Record<string, unknown> = {};
  for (const operation of operationsOf("v1")) {
    try {
      sdk.paginate(operation.path, {});
      accepted[operation.path] = true;
    } catch {}
  }
  return accepted;
}

/** The end user with the most items for a list (the sandbox's data sits with two of its twelve users). */
const endUserCache = new Map<string, string>();
async function endUserFor(sdk: LooseSdk, operation: Operation, version: Version): Promise<string> {
  const first = ids.endUsers[0] as string;
  if (!operation.parameters.some((p) => p.name === "end_user_id")) return first;
  const key = `${version} ${operation.path}`;
  const cached = endUserCache.get(key);
  if (cached) return cached;
  let best = { endUser: first, count: -1 };
  for (const endUser of ids.endUsers) {
    const { data } = await sdk.client.GET(operation.path, initFor(operation, version, endUser));
    const list = operation.pagination?.items ? data?.[operation.pagination.items] : data;
    const count = Array.isArray(list) ? list.length : data ? 0 : -1;
    if (count > best.count) best = { endUser, count };
  }
  endUserCache.set(key, best.endUser);
  return best.endUser;
}

describe("auth against the mock server", () => {
  it("accepts the {token, expires_in} form and renews after the sandbox expires the token", async () => {
    let clock = Date.now();
    const server = await startMockServer({ tokenForm: "token", tokenTtlSeconds: 900, now: () => clock });
    const agent = new Agent({ connect: { ca: server.ca as string } });
    try {
      const sdk = sdkFor("v2", {}, server, agent);
      const first = await sdk.paginate("/v1/end-users").toArray();
      clock += 901_000; // the sandbox expires the token; the SDK still believes it fresh
      const second = await sdk.paginate("/v1/end-users").toArray();
      expect(second).toEqual(first);
    } finally {
      await server.close();
      await agent.close();
    }
  });

  it("turns wrong credentials into a CdasApiError without the secret", async () => {
    const sdk = createSdk({
      version: "v1",
      baseUrl: sandbox.url,
      clientId: sandbox.clientId,
      clientSecret: "sk_wrong_secret_value",
      fetch: (input, init) => fetch(input, { ...init, dispatcher } as RequestInit),
    });
    const failure = await sdk
      .paginate("/v1/end-users")
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect((failure as { status: number }).status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(failure)).not.toContain("sk_wrong_secret_value");
  });

  it("gets a typed 400 for a bad parameter, in the documented error shape", async () => {
    const sdk = sdkFor("v1");
    const failure = await sdk
      .paginate("/v1/institutions", { params: { query: { industry: "water" } } })
      .toArray()
      .catch((e: unknown) => e);
    expect(isCdasApiError(failure)).toBe(true);
    expect(failure).toMatchObject({ status: 400, fault: false });
    expect(typeof (failure as { id: unknown }).id).toBe("string");
  });
});

/**
 * An egress proxy on loopback: it records the target of each tunnel asked for (`CONNECT host:port`)
 * and any request sent to it in clear, and opens the tunnel, or answers `refuseWith` instead.
 */
async function startProxy(refuseWith?: number) {
  const tunnels: string[] = [];
  const inClear: string[] = [];
  const server = createServer((request, response) => {
    inClear.push(`${request.method} ${request.url}`);
    response.writeHead(502).end();
  });
  server.on("connect", (request, client, head) => {
    tunnels.push(request.url ?? "");
    client.on("error", () => client.destroy());
    if (refuseWith !== undefined) return client.end(`HTTP/1.1 ${refuseWith} Refused\r\n\r\n`);
    const target = new URL(`http://${request.url}`);
    const upstream = connect(Number(target.port), target.hostname, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}`, tunnels, inClear, close };
}

describe("behind an egress proxy, as the README's recipe for Node 20 sets it up", () => {
  /** A walk of the end users with Node's fetch sent through a proxy by undici's EnvHttpProxyAgent, trusting the sandbox's CA. */
  async function walkThroughProxy(refuseWith?: number) {
    const proxy = await startProxy(refuseWith);
    const agent = new EnvHttpProxyAgent({ httpsProxy: proxy.url, requestTls: { ca: sandbox.ca as string } });
    try {
      const sdk = sdkFor("v2", { retryBaseDelayMs: 1 }, sandbox, agent);
      const outcome = await sdk
        .paginate("/v1/end-users")
        .toArray()
        .catch((failure: unknown) => failure);
      return { outcome, proxy };
    } finally {
      await agent.close();
      await proxy.close();
    }
  }

  it("sends the token call and every page through a tunnel to the API's origin, nothing in clear", async () => {
    const direct = await sdkFor("v2").paginate("/v1/end-users").toArray();
    const { outcome, proxy } = await walkThroughProxy();
    expect(outcome).toEqual(direct);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(sandbox.url).host]));
    expect(proxy.inClear).toEqual([]);
  });

  it("a proxy that refuses the tunnel: CdasConnectionError naming the proxy's answer", async () => {
    const { outcome, proxy } = await walkThroughProxy(407);
    expect(outcome).toBeInstanceOf(CdasConnectionError);
    expect((outcome as Error).message).toMatch(
      /^POST \/v1\/token failed: Proxy response \(407\) !== 200 when HTTP Tunneling/,
    );
    expect(proxy.tunnels[0]).toBe(new URL(sandbox.url).host);
    expect(JSON.stringify(outcome)).not.toContain(sandbox.clientSecret);
  });
});
