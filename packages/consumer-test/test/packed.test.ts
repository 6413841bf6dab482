/**
 * What users install: the packed packages alone, in a fresh project laid out by npm and by pnpm,
 * compiled strictly, then run under Node, Bun and Deno, in-process and against `cdas-mock` started
 * from the installed bin over HTTPS, with its CA trusted the documented way for each runtime.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  compile,
  createCommonJsProject,
  createConsumerProject,
  type Installer,
  install,
} from "./consumer-project.js";
import { API_VERSIONS, NPM_CACHE, RUNTIMES, type Runtime, run, start } from "./workspace.js";

const RUNTIME_NAMES = Object.keys(RUNTIMES) as Runtime[];
// Deno keeps its cache in the project and is told not to look for updates: nothing downloaded at run time.
const denoEnv = (dir: string) => ({ DENO_DIR: join(dir, ".deno"), DENO_NO_UPDATE_CHECK: "1" });

/**
 * The Deno permissions the READMEs give a program that uses the packages (`--allow-env`: it reads
 * CDAS_*), and one that starts the sandbox in-process (`--allow-read`: the sandbox reads its files).
 */
const DENO_APP_PERMISSIONS = ["--allow-net", "--allow-env"];
const DENO_IN_PROCESS_SANDBOX_PERMISSIONS = ["--allow-net", "--allow-read"];

/**
 * Command and arguments that run a script file with a runtime, and the env that makes it trust `ca`;
 * under Deno with the permissions given, no more.
 */
function runWith(
  runtime: Runtime,
  dir: string,
  script: string,
  ca?: string,
  denoPermissions = DENO_APP_PERMISSIONS,
) {
  if (runtime === "deno") {
    return {
      command: RUNTIMES.deno,
      args: ["run", ...denoPermissions, script],
      env: { ...denoEnv(dir), ...(ca ? { DENO_CERT: ca } : {}) },
    };
  }
  return { command: RUNTIMES[runtime], args: [script], env: ca ? { NODE_EXTRA_CA_CERTS: ca } : {} };
}

describe.each<Installer>(["npm", "pnpm"])("packed packages installed with %s", (installer) => {
  let dir: string;
  beforeAll(() => {
    dir = createConsumerProject(installer, inject("tarballs"));
    install(installer, dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("installs nothing from the workspace and compiles under strict with skipLibCheck off", () => {
    const lock = installer === "npm" ? "package-lock.json" : "pnpm-lock.yaml";
    expect(readFileSync(join(dir, lock), "utf8")).not.toContain("workspace:");
    compile(dir);
    expect(existsSync(join(dir, "dist/main.js"))).toBe(true);
    expect(existsSync(join(dir, "dist/runtime-check.js"))).toBe(true);
  });

  it("ships each pair of versions' migration guide as @cdas/spec/changes/<a>-to-<b>.guide.md", () => {
    const [first, last] = [API_VERSIONS[0], API_VERSIONS.at(-1)];
    const guide = run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { readFileSync } from "node:fs";
         const file = import.meta.resolve("@cdas/spec/changes/${first}-to-${last}.guide.md");
         process.stdout.write(readFileSync(new URL(file), "utf8"));`,
      ],
      { cwd: dir },
    );
    expect(guide).toContain(`# Migrating from ${first} to ${last}`);
  });

  it("serves the rendered docs from the installed @cdas/spec with its cdas-docs bin", async () => {
    const [first, last] = [API_VERSIONS[0], API_VERSIONS.at(-1)];
    const docs = await start(join(dir, "node_modules/.bin/cdas-docs"), ["--port", "0"], {
      cwd: dir,
      ready: /CDAS API docs: http:\/\/127\.0\.0\.1:\d+\//,
    });
    try {
      const address = docs.output().match(/http:\/\/127\.0\.0\.1:\d+\//)?.[0];
      const page = async (file: string) => {
        const response = await fetch(new URL(file, address));
        return { status: response.status, text: await response.text() };
      };
      const index = await page("index.html");
      expect(index.status).toBe(200);
      for (const version of API_VERSIONS) expect(index.text).toContain(`${version}.html`);
      const reference = await page(`${last}.html`);
      expect(reference.status).toBe(200);
      expect(reference.text).toContain("__redoc_definition");
      const report = await page(`changes/${first}-to-${last}.guide.html`);
      expect(report.status).toBe(200);
      expect(report.text).toContain(`Migrating from ${first} to ${last}`);
    } finally {
      await docs.stop();
    }
  });

  // The READMEs name 5.4 as the oldest TypeScript that checks the packages with skipLibCheck off
  // (openapi-fetch's declarations fail on 5.3); once is enough: defined for npm's layout only, not
  // skipped for pnpm's.
  if (installer === "npm")
    it("compiles under TypeScript 5.4, the oldest the READMEs name", () => {
      const tools = join(dir, ".typescript-5.4");
      mkdirSync(tools);
      writeFileSync(join(tools, "package.json"), '{ "private": true }\n');
      const npmArgs = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", NPM_CACHE];
      run("npm", [...npmArgs, "typescript@5.4"], { cwd: tools });
      const tsc = join(tools, "node_modules/typescript/bin/tsc");
      expect(run(process.execPath, [tsc, "--version"], { cwd: dir })).toMatch(/^Version 5\.4\./);
      // Throws with tsc's diagnostics when it fails.
      run(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit"], { cwd: dir });
    });

  it("compiles and runs as a CommonJS project (module commonjs, moduleResolution node10, as NestJS writes it)", () => {
    const project = createCommonJsProject(dir);
    const output = run(process.execPath, ["dist/main.js"], { cwd: project });
    const result = JSON.parse(output.trim().split("\n").at(-1)!);
    expect(result.endUsers).toBeGreaterThan(0);
    expect(result.accounts).toBeGreaterThan(0);
    // The SDK's error of a call's 400, thrown the SDK's way (apiErrorOf), is its class under CommonJS too.
    expect(result.refused).toBe(400);
  });

  it.each(RUNTIME_NAMES)(
    "under %s: the sandbox in-process over HTTPS, with the SDK and a client",
    (runtime) => {
      const { command, args, env } = runWith(
        runtime,
        dir,
        "dist/runtime-check.js",
        undefined,
        DENO_IN_PROCESS_SANDBOX_PERMISSIONS,
      );
      const output = run(command, args, { cwd: dir, env });
      const result = JSON.parse(output.trim().split("\n").at(-1)!);
      console.log(`${installer} / ${runtime} in-process: ${JSON.stringify(result)}`);
      expect(result.institutions).toBeGreaterThan(0);
      // `V3` of @cdas/sdk is there at run time, as its declarations say (a type-only one failed to load).
      expect(result.modelsOf).toBe("v3");
      expect(result.endUsersStatus).toBe(200);
      expect(result.endUsers).toBeGreaterThan(0);
      expect(result.refused).toBe("api");
      // Node answers plain HTTP with the documented JSON 400; Bun and Deno close the connection (README).
      expect(result.plainHttp).toEqual(runtime === "node" ? "json-400" : expect.stringMatching(/^closed/));
      // Timeouts hold over HTTPS on every runtime: slow headers get the JSON 408, a missing Host the
      // JSON 400, and a half-finished handshake is closed (Bun by its own idle timeout, README).
      expect(result.slowHeaders.answer).toBe("HTTP/1.1 408 Request Timeout request_timeout");
      expect(result.noHost).toBe("HTTP/1.1 400 Bad Request bad_request");
      expect(result.halfHandshakeClosedAfterMs).toEqual(expect.any(Number));
      // A 1 GiB bomb, gzip or brotli, stops at maxResponseBytes and the process grows by the limit and
      // tens of MB at most, on Bun too (whose fetch inflates a cancelled body whole: the SDK inflates
      // there) and on Deno (whose default reader leaves garbage: the SDK reads into its own buffer).
      for (const [name, limitMb] of [
        ["gzip", 1],
        ["br", 1],
        ["gzip at the default limit", 32],
      ] as const) {
        expect(result.bombs[name].outcome, name).toBe("invalid_response");
        expect(result.bombs[name].grewMb, name).toBeLessThan(limitMb + 80);
      }
      // A body sent with both content-length (10 or 0) and chunked is bounded too: Bun and Deno read it
      // as chunked, past its length (Node refuses it); the process grows by tens of MB at most.
      for (const length of ["10", "0"]) {
        const { outcome, grewMb } = result.lengthAndChunked[length];
        expect(outcome, length).toBe(runtime === "node" ? "network" : "invalid_response");
        expect(grewMb, length).toBeLessThan(1 + 80);
      }
      // A list of 1,000 content codings: on Bun the SDK undoes codings itself, at most 5 as undici does;
      // Node's fetch refuses the list, and Deno's hands the body over as sent.
      const codingChain = {
        bun: {
          outcome: "invalid_response",
          message: "GET /v1/accounts answered 1000 content codings, more than 5",
        },
        node: { outcome: "network", message: expect.stringContaining("too many content-encodings") },
        deno: { outcome: "read whole", message: "" },
      };
      expect(result.longCodingChain).toEqual(codingChain[runtime]);
      // Codings Node's fetch (undici) takes in its stride, and Bun's through the SDK's own inflation: a
      // 404 with a gzip coding and no bytes keeps its status, and deflate sent raw is read. Deno's fetch
      // undoes codings itself, whatever the request says, and fails both (its own choice: README).
      const read = { status: 200, data: { data: [], links: {} } };
      expect(result.codedBodies).toEqual(
        runtime === "deno"
          ? {
              "empty gzip 404": { thrown: "network" },
              "raw deflate": { thrown: "invalid_response" },
              "raw deflate, a byte a chunk": { thrown: "invalid_response" },
            }
          : { "empty gzip 404": { status: 404 }, "raw deflate": read, "raw deflate, a byte a chunk": read },
      );
      // Every runtime's default fetch asks for compressed bodies (on Bun the SDK asks, as it undoes them
      // itself): Node's and Bun's gzip and deflate among others, Deno's gzip and br, the two it undoes.
      expect(result.acceptEncoding).toMatch(runtime === "deno" ? /gzip.*br/ : /gzip.*deflate/);
      // Every runtime's connection failures are named (Deno's by its words: it gives no code), and an
      // untrusted certificate is not retried.
      expect(result.untrustedCertificate).toEqual({
        message: expect.stringMatching(
          /^POST \/v1\/token failed: certificate not trusted \(.+\); to trust a private CA, see the SDK README's “Trusting a private CA”$/,
        ),
        retryable: false,
      });
      expect(result.connectionRefused).toEqual({
        message: expect.stringMatching(/^POST \/v1\/token failed: connection refused \(.+\)$/),
        retryable: true,
      });
      expect(result.httpsToPlainHttp).toEqual({
        message: expect.stringMatching(
          /^POST \/v1\/token failed: TLS handshake failed \(a plain-http port\?\) \(.+\)$/,
        ),
        retryable: false,
      });
    },
  );

  it("under Deno without --allow-read, importing the sandbox names the flag it needs, once", () => {
    writeFileSync(join(dir, "import-sandbox.mjs"), 'import "@cdas/mock-server";\n');
    const { command, args, env } = runWith("deno", dir, "import-sandbox.mjs", undefined, ["--allow-net"]);
    const failure = (() => {
      try {
        run(command, args, { cwd: dir, env });
        return "";
      } catch (error) {
        return String((error as Error).message);
      }
    })();
    // The message itself (Deno prints its cause, which names the flag too, on a line of its own).
    const message = failure.split("\n").find((line) => line.includes("Cannot read the version registry at "));
    expect(message).toContain("run again with the --allow-read flag");
    expect(message?.match(/--allow-read/g)).toHaveLength(1);
  });

  it("under Deno, cdas-mock allowed to write its CA file but not to read its folder still closes and exits 0 on stop", async () => {
    // Deno asks read access to remove a file: the refusal escaped the signal handler, the sandbox was
    // never closed and the process exited 1.
    const bin = join(dir, "node_modules/@cdas/mock-server/bin/cdas-mock.js");
    const narrow = ["--allow-net=127.0.0.1", "--allow-read=node_modules", "--allow-write=/tmp/cdas-mock"];
    const { command, args, env } = runWith("deno", dir, bin, undefined, narrow);
    const server = await start(command, [...args, "--port", "0", "--quiet"], {
      cwd: dir,
      env,
      ready: /listening on/,
    });
    const caFile = /CA certificate: (\S+)/.exec(server.output())![1]!;
    try {
      expect(await server.stop()).toBe(0);
      expect(server.output()).toContain(`cdas-mock: could not remove ${caFile}: Requires read access`);
    } finally {
      rmSync(caFile, { force: true });
    }
  });

  it.each(RUNTIME_NAMES)(
    "under %s: the example against cdas-mock started from the installed bin",
    async (runtime) => {
      const caFile = join(dir, `ca-${runtime}.pem`);
      const cliArgs = ["--port", "0", "--quiet", "--ca-file", caFile];
      const bin = join(dir, "node_modules/@cdas/mock-server/bin/cdas-mock.js");
      const server =
        runtime === "node"
          ? // Node through the bin link the installer made, as a user's `npx -p @cdas/mock-server cdas-mock` would.
            await start(join(dir, "node_modules/.bin/cdas-mock"), cliArgs, {
              cwd: dir,
              ready: /listening on/,
            })
          : await (() => {
              // Under Deno, the permissions the sandbox README gives the bin (writing the CA file's folder).
              const cliPermissions = ["--allow-net", "--allow-read", `--allow-write=${dir}`];
              const { command, args, env } = runWith(runtime, dir, bin, undefined, cliPermissions);
              return start(command, [...args, ...cliArgs], { cwd: dir, env, ready: /listening on/ });
            })();
      try {
        const url = /listening on (https:\/\/\S+)/.exec(server.output())![1]!;
        const clientId = /Client id: +(\S+)/.exec(server.output())![1]!;
        const clientSecret = /Client secret: +(\S+)/.exec(server.output())![1]!;
        const { command, args, env } = runWith(runtime, dir, "dist/main.js", caFile);
        const output = run(command, args, {
          cwd: dir,
          env: { ...env, CDAS_BASE_URL: url, CDAS_CLIENT_ID: clientId, CDAS_CLIENT_SECRET: clientSecret },
        });
        console.log(`${installer} / ${runtime} example:\n${output.split("\n").slice(-3).join("\n")}`);
        expect(output).toMatch(/accounts: [1-9]\d*, transactions: [1-9]\d*/);
        expect(output).toContain("refused as expected: 400 invalid_field_type: ");
      } finally {
        // cdas-mock closes and exits cleanly on SIGTERM under every runtime.
        expect(await server.stop()).toBe(0);
      }
    },
  );
});
