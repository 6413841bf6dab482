/** HTTPS by default with the returned CA; plain HTTP on that port gets a clear 400; `tls: false` serves HTTP. */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandbox } from "./helpers.js";

describe("transport", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.start();
  });
  afterAll(() => sandbox.close());

  it("serves HTTPS on 127.0.0.1 with a certificate signed by the returned CA", async () => {
    expect(sandbox.server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.server.ca).toContain("BEGIN CERTIFICATE");
    expect((await sandbox.get("/v1/end-users", "v2")).status).toBe(200);
  });

  it("answers plain HTTP on the HTTPS port with a 400 and closes the connection", async () => {
    const port = Number(new URL(sandbox.server.url).port);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write("GET /v1/end-users HTTP/1.1\r\nHost: localhost\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString();
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain("HTTPS only");
  });

  it("with tls: false serves plain HTTP and returns no CA", async () => {
    const plain = await Sandbox.start({ tls: false });
    try {
      expect(plain.server.url).toMatch(/^http:\/\//);
      expect(plain.server.ca).toBeNull();
      expect((await plain.get("/v1/end-users", "v1")).status).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it("answers an unknown path with a 404 and a wrong method with a 405 and Allow", async () => {
    const missing = await sandbox.get("/v1/nothing-here", "v2");
    expect(missing.status).toBe(404);
    expect((missing.body as { name: string }).name).toBe("not_found");
    const wrong = await sandbox.call("PUT", "/v1/accounts", { version: "v2", body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("GET");
  });

  it("reports each response to onResponse with the path only, never the query or body", async () => {
    const entries: { method: string; path: string; status: number; version: string | undefined }[] = [];
    const logged = await Sandbox.start({ onResponse: (entry) => entries.push(entry) });
    try {
      await logged.get("/v1/end-users?page%5Bsize%5D=2", "v3");
      const { clientSecret } = logged.server;
      expect(entries.map(({ method, path, status, version }) => ({ method, path, status, version }))).toEqual(
        [
          { method: "POST", path: "/v1/token", status: 200, version: undefined },
          { method: "GET", path: "/v1/end-users", status: 200, version: "v3" },
        ],
      );
      expect(JSON.stringify(entries)).not.toContain(clientSecret);
    } finally {
      await logged.close();
    }
  });
});
