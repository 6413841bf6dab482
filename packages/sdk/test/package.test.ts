/** Checks of what @cdas/sdk publishes: publint, attw, both module formats, no Node built-in, size. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { build } from "esbuild";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Regression guard for the SDK's own code, minified and gzipped (dependencies excluded). */
const OWN_CODE_GZIP_BUDGET_BYTES = 6 * 1024;

describe("published package", () => {
  let packDir: string;
  let tarball: Uint8Array;

  beforeAll(() => {
    packDir = mkdtempSync(join(tmpdir(), "cdas-sdk-pack-"));
    execFileSync("pnpm", ["pack", "--pack-destination", packDir], { cwd: packageDir, stdio: "ignore" });
    const file = readdirSync(packDir).find((name) => name.endsWith(".tgz"));
    if (!file) throw new Error(`pnpm pack wrote no tarball in ${packDir}`);
    tarball = new Uint8Array(readFileSync(join(packDir, file)));
  });
  afterAll(() => rmSync(packDir, { recursive: true, force: true }));

  it("publint reports no problem, suggestions included", async () => {
    const { messages, pkg } = await publint({
      level: "suggestion",
      strict: true,
      pack: { tarball: tarball.slice().buffer },
    });
    expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
  });

  it("@arethetypeswrong/core reports no problem", async () => {
    const result = await checkPackage(createPackageFromTarballData(tarball));
    expect(result.types).not.toBe(false);
    if (result.types === false) return;
    expect(Object.keys(result.entrypoints)).toContain(".");
    expect(result.problems).toEqual([]);
  });

  it("the ESM and CommonJS builds load in Node and expose the same API", () => {
    const script = `
      const esm = await import("./dist/index.js");
      const cjs = (await import("node:module")).createRequire(import.meta.url)("./dist/index.cjs");
      const describe = (m) => {
        const sdk = m.createSdk({ version: "v2", baseUrl: "https://127.0.0.1", clientId: "id", clientSecret: "x" });
        return { exports: Object.keys(m).sort(), client: typeof sdk.client.GET, paginate: typeof sdk.paginate };
      };
      const crossGuard = esm.isCdasApiError(new cjs.CdasApiError({ status: 400, method: "GET", url: "u", body: {} }));
      console.log(JSON.stringify({ esm: describe(esm), cjs: describe(cjs), crossGuard }));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: packageDir,
      encoding: "utf8",
    });
    const { esm, cjs, crossGuard } = JSON.parse(output);
    expect(esm).toEqual({
      exports: ["CdasApiError", "CdasError", "createSdk", "isCdasApiError", "isCdasError"],
      client: "function",
      paginate: "function",
    });
    expect(cjs).toEqual(esm);
    expect(crossGuard).toBe(true);
  });
});

describe("runs outside Node", () => {
  it("src imports no Node built-in", () => {
    const sources = readdirSync(join(packageDir, "src")).map((name) =>
      readFileSync(join(packageDir, "src", name), "utf8"),
    );
    const imported = sources.flatMap((source) =>
      [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1] as string),
    );
    expect(imported.length).toBeGreaterThan(0);
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    expect(imported.filter((specifier) => builtins.has(specifier) || specifier.startsWith("node:"))).toEqual(
      [],
    );
  });

  it("bundles for a browser; the SDK's own code stays within its size budget", async () => {
    const bundle = (external: string[]) =>
      build({
        entryPoints: [join(packageDir, "dist/index.js")],
        bundle: true,
        minify: true,
        format: "esm",
        platform: "browser",
        write: false,
        logLevel: "silent",
        external,
      }).then((result) => gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length);
    const ownCode = await bundle(["openapi-fetch", "@cdas/client-v1", "@cdas/client-v2", "@cdas/client-v3"]);
    const withDependencies = await bundle([]);
    console.info(
      `@cdas/sdk min+gzip: own code ${ownCode} B, with openapi-fetch and the clients ${withDependencies} B`,
    );
    expect(ownCode).toBeLessThan(OWN_CODE_GZIP_BUDGET_BYTES);
    expect(withDependencies).toBeGreaterThan(ownCode);
  });
});
