/**
 * A fresh project outside the repository that depends on the packed tarballs alone: the copyable
 * example (examples/typescript) plus the runtime check of fixtures/, installed with npm or pnpm,
 * compiled by a strict `tsc` (skipLibCheck off).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NPM_CACHE, ROOT, run, TSC } from "./workspace.js";

export type Installer = "npm" | "pnpm";
const FIXTURES = fileURLToPath(new URL("../fixtures", import.meta.url));

/** Copies the example into a temp dir, adds the runtime check, and points every @cdas package at its tarball. */
export function createConsumerProject(installer: Installer, tarballs: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), `cdas-consumer-${installer}-`));
  const example = join(ROOT, "examples/typescript");
  cpSync(join(example, "src"), join(dir, "src"), { recursive: true });
  cpSync(join(example, "tsconfig.json"), join(dir, "tsconfig.json"));
  cpSync(join(FIXTURES, "runtime-check.ts"), join(dir, "src/runtime-check.ts"));
  const manifest = JSON.parse(readFileSync(join(example, "package.json"), "utf8"));
  const local = Object.fromEntries(Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`]));
  // Every @cdas package, asked for directly or by another one, comes from its tarball, never the registry.
  manifest.dependencies = { ...local };
  manifest.devDependencies = { "@types/node": manifest.devDependencies["@types/node"] };
  if (installer === "npm") manifest.overrides = local;
  // pnpm reads its overrides from pnpm-workspace.yaml (pnpm 11 and later only there); JSON is YAML.
  else
    writeFileSync(join(dir, "pnpm-workspace.yaml"), `packages: ["."]\noverrides: ${JSON.stringify(local)}\n`);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}

/** Installs with the chosen client, preferring packages already in its cache. */
export function install(installer: Installer, dir: string): void {
  if (installer === "npm") {
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--cache", NPM_CACHE], {
      cwd: dir,
    });
  } else {
    // pnpm's own store, shared with the workspace: its isolated (strict) layout, no hoisting.
    run("pnpm", ["install", "--prefer-offline", "--config.node-linker=isolated"], { cwd: dir });
  }
}

/** Compiles the project with TypeScript 5.9 under its strict tsconfig. */
export function compile(dir: string): string {
  return run(TSC, ["-p", "tsconfig.json"], { cwd: dir });
}

/**
 * A CommonJS project inside `dir` (whose node_modules it uses), compiled as NestJS and older Node
 * projects compile (`module` commonjs, `moduleResolution` node10, which reads `types` and `main`, not
 * `exports`), strict with skipLibCheck off. Returns its folder; `dist/main.js` is the fixture compiled.
 */
export function createCommonJsProject(dir: string): string {
  const project = join(dir, "commonjs");
  mkdirSync(join(project, "src"), { recursive: true });
  cpSync(join(FIXTURES, "commonjs-check.ts"), join(project, "src/main.ts"));
  writeFileSync(join(project, "package.json"), '{ "type": "commonjs" }\n');
  const compilerOptions = {
    target: "ES2022",
    module: "commonjs",
    moduleResolution: "node10",
    lib: ["ES2022", "DOM"],
    types: ["node"],
    strict: true,
    skipLibCheck: false,
    esModuleInterop: true,
    outDir: "dist",
    rootDir: "src",
  };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }));
  compile(project);
  return project;
}
