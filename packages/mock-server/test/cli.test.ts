/** The `cdas-mock` command: prints the address, credentials, CA file and a curl line that works. */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { describe, expect, it } from "vitest";
import { SANDBOX_DEFAULTS, startMockServer } from "../src/server.js";

const bin = fileURLToPath(new URL("../bin/cdas-mock.js", import.meta.url));
const built = existsSync(fileURLToPath(new URL("../dist/cli.js", import.meta.url)));

/** Runs `cdas-mock --port 0 ...args` until it prints its curl line. */
async function startCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, "--port", "0", "--quiet", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  const curlLine = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk.toString();
      const line = output.split("\n").find((l) => l.startsWith("curl "));
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  const stop = (signal: NodeJS.Signals = "SIGTERM") => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    return exited;
  };
  return { output, curlLine, caFile: /--cacert (\S+)/.exec(curlLine)![1]!, stop };
}

/** The curl line's token call, made trusting `ca` alone; its answer's body. */
async function tokenCall(curlLine: string, ca: string): Promise<unknown> {
  const url = /-X POST (\S+)/.exec(curlLine)![1]!;
  const body = /-d '(.+)'$/.exec(curlLine)![1]!;
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const response = await request(url, {
      method: "POST",
      dispatcher,
      headers: { "content-type": "application/json" },
      body,
    });
    expect(response.statusCode).toBe(200);
    return await response.body.json();
  } finally {
    await dispatcher.close();
  }
}

describe("cdas-mock", () => {
  // The command runs the built CLI; `turbo run test` builds first.
  it.skipIf(!built)("--help states the defaults startMockServer uses for the options not given", () => {
    const help = execFileSync(process.execPath, [bin, "--help"], { encoding: "utf8" });
    for (const [option, value] of [
      ["--host", SANDBOX_DEFAULTS.host],
      ["--seed", SANDBOX_DEFAULTS.seed],
      ["--token-ttl", SANDBOX_DEFAULTS.tokenTtlSeconds],
      ["--token-form", SANDBOX_DEFAULTS.tokenForm],
      ["--product-form", SANDBOX_DEFAULTS.productForm],
      ["--reference-date", SANDBOX_DEFAULTS.referenceDate],
    ] as const) {
      expect(help, option).toMatch(new RegExp(`^  ${option} .*\\(default ${value}[;):]`, "m"));
    }
  });

  it.skipIf(!built).each(["SIGTERM", "SIGHUP"] as const)(
    "starts, prints a working curl line, and stops on %s, removing its CA file",
    async (signal) => {
      // TMPDIR elsewhere (as on macOS): the CA file is still where the reference's samples say.
      const cli = await startCli(["--seed", "7"], { TMPDIR: tmpdir() === "/tmp" ? "/var/tmp" : tmpdir() });
      try {
        expect(cli.output).toContain(`CA certificate: ${cli.caFile}`);
        if (process.platform !== "win32") expect(cli.caFile).toMatch(/^\/tmp\/cdas-mock\/ca-\d+\.pem$/);
        expect(cli.output).toMatch(/Client id: +cli_[0-9a-f]+/);
        expect(cli.output).toMatch(/Client secret: +sk_sandbox_[0-9a-f]+/);
        const answer = await tokenCall(cli.curlLine, readFileSync(cli.caFile, "utf8"));
        expect(answer).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
      } finally {
        expect(await cli.stop(signal)).toBe(0);
        expect(existsSync(cli.caFile)).toBe(false);
      }
    },
  );

  it.skipIf(!built)(
    "two on one port, on 127.0.0.1 and ::1, write a CA file each: neither overwrites nor removes the other's",
    async () => {
      const first = await startCli([]);
      const port = /https:\/\/127\.0\.0\.1:(\d+)/.exec(first.curlLine)![1]!;
      try {
        const second = await startCli(["--host", "::1", "--port", port]);
        try {
          // Both were /tmp/cdas-mock/ca-<port>.pem: the second's CA replaced the first's.
          expect(second.caFile).not.toBe(first.caFile);
          if (process.platform !== "win32") expect(second.caFile).toBe(`/tmp/cdas-mock/ca-${port}-__1.pem`);
          await tokenCall(first.curlLine, readFileSync(first.caFile, "utf8"));
          await tokenCall(second.curlLine, readFileSync(second.caFile, "utf8"));
        } finally {
          expect(await second.stop()).toBe(0);
        }
        expect(existsSync(second.caFile)).toBe(false);
        expect(existsSync(first.caFile)).toBe(true);
      } finally {
        expect(await first.stop()).toBe(0);
      }
      // Named by the host as given, whatever address the sandbox then prints for it.
      const named = await startCli(["--host", "localhost"]);
      try {
        expect(named.caFile).toMatch(/[/\\]ca-\d+-localhost\.pem$/);
      } finally {
        expect(await named.stop()).toBe(0);
      }
    },
  );

  it.skipIf(!built)(
    "with --ca-file keeps the CA, its key readable by its owner alone: a client trusting the file trusts later starts",
    async () => {
      const folder = mkdtempSync(join(tmpdir(), "cdas-mock-ca-"));
      const caFile = join(folder, "ca.pem");
      try {
        const first = await startCli(["--ca-file", caFile]);
        expect(first.caFile).toBe(caFile);
        expect(first.output).toContain(`CA key:         ${caFile}.key (a new CA, kept for later starts)\n`);
        const trusted = readFileSync(caFile, "utf8");
        expect(await first.stop()).toBe(0);
        if (process.platform !== "win32") expect(statSync(`${caFile}.key`).mode & 0o777).toBe(0o600);

        const second = await startCli(["--ca-file", caFile]);
        try {
          expect(second.output).toContain(
            `CA key:         ${caFile}.key (the CA kept by an earlier start)\n`,
          );
          expect(await tokenCall(second.curlLine, trusted)).toMatchObject({ token_type: "Bearer" });
        } finally {
          await second.stop();
        }
        expect(readFileSync(caFile, "utf8")).toBe(trusted);

        // A kept key that cannot sign: a new CA, saying why.
        writeFileSync(`${caFile}.key`, "not a key");
        const third = await startCli(["--ca-file", caFile]);
        await third.stop();
        expect(third.output).toContain(
          "(a new CA, kept for later starts; the one kept there was not used: its key is not a PEM private key)\n",
        );
        expect(readFileSync(caFile, "utf8")).not.toBe(trusted);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!built)("refuses a port that is not a number, naming the option", async () => {
    const child = spawn(process.execPath, [bin, "--port", "abc"], { stdio: ["ignore", "pipe", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk) => {
      errors += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(errors).toBe('cdas-mock: --port must be a whole number from 0 to 65535 (got "abc")\n');
  });

  it.skipIf(!built).each([
    [
      ["--reference-date", "2026-13-01"],
      '--reference-date must be a calendar date, YYYY-MM-DD (got "2026-13-01")',
    ],
    [["--today", "2026-02-30"], '--today must be a calendar date, YYYY-MM-DD, or "now" (got "2026-02-30")'],
    [["--product-form", "list"], "--product-form must be bare or data"],
  ])("refuses %j, naming the option", async (args, message) => {
    const child = spawn(process.execPath, [bin, "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let errors = "";
    child.stderr.on("data", (chunk) => {
      errors += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(errors).toBe(`cdas-mock: ${message}\n`);
  });
});

describe("startMockServer's options", () => {
  it.each([
    ["referenceDate", "2026-13-01"],
    ["today", "2026-02-30"],
  ])("refuses a %s that is no calendar date, naming it", async (name, value) => {
    await expect(startMockServer({ [name]: value })).rejects.toThrow(
      `${name} must be a calendar date, YYYY-MM-DD (got "${value}")`,
    );
  });

  it.each([
    [{ prot: 4010 }, "prot", "port, host, seed"],
    [{ limits: { liveTokns: 5 } }, "limits.liveTokns", "limits.liveTokens, limits.authSessions"],
    [{ timeouts: { keepAlive: 5 } }, "timeouts.keepAlive", "timeouts.handshakeMs, timeouts.headersMs"],
  ])(
    "refuses a misspelt option rather than ignoring it, naming it and the options: %j",
    async (options, name, some) => {
      const started = startMockServer(options as never);
      await expect(started).rejects.toThrow(`startMockServer has no option ${name} (its options: ${some}`);
      await expect(started).rejects.toBeInstanceOf(TypeError);
    },
  );
});
