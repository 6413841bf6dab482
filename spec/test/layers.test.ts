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

/** The JSON pointers (RFC 6901) at which two parsed documents differ, as deep as both are objects. */
function differences(before: unknown, after: unknown, at = ""): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const bothObjects =
    typeof before === "object" &&
    before !== null &&
    typeof after === "object" &&
    after !== null &&
    Array.isArray(before) === Array.isArray(after);
  if (!bothObjects) return [at];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].flatMap((key) =>
    differences(
      (before as Node)[key],
      (after as Node)[key],
      `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`,
    ),
  );
}

const COPY_HEADER = /^# A copy of (\S+) that differs from it only at \(test\/layers\.test\.ts checks it\):$/;

/** What a version's copy says of itself in its first lines: the file it copies and where it differs. */
function declaredCopy(text: string): { of: string; differsAt: string[] } | undefined {
  const [first = "", ...rest] = text.split("\n");
  const of = COPY_HEADER.exec(first)?.[1];
  if (of === undefined) return undefined;
  const differsAt: string[] = [];
  for (const line of rest) {
    if (!line.startsWith("#   ")) break;
    differsAt.push(line.slice(4));
  }
  return { of, differsAt };
}

const isAtOrBelow = (pointer: string, declared: string) =>
  pointer === declared || pointer.startsWith(`${declared}/`);

// A version's copy of a file does not follow a later change to the file it copies: each names, in its
// first lines, the only places where it differs, so that a change made to the original alone fails here.
describe("a version's copy of a file differs from it only where its first lines say", () => {
  const copies = allVersions.flatMap((version) => {
    const earlier = layersOf(version).slice(0, -1).reverse();
    return filesBelow(join(SPEC_DIR, version))
      .filter((file) => file !== "info.yaml")
      .flatMap((file) => {
        const layer = earlier.find((candidate) => existsSync(join(SPEC_DIR, candidate, file)));
        return layer === undefined ? [] : [[`${version}/${file}`, `${layer}/${file}`] as const];
      });
  });

  it("there are copies to check", () => {
    expect(copies.length).toBeGreaterThan(10);
  });

  it.each(copies)("%s, a copy of %s", (copy, original) => {
    const text = readFileSync(join(SPEC_DIR, copy), "utf8");
    const declared = declaredCopy(text);
    expect(
      declared?.of,
      `${copy}'s first line: "# A copy of ${original} that differs from it only at (test/layers.test.ts checks it):", then a line "#   <JSON pointer>" for each place it changes`,
    ).toBe(original);
    const found = differences(parse(readFileSync(join(SPEC_DIR, original), "utf8")), parse(text));
    const undeclared = found.filter((pointer) => !declared?.differsAt.some((at) => isAtOrBelow(pointer, at)));
    expect(
      undeclared,
      `${copy} differs from ${original} where its first lines do not say: carry the change made to ${original} over to ${copy}, or, if ${copy} changes it on purpose, name the place in its first lines`,
    ).toEqual([]);
    const stale = (declared?.differsAt ?? []).filter(
      (at) => !found.some((pointer) => isAtOrBelow(pointer, at)),
    );
    expect(stale, `${copy} names places where it no longer differs from ${original}: remove them`).toEqual(
      [],
    );
  });
});
