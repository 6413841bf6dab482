// `pnpm spec:diff`: the three output formats, the exit codes a CI job relies on, and the input forms.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffDocuments } from "../scripts/lib/spec-diff.mjs";

const SPEC_DIR = path.resolve(import.meta.dirname, "..");
const BEFORE = "test/fixtures/diff/before.json";
const AFTER = "test/fixtures/diff/after.json";

function specDiff(...args: string[]) {
  const run = spawnSync(process.execPath, ["scripts/spec-diff.mjs", ...args], {
    cwd: SPEC_DIR,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", INIT_CWD: SPEC_DIR },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const expected = diffDocuments(
  JSON.parse(readFileSync(path.join(SPEC_DIR, BEFORE), "utf8")),
  JSON.parse(readFileSync(path.join(SPEC_DIR, AFTER), "utf8")),
);

describe("spec:diff output formats", () => {
  it("text lists every change with class, operations, pointer, old and new", () => {
    const { code, stdout } = specDiff(BEFORE, AFTER);
    expect(code).toBe(0);
    expect(stdout).toContain(
      `${expected.counts.total} changes: ${expected.counts.breaking} breaking, ${expected.counts["non-breaking"]} non-breaking`,
    );
    expect(stdout.match(/^\[(breaking|non-breaking|annotation)\]/gm)).toHaveLength(expected.counts.total);
    expect(stdout).toContain("pointer:    /components/schemas/Consent/properties/arrangement_id");
    expect(stdout).toContain("operations: GET /v1/consent (response)");
    expect(stdout).toContain('old:        {"type":"string"}');
    expect(stdout).toContain("new:        (absent)");
  });

  it("JSON holds the same report as the library", () => {
    const { code, stdout } = specDiff(BEFORE, AFTER, "--format", "json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.counts).toEqual(expected.counts);
    expect(report.changes.map((c: { pointer: string }) => c.pointer)).toEqual(
      expected.changes.map((c: { pointer: string }) => c.pointer),
    );
    expect(report.from.label).toBe("before");
    expect(report.to.label).toBe("after");
  });

  it("Markdown has the summary and one table per class", () => {
    const { code, stdout } = specDiff(BEFORE, AFTER, "--format", "md");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^# Changes before → after/);
    expect(stdout).toContain(`## Breaking (${expected.counts.breaking})`);
    expect(stdout).toContain(`## Non-breaking (${expected.counts["non-breaking"]})`);
    expect(stdout).toContain("| Change | Operations | Pointer | Old | New | Why |");
    expect(stdout).toContain(
      "`/paths/~1v1~1consent/get/responses/200/content/application~1json/schema/type`",
    );
  });
});

describe("spec:diff exit codes", () => {
  it("--fail-on breaking exits 1 when breaking changes exist and 0 when none do", () => {
    expect(specDiff(BEFORE, AFTER, "--fail-on", "breaking").code).toBe(1);
    expect(specDiff(BEFORE, BEFORE, "--fail-on", "breaking").code).toBe(0);
  });

  it("--fail-on applies to the class and worse, in the direction given", () => {
    const reverse = diffDocuments(
      JSON.parse(readFileSync(path.join(SPEC_DIR, AFTER), "utf8")),
      JSON.parse(readFileSync(path.join(SPEC_DIR, BEFORE), "utf8")),
    );
    expect(reverse.counts.breaking).toBeGreaterThan(0);
    expect(specDiff(AFTER, BEFORE, "--fail-on", "annotation").code).toBe(1);
    expect(specDiff(BEFORE, BEFORE, "--fail-on", "annotation").code).toBe(0);
  });

  it("usage and input errors exit 2 with a message", () => {
    const missing = specDiff(BEFORE);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Usage: pnpm spec:diff");
    expect(specDiff(BEFORE, AFTER, "--format", "xml").code).toBe(2);
    expect(specDiff(BEFORE, AFTER, "--fail-on", "everything").code).toBe(2);
    const unreadable = specDiff(BEFORE, "no-such-file.json");
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("no-such-file.json");
  });
});

describe("spec:diff inputs", () => {
  it("reads a committed file at a git revision (<rev>:<path>)", () => {
    const { code, stdout } = specDiff(`HEAD:spec/${BEFORE}`, BEFORE, "--format", "json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.from.label).toBe(`spec/${BEFORE}@HEAD`);
    expect(report.counts.total).toBe(0);
  });

  it("bundles a version's sources at a git revision (<rev>:<version>)", () => {
    const { code, stdout, stderr } = specDiff("HEAD:v2", "HEAD:v3", "--format", "json");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.from).toMatchObject({ label: "v2@HEAD", version: "v2" });
    expect(report.to).toMatchObject({ label: "v3@HEAD", version: "v3" });
    expect(report.counts.breaking).toBeGreaterThan(0);
  }, 120_000);

  it("reads a version by name", () => {
    const { code, stdout } = specDiff("v1", "v1", "--format", "json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout).counts.total).toBe(0);
  }, 60_000);
});
