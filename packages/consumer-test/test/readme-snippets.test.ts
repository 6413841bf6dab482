/**
 * Every ```ts / ```typescript block of every README in the repository type-checks under `strict`
 * with skipLibCheck off, against the workspace packages as a user imports them. Each block is a
 * module of its own, so it must declare or import every name it uses. A block preceded by the line
 * `<!-- snippet: not compiled -->` is skipped: for fragments that cannot stand alone (use sparingly).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT, TSC } from "./workspace.js";

const SKIP_MARKER = "<!-- snippet: not compiled -->";
const FENCE = /^```(ts|typescript)\s*$/;

interface Snippet {
  readme: string;
  /** Line in the README of the snippet's first code line (1-based). */
  line: number;
  code: string;
}

/** The README files git knows, outside node_modules. */
function readmes(): string[] {
  const listed = execFileSync("git", ["ls-files", "*README.md", "**/README.md"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return [
    ...new Set(listed.split("\n").filter((file) => file !== "" && !file.includes("node_modules/"))),
  ].sort();
}

function extractSnippets(readme: string, text: string): Snippet[] {
  const lines = text.split("\n");
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const end = lines.findIndex((line, index) => index > i && line.startsWith("```"));
    if (end === -1) throw new Error(`${readme}:${i + 1}: a code block is never closed`);
    if (lines[i - 1]?.trim() !== SKIP_MARKER)
      snippets.push({ readme, line: i + 2, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return snippets;
}

const snippets = readmes().flatMap((readme) =>
  extractSnippets(readme, readFileSync(join(ROOT, readme), "utf8")),
);

/**
 * The `lib` settings snippets must compile under: a server project's (Node's globals only, as
 * `@tsconfig/node20` has it), and one that adds the DOM's (whose RequestInit, fetch and Response win).
 */
const LIBS = { "server (no DOM)": ["ES2022"], "with DOM": ["ES2022", "DOM"] };

/** tsc's diagnostics under `lib`, by README, with the README's own line numbers. */
function typeCheck(all: Snippet[], lib: string[]): Map<string, string[]> {
  // Inside this package, so `@cdas/*` resolve through its workspace links as they would from npm.
  const dir = fileURLToPath(
    new URL(`../node_modules/.cache/readme-snippets-${lib.join("-")}`, import.meta.url),
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = all.map((snippet, index) => {
    const file = `snippet-${index}.ts`;
    writeFileSync(join(dir, file), `${snippet.code}\nexport {};\n`);
    return file;
  });
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib,
    types: ["node"],
    strict: true,
    // The strictest settings users commonly add: what a README shows must compile under them too.
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
  };
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
  let output = "";
  try {
    execFileSync(TSC, ["-p", "tsconfig.json", "--pretty", "false"], { cwd: dir, encoding: "utf8" });
  } catch (error) {
    output = (error as { stdout: string }).stdout;
  }
  const byReadme = new Map<string, string[]>();
  for (const line of output.split("\n")) {
    const match = /^snippet-(\d+)\.ts\((\d+),(\d+)\): (.*)$/.exec(line);
    if (!match) continue;
    const snippet = all[Number(match[1])]!;
    const where = `${snippet.readme}:${snippet.line + Number(match[2]) - 1}:${match[3]}`;
    byReadme.set(snippet.readme, [...(byReadme.get(snippet.readme) ?? []), `${where} ${match[4]}`]);
  }
  if (output !== "" && byReadme.size === 0)
    throw new Error(`tsc failed without a snippet diagnostic:\n${output}`);
  return byReadme;
}

describe("README snippets", () => {
  it("finds the TypeScript blocks of the READMEs", () => {
    expect(snippets.length).toBeGreaterThan(0);
  });

  describe.each(Object.entries(LIBS))("lib %s", (_name, lib) => {
    const diagnostics = snippets.length > 0 ? typeCheck(snippets, lib) : new Map<string, string[]>();

    it.each([...new Set(snippets.map((snippet) => snippet.readme))])(
      "%s type-checks under strict",
      (readme) => {
        expect(diagnostics.get(readme) ?? []).toEqual([]);
      },
    );
  });
});
