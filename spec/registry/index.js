// Reads the version registry (spec/versions.json, copied to dist/versions.json beside the bundles) and
// checks it, so every reader (spec scripts, tests, sandbox) gets the same list, default and lineage.
import { readFileSync } from "node:fs";
import path from "node:path";

/** Version names are `v` and a number: bundles, docs and the loader's arguments (`v2`) rely on it. */
export const VERSION_NAME = /^v\d+$/;
export const REGISTRY_FILE = "versions.json";

function fail(source, message) {
  throw new Error(`${source}: ${message}`);
}

function checkEntry(entry, index, seen, source) {
  const where = `versions[${index}]`;
  if (typeof entry !== "object" || entry === null) fail(source, `${where} must be an object`);
  const { name, basedOn } = entry;
  // Not given: the names its base allows (a later version keeps its base's fields unless it changes them).
  const camelCaseProperties = entry.camelCaseProperties ?? seen.get(basedOn)?.camelCaseProperties ?? [];
  if (typeof name !== "string" || !VERSION_NAME.test(name))
    fail(source, `${where}.name must be v<number>, got ${JSON.stringify(name)}`);
  if (seen.has(name)) fail(source, `${name} is listed twice`);
  if (basedOn !== null && !seen.has(basedOn))
    fail(
      source,
      `${name}.basedOn must be null or an earlier version (${[...seen.keys()].join(", ") || "none"}), got ${JSON.stringify(basedOn)}`,
    );
  if (!Array.isArray(camelCaseProperties) || camelCaseProperties.some((p) => typeof p !== "string"))
    fail(source, `${name}.camelCaseProperties must be a list of property names`);
  return { name, basedOn, camelCaseProperties };
}

/**
 * Checks a parsed registry and gives `versions` (names in release order), `default`, `entries` by name
 * and `lineage(version)`: the versions it is built from, root first, ending with itself.
 */
export function parseRegistry(json, source = REGISTRY_FILE) {
  if (!Array.isArray(json?.versions) || json.versions.length === 0)
    fail(source, "`versions` must be a non-empty list");
  const entries = new Map();
  json.versions.forEach((entry, index) => {
    const checked = checkEntry(entry, index, entries, source);
    entries.set(checked.name, checked);
  });
  const versions = [...entries.keys()];
  if (!entries.has(json.default))
    fail(source, `default must be one of ${versions.join(", ")}, got ${JSON.stringify(json.default)}`);
  const entry = (version) => {
    const found = entries.get(version);
    if (!found) throw new Error(`${version} is not a version of ${source} (${versions.join(", ")})`);
    return found;
  };
  const lineage = (version) => {
    const chain = [];
    for (let at = entry(version); at; at = at.basedOn === null ? undefined : entries.get(at.basedOn)) {
      chain.unshift(at.name);
    }
    return chain;
  };
  return { source, versions, default: json.default, entries, entry, lineage };
}

/** The registry in `folder` (spec/ itself, or a bundle folder such as spec/dist). */
export function readRegistry(folder) {
  const file = path.join(folder, REGISTRY_FILE);
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    // Only a missing file means an unbuilt package; any other failure is said as it is (Deno's, without
    // --allow-read, names the flag itself).
    const said = String(cause?.message ?? cause);
    const why =
      cause?.code === "ENOENT"
        ? "build @cdas/spec (pnpm --filter @cdas/spec build)"
        : `${said}${said.includes("--allow-read") ? "" : " (under Deno, run with --allow-read)"}`;
    throw new Error(`Cannot read the version registry at ${file}: ${why}`, { cause });
  }
  return parseRegistry(JSON.parse(text), file);
}
