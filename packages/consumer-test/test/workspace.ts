/** Where things are: the repository, its publishable packages, the runtimes, and a command runner. */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRegistry } from "@cdas/spec/registry";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const HERE = fileURLToPath(new URL("..", import.meta.url));

export interface WorkspacePackage {
  name: string;
  version: string;
  dir: string;
}

/** Every workspace package folder, relative to the root, as pnpm-workspace.yaml lays them out. */
export function workspaceDirs(): string[] {
  const dirs = ["spec", "examples", ...readdirSync(join(ROOT, "packages")).map((name) => `packages/${name}`)];
  return dirs.filter((dir) => existsSync(join(ROOT, dir, "package.json")));
}

/** Every workspace package that is not private. */
export function publishablePackages(): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const dir of workspaceDirs()) {
    const manifest = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as {
      name: string;
      version: string;
      private?: boolean;
    };
    if (!manifest.private)
      found.push({ name: manifest.name, version: manifest.version, dir: join(ROOT, dir) });
  }
  return found;
}

/** The API versions of the spec's registry, in release order: each has its client package. */
export const API_VERSIONS: string[] = readRegistry(join(ROOT, "spec")).versions;

/**
 * The runtimes, from this package's devDependencies (`bun` and `deno` ship their binaries on npm;
 * their postinstall puts them in place). The binaries themselves, not the `.bin` shims, so that a
 * signal reaches the runtime rather than a wrapper.
 */
export const RUNTIMES = {
  node: process.execPath,
  bun: installedBinary("node_modules/bun/bin/bun.exe"),
  deno: installedBinary("node_modules/deno/deno"),
} as const;

/** The path of a runtime binary that a postinstall put in place, or a clear error when it did not. */
function installedBinary(path: string): string {
  const file = join(HERE, path);
  // Bun ships a small placeholder that its postinstall replaces; Deno's postinstall adds the file.
  if (!existsSync(file) || statSync(file).size < 1024 * 1024) {
    throw new Error(
      `${file} is missing or a placeholder: its postinstall did not run (onlyBuiltDependencies in pnpm-workspace.yaml)`,
    );
  }
  return file;
}
export type Runtime = keyof typeof RUNTIMES;

export const TSC = join(HERE, "node_modules/.bin/tsc");

/** npm and pnpm with a cache kept between runs (third-party packages come from it when present). */
export const NPM_CACHE = join(HERE, "node_modules/.cache/consumer-npm");

/** Runs a command; throws with its output when it fails. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): string {
  try {
    return execFileSync(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
  }
}

export interface Started {
  /** Lines printed so far. */
  output: () => string;
  stop(): Promise<number | null>;
}

/**
 * Starts a long-running command and resolves once its output matches `ready` (or rejects when it
 * exits first, or after `timeoutMs`).
 */
export function start(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number },
): Promise<Started> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started: Started = {
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} not ready in time:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.test(output)) {
        clearTimeout(timer);
        resolve(started);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output}`));
    });
  });
}
