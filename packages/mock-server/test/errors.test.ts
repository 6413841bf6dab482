/**
 * How errors are answered: the exact media type, the form (media type and shape) of each path's
 * family in the requested version, the order of the checks (credentials first on a known path), and
 * messages that name fields one way and never repeat unbounded input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  assertDocumentedResponse,
  assertErrorOnPath,
  assertShortError,
  Sandbox,
} from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read freely in these assertions
type Json = Record<string, any>;

const EXTENDED_KEYS = ["fault", "id", "message", "name", "temporary", "timeout"];
const SHORT_KEYS = ["id", "message", "name"];
const keysOf = (response: ApiResponse) => Object.keys(response.body as Json).sort();

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await Sandbox.start({ defaultVersion: "v3" });
});
afterAll(() => sandbox.close());

describe("media types", () => {
  it("are sent exactly as the documents declare them, with no charset on JSON", async () => {
    const ok = await sandbox.get("/v1/end-users", "v2");
    expect(ok.status).toBe(200);
    expect(ok.contentType).toBe("application/json");
    const jsonError = await sandbox.get("/v1/accounts", "v2");
    expect(jsonError.status).toBe(400);
    expect(jsonError.contentType).toBe("application/json");
    const goaError = await sandbox.get("/v1/institutions", "v2");
    expect(goaError.status).toBe(400);
    expect(goaError.contentType).toBe("application/vnd.goa.error");
    const unknown = await sandbox.get("/v1/nowhere", "v2");
    expect(unknown.contentType).toBe("application/json");
  });
});

describe("a value of the wrong format", () => {
  it("is named with the way the format is written", async () => {
    const response = await sandbox.get("/v1/transactions?end_user_id=eu_2f9c81d4&from_date=1/4/2026", "v2");
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toBe(
      "parameter from_date must be a valid date, written YYYY-MM-DD",
    );
  });
});

describe("errors on a path take the form of its family in the requested version", () => {
  const clientId = () => sandbox.server.clientId;

  it("the auth session and the institutions list: application/vnd.goa.error, extended", async () => {
    const cases: [string, string, number, string][] = [
      ["GET", "/v1/auth/session", 405, "/v1/auth/session"],
      ["PUT", `/v1/institutions?client_id=${clientId()}`, 405, "/v1/institutions"],
      ["GET", `/v1/institutions/?client_id=${clientId()}`, 404, "/v1/institutions"],
      ["GET", "/v1/institutions/abc", 404, "/v1/institutions"],
      ["GET", "/v1/institutions/%E0%A4%A", 400, "/v1/institutions"],
      ["GET", "/v1/%E0%A4%A/institutions", 400, "/v1/institutions"],
      ["POST", "/v1/auth/session/", 404, "/v1/auth/session"],
    ];
    for (const [method, path, status, family] of cases) {
      const response = await sandbox.call(method, path, { version: "v2" });
      const context = `${method} ${path}`;
      expect(response.status, context).toBe(status);
      expect(response.contentType, context).toBe("application/vnd.goa.error");
      expect(keysOf(response), context).toEqual(EXTENDED_KEYS);
      assertErrorOnPath("v2", family, response);
    }
  });

  it("the consent and end-user lists: extended in v1 and v2, short in v3, the default's for an unknown header", async () => {
    for (const [version, keys] of [
      ["v1", EXTENDED_KEYS],
      ["v2", EXTENDED_KEYS],
      ["v3", SHORT_KEYS],
    ] as const) {
      for (const [method, path, status] of [
        ["DELETE", "/v1/end-users", 405],
        ["GET", "/v1/end-users/", 404],
        ["POST", "/v1/consent", 405],
      ] as const) {
        const response = await sandbox.call(method, path, { version, body: undefined });
        expect(response.status, `${version} ${method} ${path}`).toBe(status);
        expect(response.contentType).toBe("application/json");
        expect(keysOf(response), `${version} ${method} ${path}`).toEqual(keys);
      }
    }
    // An unknown version header takes the default version's form: v3 here, v2 in another sandbox.
    const unknown = await sandbox.call("DELETE", "/v1/end-users", { version: "v9" });
    expect(unknown.status).toBe(405);
    expect(keysOf(unknown)).toEqual(SHORT_KEYS);
    await Sandbox.using({ defaultVersion: "v2" }, async (v2Default) => {
      for (const headers of [{ "x-platform-version": "v9" }, {}] as Record<string, string>[]) {
        const response = await v2Default.call("DELETE", "/v1/end-users", { headers });
        expect(response.status).toBe(405);
        expect(keysOf(response)).toEqual(EXTENDED_KEYS);
      }
    });
  });

  it("a path near no operation's: the short shape in JSON", async () => {
    for (const path of ["/v1/nowhere", "/v2/institutions", "/%E0%A4%A"]) {
      const response = await sandbox.get(path, "v2");
      expect([400, 404], path).toContain(response.status);
      assertShortError(response);
    }
  });
});

describe("the order of the checks", () => {
  let clockMs = Date.parse("2026-06-30T00:00:00Z");
  let timed: Sandbox;
  let expired: string;
  beforeAll(async () => {
    timed = await Sandbox.start({ defaultVersion: "v3", tokenTtlSeconds: 60, now: () => clockMs });
    expired = await timed.token();
    clockMs += 61_000;
  });
  afterAll(() => timed.close());

  it("answers a stale or missing token with a 401 before the version header, the method and the parameters", async () => {
    const cases: [string, string, Record<string, string>][] = [
      // v3 requires the header here: its absence is checked after the token.
      ["GET", "/v1/consent", { authorization: `Bearer ${expired}` }],
      ["GET", "/v1/consent", { "x-platform-version": "v9" }],
      ["GET", "/v1/accounts", { authorization: `Bearer ${expired}`, "x-platform-version": "v2" }],
      ["DELETE", "/v1/accounts", { authorization: `Bearer ${expired}`, "x-platform-version": "v2" }],
      ["HEAD", "/v1/end-users", { "x-platform-version": "v1" }],
      ["GET", "/v1/banking/products/x?unknown=1", { "x-platform-version": "v2" }],
    ];
    for (const [method, path, headers] of cases) {
      const response = await timed.call(method, path, { token: null, headers });
      expect(response.status, `${method} ${path}`).toBe(401);
      if (method === "HEAD") continue;
      // Declared by the path's operation: the 401 of its documents, in their form.
      const template = path.split("?")[0]!.replace(/\/products\/x$/, "/products/{product_id}");
      const version = headers["x-platform-version"] === "v9" ? "v3" : (headers["x-platform-version"] ?? "v3");
      assertDocumentedResponse(version, "GET", template, response);
    }
    const message = (await timed.call("GET", "/v1/consent", { token: expired })).body as Json;
    expect(message.message).toBe("token has expired; request a new one");
  });

  it("checks the rest once the token is valid, and answers an unknown path 404 whatever the token", async () => {
    const fresh = await timed.call("POST", "/v1/token", {
      token: null,
      body: { client_id: timed.server.clientId, client_secret: timed.server.clientSecret },
    });
    const token = (fresh.body as Json).access_token as string;
    expect((await timed.call("GET", "/v1/consent", { token })).status).toBe(400);
    expect((await timed.call("GET", "/v1/consent", { token, version: "v9" })).status).toBe(400);
    expect((await timed.call("DELETE", "/v1/accounts", { token, version: "v2" })).status).toBe(405);
    // No path, no security to check: the 404 tells the client its address is wrong.
    expect((await timed.call("GET", "/v1/nowhere", { token: expired })).status).toBe(404);
    // The token call and the anonymous institutions list need no token.
    expect((await timed.call("GET", "/v1/token", { token: null })).status).toBe(405);
    const anonymous = await timed.call("GET", `/v1/institutions?client_id=${timed.server.clientId}`, {
      token: null,
      version: "v2",
    });
    expect(anonymous.status).toBe(200);
  });
});

describe("messages", () => {
  it("treat a long product id like any other (a 400), and cut an unknown path they repeat", async () => {
    for (const length of [500, 601, 5000]) {
      const response = await sandbox.get(`/v1/banking/products/${"x".repeat(length)}`, "v2");
      expect(response.status, String(length)).toBe(400);
      assertDocumentedResponse("v2", "GET", "/v1/banking/products/{product_id}", response);
      expect((response.body as Json).message).toBe("parameter product_id names no product");
    }
    const long = `/v1/${"y".repeat(5000)}`;
    const unknown = await sandbox.get(long, "v2");
    expect(unknown.status).toBe(404);
    const message = (unknown.body as Json).message as string;
    expect(message.length).toBeLessThan(200);
    expect(message).toContain(`no operation at GET /v1/${"y".repeat(50)}`);
    expect(message).toContain(`(cut; ${long.length} characters in all)`);
    const broken = await sandbox.get(`/v1/${"z".repeat(5000)}%E0`, "v2");
    expect(broken.status).toBe(400);
    expect((broken.body as Json).message).toContain("characters in all)");
  });

  it("never repeat a client secret or a token, and cut every input they repeat at 100 characters", async () => {
    const { clientId, clientSecret } = sandbox.server;
    const readOnlySecret = sandbox.server.readOnlyClient.clientSecret;
    const token = await sandbox.token();
    const long = "q".repeat(10_000);
    const credentials = { client_id: clientId, client_secret: clientSecret };
    const calls: [string, Promise<ApiResponse>][] = [
      [
        "Prefer code",
        sandbox.call("GET", "/v1/end-users", { version: "v2", headers: { prefer: `code=${clientSecret}` } }),
      ],
      [
        "long Prefer code",
        sandbox.call("GET", "/v1/end-users", { version: "v2", headers: { prefer: `code=${long}` } }),
      ],
      [
        "body member",
        sandbox.call("POST", "/v1/token", { token: null, body: { ...credentials, [clientSecret]: 1 } }),
      ],
      [
        "long body member",
        sandbox.call("POST", "/v1/token", { token: null, body: { ...credentials, [long]: 1 } }),
      ],
      [
        "session body member",
        sandbox.call("POST", "/v1/auth/session", { version: "v2", body: { [readOnlySecret]: 1 } }),
      ],
      ["query value", sandbox.get(`/v1/accounts?end_user_id=eu_2f9c81d4&limit=${long}`, "v2")],
      ["query name", sandbox.get(`/v1/accounts?end_user_id=eu_2f9c81d4&${long}=1`, "v2")],
      ["repeated query name", sandbox.get(`/v1/accounts?${clientSecret}=1&${clientSecret}=2`, "v2")],
      ["path", sandbox.get(`/v1/${clientSecret}`, "v2")],
      ["path with a token", sandbox.get(`/v1/${token}`, "v2")],
      ["undecodable path", sandbox.get(`/v1/${clientSecret}%E0`, "v2")],
      [
        "version header",
        sandbox.call("GET", "/v1/end-users", { headers: { "x-platform-version": readOnlySecret } }),
      ],
    ];
    for (const [what, call] of calls) {
      const response = await call;
      const message = (response.body as Json).message as string;
      expect(response.status, what).toBeGreaterThanOrEqual(400);
      for (const secret of [clientSecret, readOnlySecret, token]) expect(message, what).not.toContain(secret);
      expect(message, what).not.toContain("q".repeat(101));
      expect(message.length, `${what}: ${message}`).toBeLessThan(300);
    }
    const quoted = await sandbox.call("GET", "/v1/end-users", {
      version: "v2",
      headers: { prefer: `code=${long}` },
    });
    expect((quoted.body as Json).message).toContain(
      `code="${"q".repeat(100)}"… (cut; 10000 characters in all)`,
    );
    const member = await sandbox.call("POST", "/v1/token", {
      token: null,
      body: { ...credentials, [clientSecret]: 1 },
    });
    expect((member.body as Json).message).toBe("body field [redacted] is not allowed here");
  });

  it("take out a secret of the caller's percent-encoded in lower case, or with a space as +", async () => {
    const clientSecret = "my team's secret/ü 2026";
    await Sandbox.using({ clientSecret }, async (custom) => {
      const lower = encodeURIComponent(clientSecret).replace(/%[0-9A-F]{2}/g, (percent) =>
        percent.toLowerCase(),
      );
      const plus = encodeURIComponent(clientSecret).replaceAll("%20", "+");
      for (const path of [`/v1/${lower}`, `/v1/accounts?end_user_id=eu_2f9c81d4&${plus}=1`]) {
        const response = await custom.get(path, "v2");
        const message = (response.body as Json).message as string;
        const encoded = path.includes("+") ? plus : lower;
        expect(response.status, path).toBeGreaterThanOrEqual(400);
        expect(message, path).toContain("[redacted]");
        expect(message, path).not.toContain(encoded);
      }
    });
  });

  it("log a path as they repeat it: no secret, and at most 100 characters (onResponse)", async () => {
    const logged: string[] = [];
    await Sandbox.using({ onResponse: (entry) => logged.push(entry.path) }, async (logging) => {
      const { clientSecret } = logging.server;
      await logging.get(`/v1/${clientSecret}`, "v2");
      await logging.get(`/v1/${"q".repeat(10_000)}`, "v2");
      const [secretPath, longPath] = logged.filter((path) => path !== "/v1/token"); // get() takes a token first
      expect(secretPath).toBe("/v1/[redacted]");
      expect(longPath).toContain("(cut; 10004 characters in all)");
      expect(longPath).not.toContain("q".repeat(101));
    });
  });

  it("name body fields one way, and say when the body is not a JSON object", async () => {
    const token = (rawBody: string) =>
      sandbox.call("POST", "/v1/token", {
        token: null,
        rawBody,
        headers: { "content-type": "application/json" },
      });
    for (const rawBody of ["[]", "null", "42", '"text"']) {
      const response = await token(rawBody);
      expect(response.status, rawBody).toBe(400);
      expect((response.body as Json).message, rawBody).toBe("the body must be a JSON object");
    }
    expect(((await token('{"client_id":"a"}')).body as Json).message).toBe(
      "body field client_secret is required",
    );
    expect(((await token('{"client_id":"a","client_secret":1}')).body as Json).message).toBe(
      "body field client_secret must be of type string",
    );
    expect(((await token('{"client_id":"a","client_secret":"b","extra":1}')).body as Json).message).toBe(
      "body field extra is not allowed here",
    );
    const session = (body: Json) => sandbox.call("POST", "/v1/auth/session", { version: "v2", body });
    expect(((await session({ redirect_uri: 42 })).body as Json).message).toBe(
      "body field redirect_uri must be of type string",
    );
    expect(((await session({ end_user_id: "eu_nobody" })).body as Json).message).toBe(
      "body field end_user_id names no end user of this team",
    );
  });
});
