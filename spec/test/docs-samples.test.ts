// The code samples of the reference (scripts/lib/code-samples.mjs): every curl sample runs, as shown,
// against the sandbox (cdas-mock, started in-process from the workspace's build; only its address and
// CA file are swapped for those of this run), and every TypeScript sample compiles against the
// workspace's @cdas/sdk and @cdas/client-vN types.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responseExamples } from "../openapi/index.js";
import { operationSamples, SANDBOX } from "../scripts/lib/code-samples.mjs";
import { listOperations } from "../scripts/lib/openapi-walk.mjs";
import { typeCheck, VERSIONS } from "./helpers";

const SPEC_DIR = path.resolve(import.meta.dirname, "..");
const REPO = path.resolve(SPEC_DIR, "..");
// The sandbox is not a dependency of @cdas/spec (it depends on the spec: a cycle); spec/turbo.json
// makes this package's tests wait for its build and the SDK's.
const MOCK_SERVER = path.join(REPO, "packages", "mock-server", "dist", "index.js");

type Sample = { lang: string; label: string; source: string };
type Entry = { version: string; operation: string; samples: Sample[]; firstExample: unknown };

/** The ids of the records a list shows (`id`, `account_id`, ...): a bare array, or the body's first array member. */
function recordIds(value: unknown): string[] {
  const list = Array.isArray(value)
    ? value
    : Object.values((value ?? {}) as Record<string, unknown>).find(Array.isArray);
  return ((list as unknown[] | undefined) ?? []).map((record) =>
    Object.entries((record ?? {}) as Record<string, unknown>)
      .filter(([key]) => /(^|_)id$/.test(key))
      .map(([key, id]) => `${key}=${String(id)}`)
      .join(" "),
  );
}

function samplesOf(version: string): Entry[] {
  const doc = JSON.parse(readFileSync(path.join(SPEC_DIR, "dist", `${version}.json`), "utf8"));
  return listOperations(doc).map(
    ({ method, path: p, label }: { method: string; path: string; label: string }) => {
      const item = doc.paths[p];
      return {
        version,
        operation: label,
        samples: operationSamples(doc, version, { method, path: p, item, operation: item[method] }),
        firstExample: responseExamples(doc, item[method])[0]?.value,
      };
    },
  );
}
const ENTRIES = VERSIONS.flatMap(samplesOf);

function runBash(script: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("bash", ["-c", script], { encoding: "utf8", timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ stdout, stderr: stderr || (error ? String(error.message) : "") }),
    );
  });
}

describe("curl samples against the sandbox", () => {
  let sandbox: {
    url: string;
    ca: string;
    clientId: string;
    clientSecret: string;
    close: () => Promise<void>;
  };
  let caFile: string;
  let work: string;

  beforeAll(async () => {
    if (!existsSync(MOCK_SERVER))
      throw new Error(`${MOCK_SERVER} is missing: pnpm --filter @cdas/mock-server build`);
    const { startMockServer } = await import(MOCK_SERVER);
    sandbox = await startMockServer();
    work = mkdtempSync(path.join(tmpdir(), "cdas-samples-"));
    caFile = path.join(work, "ca.pem");
    writeFileSync(caFile, sandbox.ca);
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("every curl call sends the headers the interface asks of every request (accept, the version)", () => {
    for (const entry of ENTRIES) {
      const curl = entry.samples.find((s) => s.label === "curl")!.source;
      const call = curl.slice(curl.lastIndexOf("curl -s"));
      expect(call, entry.operation).toContain("-H 'accept: application/json; charset=UTF-8'");
      expect(call, entry.operation).toContain(`-H 'x-platform-version: ${entry.version}'`);
    }
  });

  it("the samples use the credentials `cdas-mock` starts with", () => {
    expect(sandbox.clientId).toBe(SANDBOX.clientId);
    expect(sandbox.clientSecret).toBe(SANDBOX.clientSecret);
  });

  it.each(ENTRIES.map((e) => [`${e.version} ${e.operation}`, e] as const))("%s", async (_name, entry) => {
    const curl = entry.samples.find((s) => s.label === "curl")!.source;
    // As shown, with this run's address and CA; the status code is appended to read the outcome.
    const script = `set -euo pipefail\n${curl
      .replaceAll(SANDBOX.url, sandbox.url)
      .replaceAll(SANDBOX.caFile, caFile)} -w '\n%{http_code}'`;
    // Asynchronous: the sandbox answers from this process's event loop.
    const run = await runBash(script);
    expect(run.stderr, script).toBe("");
    const status = run.stdout.slice(run.stdout.lastIndexOf("\n") + 1);
    expect(status, script).toMatch(/^2\d\d$/);
    // When the reference's first example is a page (it has links), the answer is that page: the
    // records it shows, in order (by their ids), and its links, as the example writes them.
    const example = entry.firstExample;
    if (typeof example === "object" && example !== null && "links" in example) {
      const served = JSON.parse(run.stdout.slice(0, run.stdout.lastIndexOf("\n")));
      expect(recordIds(served), script).toEqual(recordIds(example));
      expect(served.links ?? {}, script).toEqual((example as { links: unknown }).links ?? {});
    }
  });
});

describe("TypeScript samples", () => {
  it("a client sample reads the access token from the variable its client's README names", () => {
    for (const version of VERSIONS) {
      const readme = readFileSync(path.join(REPO, "packages", `client-${version}`, "README.md"), "utf8");
      const named = [...readme.matchAll(/process\.env\.(CDAS_\w*TOKEN)/g)].map((match) => match[1]);
      expect(
        new Set(named),
        `packages/client-${version}/README.md reads the access token as process.env.CDAS_ACCESS_TOKEN (and by no other name), as the reference's samples do: its sample of a call with a token ("A first call", which pnpm client:new writes)`,
      ).toEqual(new Set(["CDAS_ACCESS_TOKEN"]));
      const bearerSamples = ENTRIES.filter((entry) => entry.version === version)
        .map((entry) => entry.samples.find((s) => s.label === `@cdas/client-${version}`)!.source)
        .filter((source) => source.includes("Authorization"));
      expect(bearerSamples.length, version).toBeGreaterThan(0);
      for (const source of bearerSamples) {
        expect([...source.matchAll(/process\.env\.(CDAS_\w*TOKEN)/g)].map((m) => m[1])).toEqual([
          "CDAS_ACCESS_TOKEN",
        ]);
      }
    }
  });

  it("every TypeScript sample names, in its comments, each variable it reads: a copy run as its comments say works", () => {
    for (const entry of ENTRIES) {
      for (const { label, source } of entry.samples.filter((s) => s.label !== "curl")) {
        const comments = source
          .split("\n")
          .filter((line) => line.startsWith("//"))
          .join("\n");
        // The client's token sample read CDAS_CLIENT_SECRET without saying so: as copied, it got a 401.
        for (const [, name] of source.matchAll(/process\.env\.(\w+)/g))
          expect(comments, `${entry.version} ${entry.operation} ${label}`).toContain(`${name}=`);
      }
    }
  });

  it("every sample compiles against the workspace's @cdas/sdk and @cdas/client-vN types", () => {
    const dir = mkdtempSync(path.join(SPEC_DIR, "node_modules", ".cdas-samples-"));
    try {
      const files: string[] = [];
      for (const entry of ENTRIES) {
        entry.samples
          .filter((s) => s.lang === "TypeScript")
          .forEach((sample, i) => {
            const name = `${entry.version}-${entry.operation.replace(/[^a-z0-9]+/gi, "_")}-${i}.ts`;
            writeFileSync(path.join(dir, name), sample.source);
            files.push(name);
          });
      }
      const typesOf = (pkg: string) => [path.join(REPO, "packages", pkg, "dist", "index.d.ts")];
      writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "ESNext",
            moduleResolution: "Bundler",
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: ["node"],
            lib: ["ES2022", "DOM"],
            paths: Object.fromEntries(
              ["sdk", ...VERSIONS.map((v) => `client-${v}`)].map((p) => [`@cdas/${p}`, typesOf(p)]),
            ),
          },
          files,
        }),
      );
      const output = typeCheck(dir);
      expect(files.length).toBe(ENTRIES.length * 2);
      expect(output).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

it("the published bundles carry no samples (only Redoc's copy does)", () => {
  for (const version of VERSIONS) {
    expect(readFileSync(path.join(SPEC_DIR, "dist", `${version}.json`), "utf8")).not.toContain(
      "x-codeSamples",
    );
  }
});
