#!/usr/bin/env node
// pnpm spec:diff <from> <to> [--format text|md|json] [--fail-on breaking|non-breaking|annotation]
// Reports every change between two OpenAPI documents with its class; see spec/README.md.
import { parseArgs } from "node:util";
import { loadSpec } from "./lib/load-spec.mjs";
import { formatJson, formatMarkdown, formatText } from "./lib/report-format.mjs";
import { CHANGE_CLASSES, diffDocuments, hasChangesAtOrAbove } from "./lib/spec-diff.mjs";

process.env.REDOCLY_TELEMETRY = "off";
// `pnpm spec:diff v1 v3 | head` closes the pipe early: stop quietly.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

const USAGE = `Usage: pnpm spec:diff <from> <to> [--format text|md|json] [--fail-on breaking|non-breaking|annotation]

  <from>, <to>  a version (v1, v2, v3; reads spec/dist/vN.json, or bundles the sources when not built),
                a bundle file (JSON or YAML), or <git-rev>:<version> (bundles that revision's sources,
                e.g. HEAD~1:v2), or <git-rev>:<path> for a committed file.
  --format      text (default), md (Markdown) or json.
  --fail-on     exit with code 1 when a change of this class or worse exists.
Exit codes: 0 ok, 1 changes at or above --fail-on, 2 usage or input error.`;

function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        format: { type: "string", short: "f", default: "text" },
        "fail-on": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const formats = { text: null, md: formatMarkdown, markdown: formatMarkdown, json: formatJson };
  const failOn = values["fail-on"];
  if (
    positionals.length !== 2 ||
    !(values.format in formats) ||
    (failOn && !CHANGE_CLASSES.includes(failOn))
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let report;
  try {
    const [from, to] = positionals.map((argument) => loadSpec(argument));
    report = diffDocuments(from.doc, to.doc, { from: from.label, to: to.label });
  } catch (error) {
    process.stderr.write(`spec:diff: ${error.message}\n`);
    return 2;
  }
  const color = values.format === "text" && process.stdout.isTTY && !process.env.NO_COLOR;
  const output = formats[values.format]?.(report) ?? formatText(report, { color });
  process.stdout.write(output);
  return failOn && hasChangesAtOrAbove(report, failOn) ? 1 : 0;
}

process.exitCode = main();
