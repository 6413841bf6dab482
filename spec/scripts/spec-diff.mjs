#!/usr/bin/env node
// pnpm spec:diff <from> <to> [--format text|md|json|guide] [--all] [--fail-on breaking|non-breaking|annotation]
// Reports every change between two OpenAPI documents with its class; see spec/README.md.
import { parseArgs } from "node:util";
import { scriptArgs } from "../bin/script-args.mjs";
import { formatGuideMarkdown } from "./lib/guide-format.mjs";
import { knownVersions, loadSpec, SPEC_DIR } from "./lib/load-spec.mjs";
import { buildGuide } from "./lib/migration-guide.mjs";
import { formatJson, formatMarkdown, formatText } from "./lib/report-format.mjs";
import { CHANGE_CLASSES, diffDocuments, hasChangesAtOrAbove } from "./lib/spec-diff.mjs";

process.env.REDOCLY_TELEMETRY = "off";
// `pnpm spec:diff v1 v3 | head` closes the pipe early: stop quietly.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

const FORMATS = ["text", "md", "json", "guide"];
const USAGE = `Usage: pnpm spec:diff <from> <to> [--format text|md|json|guide] [--all] [--fail-on breaking|non-breaking|annotation]

  <from>, <to>  a version (${knownVersions(SPEC_DIR).join(", ")}; reads spec/dist/vN.json, or bundles the sources when not built
                or older than a source), a bundle file (JSON or YAML, an OpenAPI 3 document), or
                <git-rev>:<version> (bundles that revision's sources, e.g. HEAD~1:v2), or <git-rev>:<path>
                for a committed file.
  --format      text (default), md (Markdown), json, or guide (the migration guide: what to change in
                your code, by operation; md and json keep every detail).
  --all         with --format guide: also list the component-only and annotation changes.
  --fail-on     exit with code 1 when a change of this class or worse exists.
Exit codes: 0 ok, 1 changes at or above --fail-on, 2 usage or input error.`;

/** What is wrong with the arguments, in words, or undefined when they can be used. */
function argumentError(values, positionals) {
  if (positionals.length < 2) {
    const missing = positionals.length === 0 ? "<from> and <to> are missing" : "<to> is missing";
    return `${missing}: give two documents, e.g. \`pnpm spec:diff v1 v3\`.`;
  }
  if (positionals.length > 2)
    return `expected two documents, got ${positionals.length}: ${positionals.join(" ")}.`;
  const format = values.format === "markdown" ? "md" : values.format;
  if (!FORMATS.includes(format)) {
    return `--format ${values.format} is not a format; accepted: ${FORMATS.join(", ")}.`;
  }
  const failOn = values["fail-on"];
  if (failOn !== undefined && !CHANGE_CLASSES.includes(failOn)) {
    return `--fail-on ${failOn} is not a change class; accepted: ${CHANGE_CLASSES.join(", ")}.`;
  }
  if (values.all && format !== "guide")
    return "--all applies to --format guide only (md and json keep every change).";
  return undefined;
}

function render(report, from, to, values) {
  switch (values.format) {
    case "guide":
      return formatGuideMarkdown(buildGuide(report, from.doc, to.doc), { all: values.all });
    case "md":
    case "markdown":
      return formatMarkdown(report, { guide: buildGuide(report, from.doc, to.doc) });
    case "json":
      return formatJson(report);
    default:
      return formatText(report, { color: process.stdout.isTTY && !process.env.NO_COLOR });
  }
}

function main() {
  let parsed;
  try {
    parsed = parseArgs({
      args: scriptArgs(),
      allowPositionals: true,
      options: {
        format: { type: "string", short: "f", default: "text" },
        "fail-on": { type: "string" },
        all: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    process.stderr.write(`spec:diff: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const problem = argumentError(values, positionals);
  if (problem) {
    process.stderr.write(`spec:diff: ${problem}\n\n${USAGE}\n`);
    return 2;
  }
  let sides;
  let report;
  try {
    sides = positionals.map((argument) => loadSpec(argument));
    report = diffDocuments(sides[0].doc, sides[1].doc, { from: sides[0].label, to: sides[1].label });
  } catch (error) {
    process.stderr.write(`spec:diff: ${error.message}\n`);
    return 2;
  }
  process.stdout.write(render(report, sides[0], sides[1], values));
  const failOn = values["fail-on"];
  return failOn && hasChangesAtOrAbove(report, failOn) ? 1 : 0;
}

process.exitCode = main();
