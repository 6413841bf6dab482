/** HTTPS by default with the returned CA; plain HTTP on that port gets a clear 400; `tls: false` serves HTTP. */
import { EventEmitter, once } from "node:events";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { connect as connectTls } from "node:tls";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer } from "../src/server.js";
import { authorityProblem, makeAuthority } from "../src/tls.js";
import { trustingFetch } from "../src/trusted-fetch.js";
import { assertErrorOnPath, assertShortError, Sandbox } from "./helpers.js";

/**
 * Sends raw bytes to the sandbox's port (over TLS trusting `ca` when given) and resolves with
 * everything it answers once the connection closes.
 */
function exchange(url: string, bytes: string | Buffer, ca?: string): Promise<string> {
  const port = Number(new URL(url).port);
  return new Promise((resolve, reject) => {
    const send = () => socket.write(bytes);
    const socket = ca ? connectTls({ port, host: "127.0.0.1", ca }, send) : connect(port, "127.0.0.1", send);
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
    });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
}

/** The statuses of the answers in raw HTTP/1.1 bytes, in order. */
function statusesOf(raw: string): number[] {
  return [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
}

/**
 * A connection kept open (over TLS trusting `ca` when given): bytes are written when asked, and
 * answers awaited as they come.
 */
async function openConnection(url: string, ca?: string) {
  const port = Number(new URL(url).port);
  const socket = ca ? connectTls({ port, host: "127.0.0.1", ca }) : connect(port, "127.0.0.1");
  await once(socket, ca ? "secureConnect" : "connect");
  let received = "";
  const arrivals = new EventEmitter();
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
    arrivals.emit("data");
  });
  const closed = once(socket, "close").then(() => received);
  return {
    write: (bytes: string) => socket.write(bytes),
    /** Stops reading: the server's answers wait in the kernel's buffers, then in the server. */
    pause: () => socket.pause(),
    /** Reads on, one chunk per turn of the event loop: a client slower than the server. */
    readSlowly() {
      socket.on("data", () => {
        socket.pause();
        setImmediate(() => socket.resume());
      });
      socket.resume();
    },
    /** Resolves once the bytes received so far hold `count` answers. */
    async answers(count: number): Promise<void> {
      while (statusesOf(received).length < count) {
        const ended = await Promise.race([once(arrivals, "data").then(() => false), closed.then(() => true)]);
        if (ended) throw new Error(`closed after ${statusesOf(received).length} of ${count} answers`);
      }
    },
    /** Everything received, once the server has closed the connection. */
    closed: () => closed,
  };
}

/** A token request with its body padded by spaces (valid JSON) to `length` bytes. */
function tokenRequest(sandbox: Sandbox, length: number, closing = false): string {
  const credentials = JSON.stringify({
    client_id: sandbox.server.clientId,
    client_secret: sandbox.server.clientSecret,
  });
  const body = credentials.padEnd(length, " ");
  return `POST /v1/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${closing ? "Connection: close\r\n" : ""}\r\n${body}`;
}

/** Status line, lower-cased headers and parsed body of one raw HTTP/1.1 answer. */
function parseAnswer(raw: string) {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  const text = rest.join("\r\n\r\n");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const status = Number(statusLine.split(" ")[1]);
  return { status, headers, contentType: headers["content-type"] ?? "", text, body };
}

/** `count` pipelined GETs of the transactions list, whose answers are about 290 kB each. */
async function largeAnswers(sandbox: Sandbox, count: number): Promise<string> {
  const token = await sandbox.token();
  const [user] = (await sandbox.get("/v1/end-users", "v2")).body as { id: string }[];
  const path = `/v1/transactions?end_user_id=${user!.id}&from_date=2020-01-01&limit=1000`;
  return `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Platform-Version: v2\r\n\r\n`.repeat(
    count,
  );
}

const SHORT_TIMEOUTS = { handshakeMs: 300, headersMs: 300, requestMs: 600 };

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
    const reply = await exchange(sandbox.server.url, "GET /v1/end-users HTTP/1.1\r\nHost: localhost\r\n\r\n");
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain("HTTPS only");
  });

  it("answers plain HTTP on the HTTPS port in the short JSON shape", async () => {
    const answer = parseAnswer(
      await exchange(sandbox.server.url, "GET /v1/end-users HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe("close");
    assertShortError(answer);
  });

  it("hands back a fetch that trusts its CA and options ready for createSdk", async () => {
    const { sdkOptions } = sandbox.server;
    expect(sdkOptions.baseUrl).toBe(sandbox.server.url);
    const response = await sandbox.server.fetch(`${sdkOptions.baseUrl}/v1/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: sdkOptions.clientId, client_secret: sdkOptions.clientSecret }),
    });
    expect(response.status).toBe(200);
    // Spread copies the secret; inspection and JSON do not show it.
    expect({ ...sdkOptions }.clientSecret).toBe(sandbox.server.clientSecret);
    expect(JSON.stringify(sdkOptions)).not.toContain(sdkOptions.clientSecret);
    expect(inspect(sdkOptions)).not.toContain(sdkOptions.clientSecret);
    // What is shown when debugging: every other field, the address first of all.
    expect(JSON.parse(JSON.stringify(sdkOptions))).toEqual({
      baseUrl: sandbox.server.url,
      clientId: sdkOptions.clientId,
      clientSecret: "[redacted]",
    });
    expect(inspect(sdkOptions)).toContain(`baseUrl: '${sandbox.server.url}'`);
    const handle = JSON.parse(JSON.stringify(sandbox.server));
    expect(handle).toMatchObject({ url: sandbox.server.url, clientSecret: "[redacted]" });
    expect(JSON.stringify(sandbox.server)).not.toContain(sdkOptions.clientSecret);
    expect(inspect(sandbox.server, { depth: 5 })).not.toContain(sdkOptions.clientSecret);
  });

  describe("slow and incomplete clients are timed out, with a JSON answer where HTTP was spoken", () => {
    let https: Sandbox;
    let http: Sandbox;
    beforeAll(async () => {
      https = await Sandbox.start({ timeouts: SHORT_TIMEOUTS });
      http = await Sandbox.start({ tls: false, timeouts: SHORT_TIMEOUTS });
    });
    afterAll(() => Promise.all([https.close(), http.close()]));
    const partialHeaders = "GET /v1/end-users HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n";

    it("closes a half-finished TLS handshake", async () => {
      // A TLS record header announcing 200 bytes of ClientHello, then nothing more.
      const answer = await exchange(
        https.server.url,
        Buffer.from([0x16, 0x03, 0x01, 0x00, 0xc8, 0x01, 0x00]),
      );
      expect(answer).toBe("");
    });

    it("closes a connection that never speaks", async () => {
      expect(await exchange(https.server.url, Buffer.alloc(0))).toBe("");
    });

    it("answers headers that never end with a 408 in the short shape, over HTTPS and HTTP", async () => {
      const overTls = parseAnswer(await exchange(https.server.url, partialHeaders, https.server.ca!));
      const overTcp = parseAnswer(await exchange(http.server.url, partialHeaders));
      for (const answer of [overTls, overTcp]) {
        expect(answer.status).toBe(408);
        expect((answer.body as { name: string }).name).toBe("request_timeout");
        assertShortError(answer);
      }
    });

    it("answers a body that never ends with a 408 in the form of its path's errors", async () => {
      const head =
        "POST /v1/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{";
      const answer = parseAnswer(await exchange(https.server.url, head, https.server.ca!));
      expect(answer.status).toBe(408);
      assertErrorOnPath("v3", "/v1/token", answer);
      // The institutions list and the auth session answer application/vnd.goa.error, extended shape.
      const token = await https.token();
      const session = `POST /v1/auth/session HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Platform-Version: v1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`;
      const sessionAnswer = parseAnswer(await exchange(https.server.url, session, https.server.ca!));
      expect(sessionAnswer.status).toBe(408);
      expect(sessionAnswer.contentType).toBe("application/vnd.goa.error");
      expect((sessionAnswer.body as { name: string }).name).toBe("request_timeout");
      assertErrorOnPath("v1", "/v1/auth/session", sessionAnswer);
    });

    it("answers a body that comes after its request's 408 with nothing: the 408 was its answer", async () => {
      // 17 MB of answers, more than the kernel's buffers hold for a client that does not read.
      const count = 60;
      const gets = await largeAnswers(http, count);
      const connection = await openConnection(http.server.url);
      connection.pause();
      const upload = tokenRequest(http, 200);
      // One write: the server reads the GETs and the upload's head at once, and times the upload out
      // while its 408 waits behind the GETs' answers. The rest of the body comes after.
      connection.write(gets + upload.slice(0, -100));
      await sleep(3 * SHORT_TIMEOUTS.requestMs);
      connection.write(upload.slice(-100));
      connection.readSlowly();
      expect(statusesOf(await connection.closed())).toEqual([...Array(count).fill(200), 408]);
    });

    it("answers a request answered before its body came once only: no 408 follows it", async () => {
      // An unknown path (short shape) and an unreadable path on the institutions list (its goa form).
      for (const [target, mediaType] of [
        ["/nope", "application/json"],
        ["/v1/institutions/%E0", "application/vnd.goa.error"],
      ] as const) {
        const raw = await exchange(
          https.server.url,
          `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n`,
          https.server.ca!,
        );
        expect(statusesOf(raw), target).toEqual([target === "/nope" ? 404 : 400]);
        expect(parseAnswer(raw).contentType, target).toBe(mediaType);
      }
    });

    it("answers an HTTP/1.1 request without Host with a 400 in the short shape", async () => {
      const answer = parseAnswer(
        await exchange(https.server.url, "GET /v1/end-users HTTP/1.1\r\n\r\n", https.server.ca!),
      );
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toBe("bad request: header Host is required");
      assertShortError(answer);
    });
  });

  it("hands back a fetch that, once the sandbox is closed, fails as fetch fails and says why", async () => {
    const closing = await Sandbox.start();
    const { fetch, url } = closing.server;
    expect(await fetch(`${url}/v1/institutions?client_id=x`)).toBeInstanceOf(Response);
    await closing.close();
    const failure = await fetch(`${url}/v1/institutions?client_id=x`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).cause).toMatchObject({
      message: expect.stringMatching(/^this fetch was closed/),
    });
  });

  it("closes again, once closed, without an error: a test's teardown often closes twice", async () => {
    const sandbox = await startMockServer();
    const fetch = await trustingFetch(sandbox.ca);
    await sandbox.close();
    await fetch.close();
    // The second close of each was undici's "The client is destroyed" (UND_ERR_DESTROYED).
    await expect(sandbox.close()).resolves.toBeUndefined();
    await expect(fetch.close()).resolves.toBeUndefined();
  });

  it("with tls: false serves plain HTTP and returns no CA", async () => {
    await Sandbox.using({ tls: false }, async (plain) => {
      expect(plain.server.url).toMatch(/^http:\/\//);
      expect(plain.server.ca).toBeNull();
      expect((await plain.get("/v1/end-users", "v1")).status).toBe(200);
    });
  });

  it("with tls: a certificate authority, serves a certificate it signed: a client trusting it trusts every start", async () => {
    const authority = await makeAuthority();
    for (let start = 0; start < 2; start++) {
      await Sandbox.using({ tls: authority }, async (kept) => {
        expect(kept.server.ca).toBe(authority.ca);
        // Trusting that CA alone: the certificate is signed by it.
        const reply = await exchange(
          kept.server.url,
          "GET /v1/end-users HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
          authority.ca,
        );
        expect(reply).toMatch(/^HTTP\/1\.1 401 /);
      });
    }
  });

  it("refuses a certificate authority it cannot sign with, saying why", async () => {
    const [one, other] = [await makeAuthority(), await makeAuthority()];
    const refused = startMockServer({ tls: { ca: one.ca, caKey: other.caKey } });
    await expect(refused).rejects.toThrow(
      new TypeError("tls, a certificate authority: its key is not the certificate's"),
    );
    await expect(startMockServer({ tls: { ca: "junk", caKey: one.caKey } })).rejects.toThrow(
      "tls, a certificate authority: its certificate is not a PEM certificate",
    );
    // A server certificate lives 30 days: a CA that ends sooner is not used.
    expect(authorityProblem(one, Date.now() + 340 * 86_400_000)).toMatch(/^it expires within 30 days \(/);
    expect(authorityProblem(one)).toBeUndefined();
  });

  it("answers an unknown path with a 404 and a wrong method with a 405 and Allow", async () => {
    const missing = await sandbox.get("/v1/nothing-here", "v2");
    expect(missing.status).toBe(404);
    expect((missing.body as { name: string }).name).toBe("not_found");
    const wrong = await sandbox.call("PUT", "/v1/accounts", { version: "v2", body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("GET");
  });

  it("reports each response to onResponse with the path only and the version that answered", async () => {
    const entries: { method: string; path: string; status: number; version: string | undefined }[] = [];
    await Sandbox.using({ onResponse: (entry) => entries.push(entry) }, async (logged) => {
      await logged.get("/v1/end-users?page%5Bsize%5D=2", "v3");
      await logged.get("/v1/accounts", "v9");
      await logged.get("/v1/nowhere");
      const { clientSecret, defaultVersion } = logged.server;
      expect(entries.map(({ method, path, status, version }) => ({ method, path, status, version }))).toEqual(
        [
          // Without the header the default version answers; a refused header or an unknown path, none.
          { method: "POST", path: "/v1/token", status: 200, version: defaultVersion },
          { method: "GET", path: "/v1/end-users", status: 200, version: "v3" },
          { method: "GET", path: "/v1/accounts", status: 400, version: undefined },
          { method: "GET", path: "/v1/nowhere", status: 404, version: undefined },
        ],
      );
      expect(JSON.stringify(entries)).not.toContain(clientSecret);
    });
  });

  describe.each([
    ["over TLS", true],
    ["over plain HTTP", false],
  ])("pipelined requests %s", (_, tls) => {
    let issued: number;
    let pipelined: Sandbox;
    beforeAll(async () => {
      pipelined = await Sandbox.start({ tls, onResponse: () => issued++ });
    });
    afterAll(() => pipelined.close());
    const send = (bytes: string) => exchange(pipelined.server.url, bytes, pipelined.server.ca ?? undefined);

    it("are all answered, in order, however many one write holds (Node lost those over TLS past ~16 KiB of waiting answers)", async () => {
      issued = 0;
      const count = 300;
      const raw = await send(
        tokenRequest(pipelined, 200).repeat(count - 1) + tokenRequest(pipelined, 200, true),
      );
      expect(statusesOf(raw)).toEqual(Array(count).fill(200));
      expect(issued).toBe(count);
    });

    it("before a CONNECT are answered first, then its 405 and the close", async () => {
      issued = 0;
      const raw = await send(
        `${tokenRequest(pipelined, 200).repeat(2)}CONNECT /v1/token HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(statusesOf(raw)).toEqual([200, 200, 405]);
      expect(issued).toBe(3);
    });

    it("before a CONNECT all reach a client that sent more after it: the close waits for the client, it is no reset", async () => {
      const count = 3;
      const gets = await largeAnswers(pipelined, count);
      // The requests after the CONNECT are never read: a socket closed with them unread was reset,
      // and the answers sent but not yet read were lost.
      const after = tokenRequest(pipelined, 200).repeat(1000);
      issued = 0;
      const raw = await send(`${gets}CONNECT /v1/token HTTP/1.1\r\nHost: x\r\n\r\n${after}`);
      expect(statusesOf(raw)).toEqual([...Array(count).fill(200), 405]);
      expect(issued).toBe(count + 1);
    });

    it("before a malformed one are answered first, then its 400 and the close", async () => {
      issued = 0;
      const raw = await send(`${tokenRequest(pipelined, 200).repeat(3)}GARBAGE\r\n\r\n`);
      expect(statusesOf(raw)).toEqual([200, 200, 200, 400]);
      expect(issued).toBe(3);
      expect(raw.slice(raw.lastIndexOf("HTTP/1.1"))).toContain("malformed HTTP request");
    });
  });

  /**
   * A token upload of `length` bytes on a connection of its own, all but its last `unsent` bytes sent
   * and held by the server; `finish()` sends the rest and resolves with what the connection received.
   */
  async function heldUpload(sandbox: Sandbox, length: number, unsent: number) {
    const held = await openConnection(sandbox.server.url, sandbox.server.ca!);
    const upload = tokenRequest(sandbox, length, true);
    // One write, so one TLS record: the server has read the upload's head and the body sent, and
    // holds them, by the time the 404 before it arrives.
    held.write(`GET /nope HTTP/1.1\r\nHost: x\r\n\r\n${upload.slice(0, -unsent)}`);
    await held.answers(1);
    return {
      finish: () => {
        held.write(upload.slice(-unsent));
        return held.closed();
      },
    };
  }

  /** A token request of `length` bytes on a connection of its own: the raw answer. */
  const tokenCall = (sandbox: Sandbox, length: number) =>
    exchange(sandbox.server.url, tokenRequest(sandbox, length, true), sandbox.server.ca!);

  it("holds request bodies being received within limits.bodyBytes: past it a 503 with Retry-After, in the path's form", async () => {
    await Sandbox.using({ limits: { bodyBytes: 1000 } }, async (budgeted) => {
      const upload = await heldUpload(budgeted, 800, 100);
      const refused = parseAnswer(await tokenCall(budgeted, 400));
      expect(refused.status).toBe(503);
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.headers.connection).toBe("close");
      expect(refused.body).toMatchObject({ name: "service_unavailable", fault: true, temporary: true });
      assertErrorOnPath("v3", "/v1/token", refused);
      // The held upload, once whole, is answered; then its bytes are free again.
      expect(statusesOf(await upload.finish())).toEqual([404, 200]);
      expect(statusesOf(await tokenCall(budgeted, 400))).toEqual([200]);
    });
  });

  it("holds the bytes of a body that have come, not its declared length: a client that declares much and sends little locks no one out", async () => {
    await Sandbox.using({ limits: { bodyBytes: 1000 } }, async (budgeted) => {
      const upload = await heldUpload(budgeted, 900, 899);
      expect(statusesOf(await tokenCall(budgeted, 300))).toEqual([200]);
      expect(statusesOf(await upload.finish())).toEqual([404, 200]);
    });
  });

  describe("raw HTTP/1.1 edge cases (plain HTTP)", () => {
    let plain: Sandbox;
    let token: string;
    beforeAll(async () => {
      plain = await Sandbox.start({ tls: false });
      token = await plain.token();
    });
    afterAll(() => plain.close());
    const send = (bytes: string) => exchange(plain.server.url, bytes).then(parseAnswer);

    it("closes a connection after its 400 within closeGraceMs, even if the client neither closes its side nor stops sending", async () => {
      await Sandbox.using({ tls: false, timeouts: { closeGraceMs: 200 } }, async (lingering) => {
        const port = Number(new URL(lingering.server.url).port);
        // A client that keeps its side open, and whose bytes keep the connection from going idle.
        const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
        await once(socket, "connect");
        let received = "";
        socket.on("data", (chunk: Buffer) => {
          received += chunk.toString("latin1");
        });
        socket.on("error", () => {});
        const closed = new Promise((resolve) => socket.on("close", resolve));
        socket.write("GARBAGE\r\n\r\n");
        const trickle = setInterval(() => socket.write("x"), 20);
        await closed;
        clearInterval(trickle);
        expect(statusesOf(received)).toEqual([400]);
      });
    });

    it("answers bytes that are not HTTP, and unknown methods, with a 400 in the short shape and a close", async () => {
      for (const bytes of [
        "GARBAGE\r\n\r\n",
        "BREW /v1/end-users HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /v1/end-users HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
      ]) {
        const answer = await send(bytes);
        expect(answer.status, bytes).toBe(400);
        expect(answer.headers.connection).toBe("close");
        expect((answer.body as { message: string }).message).toContain("malformed HTTP request");
        assertShortError(answer);
      }
    });

    it("answers headers over Node's limit with a 400 naming them", async () => {
      const answer = await send(
        `GET /v1/end-users HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      );
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toBe("bad request: request headers are too large");
      assertShortError(answer);
    });

    it("refuses a declared body over 1 MiB without reading it, and closes the connection", async () => {
      const answer = await send(
        "POST /v1/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{}",
      );
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe("close");
      expect((answer.body as { message: string }).message).toBe("request body is too large");
    });

    it("reads a chunked body", async () => {
      const body = JSON.stringify({
        client_id: plain.server.clientId,
        client_secret: plain.server.clientSecret,
      });
      const chunks = [body.slice(0, 10), body.slice(10)]
        .map((part) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`)
        .join("");
      const answer = await send(
        `POST /v1/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`,
      );
      expect(answer.status).toBe(200);
      expect((answer.body as { access_token: string }).access_token).toMatch(/^cdas_/);
    });

    it("refuses a chunked body that grows past 1 MiB, in the operation's documented shape, and closes", async () => {
      const chunk = "a".repeat(64 * 1024);
      const chunks = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(17);
      const answer = await send(
        `POST /v1/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`,
      );
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe("close");
      expect((answer.body as { message: string }).message).toBe("request body is too large");
    });

    it("serves an absolute-form target and a percent-encoded path like their plain path", async () => {
      const head = `Host: x\r\nAuthorization: Bearer ${token}\r\nX-Platform-Version: v2\r\nConnection: close\r\n\r\n`;
      const plainAnswer = await send(`GET /v1/end-users HTTP/1.1\r\n${head}`);
      expect(plainAnswer.status).toBe(200);
      for (const target of [`${plain.server.url}/v1/end-users`, "/v1/%65nd-users"]) {
        const answer = await send(`GET ${target} HTTP/1.1\r\n${head}`);
        expect(answer.status, target).toBe(200);
        expect(answer.body, target).toEqual(plainAnswer.body);
      }
    });

    it("answers CONNECT as any other method (the sandbox is no proxy): a 404 for an address, a 405 on a path", async () => {
      const address = await send("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n");
      expect(address.status).toBe(404);
      expect(address.headers.connection).toBe("close");
      assertShortError(address);
      const onPath = await send("CONNECT /v1/token HTTP/1.1\r\nHost: x\r\n\r\n");
      expect(onPath.status).toBe(405);
      expect(onPath.headers.allow).toBe("POST");
      assertErrorOnPath("v3", "/v1/token", onPath);
    });

    it("answers an Expect other than 100-continue with a 417 in the path's error form", async () => {
      const token = tokenRequest(plain, 200, true).replace("Host: x\r\n", "Host: x\r\nExpect: foo\r\n");
      const onToken = await send(token);
      expect(onToken.status).toBe(417);
      expect(onToken.body).toMatchObject({ name: "expectation_failed" });
      assertErrorOnPath("v3", "/v1/token", onToken);
      const onInstitutions = await send(
        `GET /v1/institutions?client_id=${plain.server.clientId} HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nX-Platform-Version: v2\r\nConnection: close\r\n\r\n`,
      );
      expect(onInstitutions.status).toBe(417);
      expect(onInstitutions.contentType).toBe("application/vnd.goa.error");
      assertErrorOnPath("v2", "/v1/institutions", onInstitutions);
    });

    it("answers an Expect other than 100-continue at once, before the body: a client may wait for the answer to send it", async () => {
      const token = tokenRequest(plain, 200, true).replace("Host: x\r\n", "Host: x\r\nExpect: foo\r\n");
      const head = token.slice(0, token.indexOf("\r\n\r\n") + 4);
      const answer = await send(head);
      expect(answer.status).toBe(417);
      expect(answer.body).toMatchObject({ name: "expectation_failed" });
    });

    it("answers every other method on a known path with 405 and Allow, HEAD included", async () => {
      for (const method of ["HEAD", "OPTIONS", "TRACE", "DELETE"]) {
        const answer = await send(
          `${method} /v1/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
        );
        expect(answer.status, method).toBe(405);
        expect(answer.headers.allow, method).toBe("GET");
      }
    });
  });
});
