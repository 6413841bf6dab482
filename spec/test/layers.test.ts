// The source layers (scripts/layers.mjs): a version folder holds only what its version changes. Unlike the
// other suites this one reads the sources, since the layering exists only there.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { layersOf, versions } from "../scripts/layers.mjs";
import { type Node, SPEC_DIR } from "./helpers";

/**
 * Words, not structure: two files that differ only here are the same file. Examples count as content:
 * a version whose schema changes needs examples of its own shape.
 */
const ANNOTATIONS = new Set(["description", "summary"]);

function structure(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(structure);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node as Node)
      .filter(([key]) => !ANNOTATIONS.has(key))
      .map(([key, value]) => [key, structure(value)]),
  );
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

const readStructure = (path: string) => structure(parse(readFileSync(path, "utf8")));

const allVersions: string[] = versions();
const otherLayers = (own: string) => ["shared", ...allVersions].filter((layer) => layer !== own);

describe("version folders hold only what differs", () => {
  const rows = allVersions.flatMap((version) =>
    filesBelow(join(SPEC_DIR, version))
      .filter((file) => file !== "info.yaml") // every version has its own, of the same keys
      .map((file) => [`${version}/${file}`, version, file] as const),
  );

  it("there are version files to check", () => {
    expect(rows.length).toBeGreaterThan(10);
  });

  it.each(rows)("%s differs in structure from the same file in every other layer", (_, version, file) => {
    const own = readStructure(join(SPEC_DIR, version, file));
    // A file no other layer has (a schema new in this version) trivially differs: its list is empty.
    const counterparts = otherLayers(version)
      .map((layer) => join(SPEC_DIR, layer, file))
      .filter((other) => existsSync(other));
    expect(counterparts.map(readStructure), "a layer with the same structure").not.toContainEqual(own);
  });

  it.each(allVersions)("%s is shared/ and every earlier version, then its own folder", (version) => {
    const index = allVersions.indexOf(version);
    expect(layersOf(version)).toEqual(["shared", ...allVersions.slice(0, index + 1)]);
  });
});
