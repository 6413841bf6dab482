/** The README's Options table states the defaults as figures; they must be those of `DEFAULTS`. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/index.js";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/**
 * The Default column of the `## Options` table by option name, each figure as written. A row may
 * name several options and give their defaults in the same order (`retryBaseDelayMs`, `maxRetryDelayMs`).
 */
function statedDefaults(readme: string): Record<string, string> {
  const section = readme.split(/^## Options$/m)[1]?.split(/^## /m)[0] ?? "";
  const stated: Record<string, string> = {};
  for (const row of section.split("\n").filter((line) => line.startsWith("| `"))) {
    const [names = "", defaults = ""] = row.split("|").slice(1, 3);
    // Only the leading figures: the column goes on in words (`33554432` (32 MiB)).
    const figures = [...defaults.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
    [...names.matchAll(/`([^`]+)`/g)].forEach((match, index) => {
      const figure = figures[index];
      if (figure !== undefined) stated[match[1] ?? ""] = figure;
    });
  }
  return stated;
}

describe("README defaults", () => {
  it("states every default of DEFAULTS, each as DEFAULTS has it", () => {
    const stated = statedDefaults(README);
    const expected = Object.fromEntries(
      Object.entries(DEFAULTS).map(([name, value]) => [name, String(value)]),
    );
    const statedForDefaults = Object.fromEntries(Object.keys(DEFAULTS).map((name) => [name, stated[name]]));
    expect(statedForDefaults).toEqual(expected);
  });

  it("reads the table it checks: a default written otherwise is told apart", () => {
    const altered = README.replace("| `timeoutMs` | `30000` |", "| `timeoutMs` | `60000` |");
    expect(altered).not.toBe(README);
    expect(statedDefaults(altered).timeoutMs).toBe("60000");
  });

  it("is frozen: no caller changes the defaults of every later createSdk", () => {
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
  });
});
