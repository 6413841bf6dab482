// Loads the document named on the command line: a version (v1), a bundle file, or <git-rev>:<version>.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { readRegistry, VERSION_NAME } from "../../registry/index.js";
import { filesBelow, LAYERED_CONFIG, materialise } from "../layers.mjs";
import { isObject } from "./openapi-walk.mjs";

export const SPEC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const REDOCLY = path.join(SPEC_DIR, "node_modules", ".bin", "redocly");

/** The versions a spec folder defines: those of its registry (versions.json). */
export function knownVersions(specDir) {
  return readRegistry(specDir).versions;
}

/**
 * The OpenAPI document in `text`, read from `name`: a parse error, or a value that is no OpenAPI 3
 * document (an array, `null`, a document without `openapi` or `paths`), names the file, so that a
 * wrong or truncated artifact stops a CI gate instead of passing it.
 */
function parseDocument(text, name) {
  let doc;
  try {
    doc = name.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new Error(`${name} is not valid ${name.endsWith(".json") ? "JSON" : "YAML"}: ${error.message}`);
  }
  if (!isObject(doc) || typeof doc.openapi !== "string" || !doc.openapi.startsWith("3."))
    throw new Error(`${name} is not an OpenAPI 3 document (no "openapi": "3.x" at its top)`);
  if (!isObject(doc.paths))
    throw new Error(`${name} is not an OpenAPI document this diff reads: it has no "paths" object`);
  return doc;
}

/** The newest source file of a version (shared/, its lineage, the registry), by modification time. */
function newestSource(version) {
  const registry = readRegistry(SPEC_DIR);
  const folders = ["shared", ...registry.lineage(version)].map((folder) => path.join(SPEC_DIR, folder));
  const files = [
    path.join(SPEC_DIR, "versions.json"),
    ...folders.flatMap((dir) => filesBelow(dir).map((f) => path.join(dir, f))),
  ];
  return files.reduce(
    (newest, file) => {
      const time = statSync(file).mtimeMs;
      return time > newest.time ? { file, time } : newest;
    },
    { file: "", time: 0 },
  );
}

/**
 * Lays out the sources of `specDir` as its own revision does, and gives the `redocly` config arguments:
 * this tree materialises itself (scripts/layers.mjs, the registry's lineage, .layers/redocly.yaml); an
 * older revision runs its own layers.mjs, if it has one, with this package's modules; the oldest ones
 * have neither and keep their APIs in redocly.yaml.
 */
function layOut(specDir) {
  if (specDir === SPEC_DIR) materialise(specDir);
  else if (existsSync(path.join(specDir, "scripts", "layers.mjs"))) {
    if (!existsSync(path.join(specDir, "node_modules")))
      symlinkSync(path.join(SPEC_DIR, "node_modules"), path.join(specDir, "node_modules"), "dir");
    execFileSync(process.execPath, ["scripts/layers.mjs"], {
      cwd: specDir,
      stdio: ["ignore", "ignore", "pipe"],
    });
  }
  return existsSync(path.join(specDir, LAYERED_CONFIG)) ? ["--config", LAYERED_CONFIG] : [];
}

/** Bundles one version of the spec folder `specDir` into a temporary JSON file and parses it. */
export function bundleVersion(specDir, version) {
  const outDir = mkdtempSync(path.join(tmpdir(), "cdas-bundle-"));
  try {
    const config = layOut(specDir);
    const output = path.join(outDir, `${version}.json`);
    try {
      execFileSync(REDOCLY, ["bundle", version, ...config, "--output", output, "--ext", "json"], {
        cwd: specDir,
        env: { ...process.env, REDOCLY_TELEMETRY: "off" },
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (error) {
      const detail = String(error.stderr ?? "")
        .split("\n")
        .filter((line) => line.trim() && !/[║╔╚═]/.test(line))
        .slice(-6)
        .join("\n");
      throw new Error(`redocly bundle ${version} failed in ${specDir}:\n${detail}`);
    }
    return JSON.parse(readFileSync(output, "utf8"));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function gitTopLevel() {
  return execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: SPEC_DIR, encoding: "utf8" }).trim();
}

/**
 * `<rev>:<version>`: extracts that revision's spec/ sources with `git archive` into a temporary folder
 * and bundles them there (spec/dist is not committed). `<rev>:<path>` reads a committed file instead.
 */
function loadFromGit(rev, target) {
  const top = gitTopLevel();
  const specPrefix = path.relative(top, SPEC_DIR);
  if (!VERSION_NAME.test(target)) {
    const text = execFileSync("git", ["show", `${rev}:${target}`], { cwd: top, encoding: "utf8" });
    return parseDocument(text, target);
  }
  const work = mkdtempSync(path.join(tmpdir(), "cdas-rev-"));
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", rev, specPrefix], {
      cwd: top,
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", work], { input: archive });
    return bundleVersion(path.join(work, specPrefix), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Resolves one side of a comparison. `v1` reads dist/v1.json (or bundles the working tree when the
 * build has not run); a path reads that JSON or YAML file (relative to `cwd`); `<rev>:<vN>` bundles
 * that git revision's sources. Returns the label used in reports and the parsed document.
 */
export function loadSpec(argument, { cwd = process.env.INIT_CWD ?? process.cwd() } = {}) {
  if (VERSION_NAME.test(argument)) {
    const known = knownVersions(SPEC_DIR);
    if (!known.includes(argument)) {
      throw new Error(
        `${argument} is not a version of this spec: accepted ${known.join(", ")}, a bundle file (JSON or YAML), or <git-rev>:<version>.`,
      );
    }
    // The build's bundle, unless a source changed after it: then the working tree, bundled here, so
    // that a gate run after an edit compares the edit (and says so).
    const bundle = path.join(SPEC_DIR, "dist", `${argument}.json`);
    const built = existsSync(bundle) ? statSync(bundle).mtimeMs : undefined;
    const newest = built === undefined ? undefined : newestSource(argument);
    if (built !== undefined && newest.time > built)
      process.stderr.write(
        `spec:diff: dist/${argument}.json is older than ${path.relative(SPEC_DIR, newest.file)}: bundling ${argument} from the sources (pnpm build refreshes dist/)\n`,
      );
    const doc =
      built !== undefined && newest.time <= built
        ? parseDocument(readFileSync(bundle, "utf8"), bundle)
        : bundleVersion(SPEC_DIR, argument);
    return { label: argument, doc };
  }
  const candidates = [path.resolve(cwd, argument), path.resolve(process.cwd(), argument)];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file)
    return {
      label: path.basename(file).replace(/\.(json|ya?ml)$/, ""),
      doc: parseDocument(readFileSync(file, "utf8"), file),
    };
  const colon = argument.lastIndexOf(":");
  if (colon > 0) {
    const rev = argument.slice(0, colon);
    const target = argument.slice(colon + 1);
    return { label: `${target}@${rev}`, doc: loadFromGit(rev, target) };
  }
  const where = [...new Set([cwd, process.cwd()])].join(" or ");
  throw new Error(
    `Cannot read "${argument}": not a version (${knownVersions(SPEC_DIR).join(", ")}), an existing file (relative to ${where}), or <git-rev>:<version>.`,
  );
}
