// The source layers (scripts/layers.mjs): a version folder holds only what its version changes. Unlike the
// other suites this one reads the sources, since the layering exists only there.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { copyProblems, filesBelow, layersOf, versionCopies, versions } from "../scripts/layers.mjs";
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

// A version's copy of a file does not follow a later change to the file it copies: each names, in its
// first lines, the only places where it differs (scripts/layers.mjs, which refuses to lay out the
// versions otherwise, says how).
describe("a version's copy of a file differs from it only where its first lines say", () => {
  const copies = versionCopies().map(({ copy, original }) => [copy, original] as const);

  it("there are copies to check", () => {
    expect(copies.length).toBeGreaterThan(10);
  });

  it.each(copies)("%s, a copy of %s", (copy, original) => {
    expect(copyProblems({ copy, original })).toEqual([]);
  });

  describe("a copy that does not say where it differs is refused", () => {
    const original = "v1/components/schemas/RateTier.yaml";
    const copy = "v2/components/schemas/RateTier.yaml";
    let work: string;
    // copyProblems reads the two files alone, written here as each test needs them.
    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), "cdas-layers-"));
      for (const file of [original, copy]) mkdirSync(dirname(join(work, file)), { recursive: true });
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    const [first, ...rest] = readFileSync(join(SPEC_DIR, copy), "utf8").split("\n");
    const body = rest.filter((line) => !line.startsWith("#")).join("\n");
    const problemsWith = (originalText: string, copyText: string) => {
      writeFileSync(join(work, original), originalText);
      writeFileSync(join(work, copy), copyText);
      return copyProblems({ copy, original }, work);
    };
    const originalText = readFileSync(join(SPEC_DIR, original), "utf8");

    it("a change made to the original alone", () => {
      const changed = `${originalText}x-drift: true\n`;
      expect(problemsWith(changed, readFileSync(join(SPEC_DIR, copy), "utf8"))).toEqual([
        `${copy} differs from ${original} at /x-drift, which its first lines do not name: carry the change made to ${original} over to ${copy}, or, if the version changes it, name the place there`,
      ]);
    });

    it("no first line, an empty place, or a place where the two no longer differ", () => {
      expect(problemsWith(originalText, body)[0]).toMatch(
        `${copy}: its first line must be "# A copy of ${original} that`,
      );
      expect(problemsWith(originalText, `${first}\n#   \n${body}`)).toEqual([
        `${copy}: "#   " is not a line "#   /<JSON pointer>" (one place, no spaces)`,
      ]);
      const stale = `${first}\n#   /x-never\n${rest.join("\n")}`;
      expect(problemsWith(originalText, stale)).toEqual([
        `${copy} names /x-never, where it no longer differs from ${original}: remove the line`,
      ]);
    });
  });
});
