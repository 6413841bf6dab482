/**
 * The defaults of `startMockServer` live in `SANDBOX_DEFAULTS`; the README's options table and the
 * options' doc comments (what an editor shows) state them again in words, and must say the same.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SANDBOX_DEFAULTS } from "../src/server.js";

const read = (file: string) => readFileSync(new URL(file, import.meta.url), "utf8");
const README = read("../README.md");
const DOC_COMMENTS = read("../src/server.ts") + read("../src/transport.ts");

/** A value as the README and the comments write it: `3600`, `100 000`, `64 MiB`. */
function written(value: string | number): string {
  if (typeof value === "string") return value;
  if (value >= 2 ** 20 && value % 2 ** 20 === 0) return `${value / 2 ** 20} MiB`;
  return value < 10_000 ? String(value) : String(value).replace(/\B(?=(\d{3})+$)/g, " ");
}

/** What the doc comment just above the option `name` gives as its default (``Default: `X`.``). */
function commentDefault(name: string): string | undefined {
  const comment = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*${name}\\?:`).exec(DOC_COMMENTS)?.[1];
  return comment?.match(/Default: `([^`]+)`\./)?.[1];
}

/** The README's options table: the Default cell of each option, several options in a row in turn. */
function tableDefaults(): Map<string, string> {
  const cells = new Map<string, string>();
  for (const row of README.split("\n").filter((line) => line.startsWith("| `"))) {
    const [names = "", defaults = ""] = row.split("|").slice(1, 3);
    const values = defaults.split(", ").map((value) => value.trim());
    [...names.matchAll(/`([^`]+)`/g)].forEach((match, index) => {
      cells.set(match[1] ?? "", values[index] ?? "");
    });
  }
  return cells;
}

const { limits, timeouts, ...scalars } = SANDBOX_DEFAULTS;
const nested = { ...limits, ...timeouts };

describe("the sandbox's defaults, as stated", () => {
  it.each(Object.entries(scalars))("the README's options table gives %s the default %s", (name, value) => {
    expect(tableDefaults().get(name)).toBe(`\`${written(value)}\``);
  });

  it.each([
    ["timeouts", timeouts],
    ["limits", limits],
  ] as const)("the README's %s row lists each default in the order it names them", (name, values) => {
    const row = README.split("\n").find((line) => line.startsWith(`| \`${name}\` |`)) ?? "";
    const listed = `{ ${Object.keys(values).join(", ")} }\`: ${Object.values(values).map(written).join(", ")}`;
    expect(row).toContain(listed);
  });

  it.each(Object.entries({ ...scalars, ...nested }))("the doc comment of %s gives %s", (name, value) => {
    expect(commentDefault(name)).toBe(written(value));
  });
});
