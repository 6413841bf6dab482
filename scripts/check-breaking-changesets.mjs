#!/usr/bin/env node
// Fails when a spec version changes in a breaking way and no pending changeset gives the affected
// packages (@cdas/spec and that version's client) a breaking bump: major from 1.0.0, minor before it
// (semver's 0.x, where changesets takes 0.y to 0.(y+1)). Used by the CI job on pull requests.
//
//   node scripts/check-breaking-changesets.mjs <from> [<to>] [--changesets <dir>]
//
// <from> and <to> name one document per version (of spec/versions.json) with `{version}` in place of
// the version's name, in any form `pnpm spec:diff` reads: `origin/main:{version}` (the base branch's
// sources), `{version}` (this tree, the default <to>) or a bundle file. Prints each version's breaking changes (Markdown).
// Exit codes: 0 covered or nothing breaking, 1 a breaking bump is missing, 2 usage or input error.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseRegistry, readRegistry } from "../spec/registry/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The versions of this tree's registry (spec/versions.json). */
export const VERSIONS = readRegistry(join(ROOT, "spec")).versions;

/** The packages a breaking change of one API version must bump as major. */
export function packagesAffectedBy(version) {
  return ["@cdas/spec", `@cdas/client-${version}`];
}

const RANK = { patch: 1, minor: 2, major: 3 };

/** Package name to its highest bump among the pending changesets of `dir` (front matter only). */
export function pendingBumps(dir) {
  const bumps = new Map();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".md") && name !== "README.md")) {
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(dir, file), "utf8"));
    for (const line of front?.[1].split(/\r?\n/) ?? []) {
      const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line);
      if (!entry) continue;
      const [, name, bump] = entry;
      if ((RANK[bump] ?? 0) > (RANK[bumps.get(name)] ?? 0)) bumps.set(name, bump);
    }
  }
  return bumps;
}

/**
 * The bump a breaking change needs of a package now at `version`: major from 1.0.0; before it minor,
 * as semver's 0.x has it (a major would take 0.0.0 to 1.0.0 instead of the first release, 0.1.0).
 */
export function breakingBump(version) {
  return Number(version.split(".")[0]) >= 1 ? "major" : "minor";
}

/** A workspace package's version in this tree, by name (@cdas/spec is spec/, the others packages/<name>). */
function currentVersion(name) {
  const dir = name === "@cdas/spec" ? "spec" : join("packages", name.replace(/^@cdas\//, ""));
  return JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")).version;
}

/**
 * The packages whose pending bump is below the breaking one, given the versions with breaking
 * changes: `[name, bump needed]`, by name. `versionOf` gives a package's current version.
 */
export function missingBumps(breakingVersions, bumps, versionOf = currentVersion) {
  const needed = [...new Set(breakingVersions.flatMap(packagesAffectedBy))].sort();
  return needed
    .map((name) => [name, breakingBump(versionOf(name))])
    .filter(([name, bump]) => (RANK[bumps.get(name)] ?? 0) < RANK[bump]);
}

/**
 * Whether the `from` side has `version` at all: a version it lacks is new in this change, with
 * nothing to break. `<rev>:{version}` asks that revision's registry; a file template, whether the file exists.
 */
export function fromHasVersion(fromTemplate, version) {
  const revision = /^(.+):\{version\}$/.exec(fromTemplate)?.[1];
  if (revision !== undefined) {
    const registry = execFileSync("git", ["show", `${revision}:spec/versions.json`], {
      cwd: ROOT,
      encoding: "utf8",
    });
    return parseRegistry(JSON.parse(registry), `${revision}:spec/versions.json`).versions.includes(version);
  }
  if (fromTemplate === "{version}") return true;
  return existsSync(fromTemplate.replaceAll("{version}", version));
}

/** Runs spec:diff for one version: true when it reports a breaking change. */
function isBreaking(from, to, version) {
  const result = spawnSync(
    process.execPath,
    [join(ROOT, "spec/scripts/spec-diff.mjs"), from, to, "--fail-on", "breaking", "--format", "md"],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
  );
  if (result.status === 2 || result.status === null)
    throw new Error(`spec:diff ${from} ${to} failed: ${result.stderr}`);
  if (result.status === 1) process.stdout.write(`### Breaking changes in ${version}\n\n${result.stdout}\n`);
  return result.status === 1;
}

function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { changesets: { type: "string", default: join(ROOT, ".changeset") } },
  });
  const [fromTemplate, toTemplate = "{version}"] = positionals;
  if (!fromTemplate?.includes("{version}") || !toTemplate.includes("{version}") || positionals.length > 2) {
    process.stderr.write(
      "Usage: check-breaking-changesets.mjs <from-with-{version}> [<to>] [--changesets <dir>]\n",
    );
    return 2;
  }
  if (!existsSync(values.changesets)) {
    process.stderr.write(`no changeset folder at ${values.changesets}\n`);
    return 2;
  }
  const fill = (template, version) => template.replaceAll("{version}", version);
  const compared = VERSIONS.filter((version) => {
    if (fromHasVersion(fromTemplate, version)) return true;
    console.log(`${version} is new in this change: nothing of it can break.`);
    return false;
  });
  const breaking = compared.filter((version) =>
    isBreaking(fill(fromTemplate, version), fill(toTemplate, version), version),
  );
  const missing = missingBumps(breaking, pendingBumps(values.changesets));
  if (breaking.length === 0) console.log("No breaking spec change.");
  else if (missing.length === 0)
    console.log(
      `Breaking changes in ${breaking.join(", ")} carry breaking bumps (major, or minor while 0.x).`,
    );
  else {
    const list = missing.map(([name, bump]) => `${name} (${bump})`).join(", ");
    console.log(
      `Breaking changes in ${breaking.join(", ")} need a changeset with a breaking bump for: ${list} (pnpm changeset; before 1.0.0 a minor is the breaking bump).`,
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  }
}
