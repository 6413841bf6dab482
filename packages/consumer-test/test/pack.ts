/**
 * Global setup: `pnpm pack` of every publishable package (what `pnpm publish` would upload), once for
 * all test files. The tarballs' paths reach the tests through `inject("tarballs")`.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { publishablePackages, run } from "./workspace.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Package name to the absolute path of its packed tarball. */
    tarballs: Record<string, string>;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "cdas-packed-"));
  const tarballs: Record<string, string> = {};
  for (const pkg of publishablePackages()) {
    const before = new Set(readdirSync(dir));
    run("pnpm", ["pack", "--pack-destination", dir], { cwd: pkg.dir });
    const file = readdirSync(dir).find((name) => !before.has(name) && name.endsWith(".tgz"));
    if (!file) throw new Error(`pnpm pack wrote no tarball for ${pkg.name}`);
    tarballs[pkg.name] = join(dir, file);
  }
  project.provide("tarballs", tarballs);
  return () => rmSync(dir, { recursive: true, force: true });
}
