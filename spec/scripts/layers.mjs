#!/usr/bin/env node
// Materialises each version's source tree in .layers/<version>/: shared/, then v1/, v2/, ... up to the
// version itself, a later file replacing the earlier one at the same relative path. A version folder
// therefore holds only what that version changes, and every relative $ref of an unchanged file (in
// shared/ or an earlier version) lands on the version's own form. The trees are symbolic links to the
// sources, so lint locations open the real file. The versions and their order are the APIs of
// redocly.yaml, whose roots are .layers/<version>/openapi.yaml. Run before `redocly lint` and `bundle`.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const SPEC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BASE_LAYER = "shared";

/** Relative paths of every file below `dir`. */
function filesBelow(dir, prefix = "") {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    return entry.isDirectory() ? filesBelow(path.join(dir, entry.name), relative) : [relative];
  });
}

/** The versions in the order redocly.yaml declares them; each is based on the one before. */
export function versions(specDir = SPEC_DIR) {
  const config = parse(readFileSync(path.join(specDir, "redocly.yaml"), "utf8"));
  return Object.keys(config?.apis ?? {});
}

/** Layer folders of one version, base first: shared, v1, ..., version. */
export function layersOf(version, specDir = SPEC_DIR) {
  const all = versions(specDir);
  const index = all.indexOf(version);
  if (index < 0) throw new Error(`${version} is not an API of redocly.yaml (${all.join(", ")})`);
  return [BASE_LAYER, ...all.slice(0, index + 1)];
}

/** Writes .layers/<version>/ for every version; returns the number of files per version. */
export function materialise(specDir = SPEC_DIR) {
  const outDir = path.join(specDir, ".layers");
  rmSync(outDir, { recursive: true, force: true });
  const counts = {};
  for (const version of versions(specDir)) {
    const tree = new Map();
    for (const layer of layersOf(version, specDir)) {
      const layerDir = path.join(specDir, layer);
      for (const file of filesBelow(layerDir)) tree.set(file, path.join(layerDir, file));
    }
    for (const [file, source] of tree) {
      const target = path.join(outDir, version, file);
      mkdirSync(path.dirname(target), { recursive: true });
      symlinkSync(path.relative(path.dirname(target), source), target);
    }
    counts[version] = tree.size;
  }
  return counts;
}

// Run as a script (`node scripts/layers.mjs`), not when imported.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) materialise();
