// Checks of what a client package publishes: publint, attw, both module formats in Node, a browser bundle.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readClientConfig } from "../lib/bundle.mjs";
import { browserBundleGzipBytes, ownCodeGzipBytes } from "../lib/bundle-size.mjs";

/** Budget for dist/index.js plus openapi-fetch, minified and gzipped; a regression guard, not a timing. */
const RUNTIME_GZIP_BUDGET_BYTES = 8 * 1024;

export { browserBundleGzipBytes, ownCodeGzipBytes };

/** What the "ESM and CommonJS builds load" check runs and expects of one package. */
export interface LoadCheck {
  /** Module source run in the package directory; it imports both builds and prints one JSON line. */
  script: string;
  /** Assertions on the parsed JSON line. */
  expectOutput: (output: Record<string, unknown>) => void;
}

/** `pnpm pack` runs a process of its own: with every suite at once (`pnpm test`) it has taken over 10 s. */
const PACK_TIMEOUT_MS = 120_000;

/**
 * The checks every published package shares: publint (suggestions included) and
 * @arethetypeswrong/core on the packed tarball, and both module formats loading in Node.
 * `extra` adds package-specific tests to the same describe block.
 */
export function describePublishedPackage(packageDir: string, load: LoadCheck, extra?: () => void): void {
  describe("published package", () => {
    let packDir: string;
    let tarball: Uint8Array;

    beforeAll(() => {
      packDir = mkdtempSync(join(tmpdir(), "cdas-pack-"));
      execFileSync("pnpm", ["pack", "--pack-destination", packDir], { cwd: packageDir, stdio: "ignore" });
      const file = readdirSync(packDir).find((name) => name.endsWith(".tgz"));
      if (!file) throw new Error(`pnpm pack wrote no tarball in ${packDir}`);
      tarball = new Uint8Array(readFileSync(join(packDir, file)));
    }, PACK_TIMEOUT_MS);
    afterAll(() => rmSync(packDir, { recursive: true, force: true }));

    it("publint reports no problem, suggestions included", async () => {
      // Lints the packed tarball, the files a user installs.
      const { messages, pkg } = await publint({
        level: "suggestion",
        strict: true,
        pack: { tarball: tarball.slice().buffer },
      });
      expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
    });

    it("@arethetypeswrong/core reports no problem for any entry point and resolution mode", async () => {
      const result = await checkPackage(createPackageFromTarballData(tarball));
      expect(result.types).not.toBe(false);
      if (result.types === false) return;
      expect(Object.keys(result.entrypoints)).toContain(".");
      expect(result.problems).toEqual([]);
    });

    it("the ESM and CommonJS builds load in Node and expose the same API", () => {
      const output = execFileSync(process.execPath, ["--input-type=module", "-e", load.script], {
        cwd: packageDir,
        encoding: "utf8",
      });
      load.expectOutput(JSON.parse(output));
    });

    extra?.();
  });
}

export function describePackageChecks(packageDir: string): void {
  const { version } = readClientConfig(packageDir);
  const script = `
    const esm = await import("./dist/index.js");
    const cjs = (await import("node:module")).createRequire(import.meta.url)("./dist/index.cjs");
    const describe = (m) => ({ exports: Object.keys(m).sort(), apiVersion: m.apiVersion, createClient: typeof m.createClient,
      pagination: m.pagination, get: typeof m.createClient({ baseUrl: "https://127.0.0.1" }).GET });
    console.log(JSON.stringify({ esm: describe(esm), cjs: describe(cjs) }));`;
  const expectOutput = ({ esm, cjs }: Record<string, unknown>) => {
    const loaded = esm as { exports: string[]; pagination: object };
    expect(loaded.exports).toEqual(["apiVersion", "createClient", "pagination"]);
    expect(esm).toMatchObject({ apiVersion: version, createClient: "function", get: "function" });
    expect(Object.keys(loaded.pagination).length).toBeGreaterThan(0);
    expect(cjs).toEqual(esm);
  };
  describePublishedPackage(packageDir, { script, expectOutput }, () => {
    it("bundles for a browser (no Node built-in) within the size budget", async () => {
      const gzipBytes = await browserBundleGzipBytes(packageDir);
      console.info(`${packageDir}: dist/index.js + openapi-fetch, minified and gzipped: ${gzipBytes} bytes`);
      expect(gzipBytes).toBeLessThan(RUNTIME_GZIP_BUDGET_BYTES);
    });
  });
}
