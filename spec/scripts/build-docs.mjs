#!/usr/bin/env node
// Renders the docs site from the bundles in dist/: one Redoc reference per version (bundle inlined, no
// network), the change reports of every pair of versions (Markdown and JSON in dist/changes/, HTML in
// dist/docs/changes/) and an index page. Usage: node scripts/build-docs.mjs [--dist <dir>]
import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { finishReferencePage, pairName, renderIndex, versionPairs } from "./lib/docs-site.mjs";
import { SPEC_DIR } from "./lib/load-spec.mjs";
import { formatHtml, formatJson, formatMarkdown } from "./lib/report-format.mjs";
import { diffDocuments } from "./lib/spec-diff.mjs";

process.env.REDOCLY_TELEMETRY = "off";
const REDOCLY = path.join(SPEC_DIR, "node_modules", ".bin", "redocly");

function versionOrder(a, b) {
  return Number(a.slice(1)) - Number(b.slice(1));
}

function renderReference(bundle, output) {
  return new Promise((resolve, reject) => {
    execFile(
      REDOCLY,
      ["build-docs", bundle, "--inlineBundle", "--output", output],
      { cwd: SPEC_DIR, env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`redocly build-docs ${bundle}: ${stderr}`)) : resolve(),
    );
  });
}

/** Builds the site from `distDir`/vN.json into `distDir`/docs and `distDir`/changes; returns figures. */
export async function buildDocs({ distDir = path.join(SPEC_DIR, "dist"), log = console.log } = {}) {
  const started = performance.now();
  const versions = readdirSync(distDir)
    .filter((name) => /^v\d+\.json$/.test(name))
    .map((name) => name.replace(/\.json$/, ""))
    .sort(versionOrder);
  if (versions.length === 0)
    throw new Error(`No bundles (vN.json) in ${distDir}: run the bundle step first.`);
  const docsDir = path.join(distDir, "docs");
  const changesDir = path.join(distDir, "changes");
  rmSync(docsDir, { recursive: true, force: true });
  rmSync(changesDir, { recursive: true, force: true });
  mkdirSync(path.join(docsDir, "changes"), { recursive: true });
  mkdirSync(changesDir, { recursive: true });

  const figures = { versions, references: {}, reports: {} };
  const documents = {};
  // The three Redoc renders run side by side (each is a separate redocly process).
  await Promise.all(
    versions.map(async (version) => {
      const bundle = path.join(distDir, `${version}.json`);
      documents[version] = JSON.parse(readFileSync(bundle, "utf8"));
      const output = path.join(docsDir, `${version}.html`);
      const t0 = performance.now();
      await renderReference(bundle, output);
      const page = finishReferencePage(readFileSync(output, "utf8"), { versions, current: version });
      writeFileSync(output, page);
      for (const ext of ["json", "yaml"]) {
        const source = path.join(distDir, `${version}.${ext}`);
        if (existsSync(source)) copyFileSync(source, path.join(docsDir, `${version}.${ext}`));
      }
      figures.references[version] = {
        bytes: Buffer.byteLength(page),
        ms: Math.round(performance.now() - t0),
      };
    }),
  );

  const reports = {};
  for (const [from, to] of versionPairs(versions)) {
    const name = pairName(from, to);
    const t0 = performance.now();
    const report = diffDocuments(documents[from], documents[to], { from, to });
    reports[name] = report;
    const markdown = formatMarkdown(report);
    const json = formatJson(report);
    const others = versionPairs(versions)
      .map(([a, b]) => pairName(a, b))
      .filter((other) => other !== name)
      .map((other) => `<a href="${other}.html">${other.replace("-to-", " → ")}</a>`)
      .join(" · ");
    const html = formatHtml(report, { versions, prefix: "../", pairLinks: `Other reports: ${others}.` });
    for (const dir of [changesDir, path.join(docsDir, "changes")]) {
      writeFileSync(path.join(dir, `${name}.md`), markdown);
      writeFileSync(path.join(dir, `${name}.json`), json);
    }
    writeFileSync(path.join(docsDir, "changes", `${name}.html`), html);
    figures.reports[name] = {
      ...report.counts,
      ms: Math.round(performance.now() - t0),
      markdownBytes: Buffer.byteLength(markdown),
      jsonBytes: Buffer.byteLength(json),
      htmlBytes: Buffer.byteLength(html),
    };
  }

  writeFileSync(path.join(docsDir, "index.html"), renderIndex({ versions, documents, reports }));
  figures.totalMs = Math.round(performance.now() - started);
  for (const version of versions) {
    const { bytes, ms } = figures.references[version];
    log(`docs: ${version}.html ${Math.round(bytes / 1024)} KiB in ${ms} ms`);
  }
  for (const [name, r] of Object.entries(figures.reports)) {
    log(
      `changes: ${name} ${r.total} changes (${r.breaking} breaking, ${r["non-breaking"]} non-breaking, ${r.annotation} annotation)`,
    );
  }
  log(`docs: site written to ${path.relative(process.cwd(), docsDir) || docsDir} in ${figures.totalMs} ms`);
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { dist: { type: "string" } } });
  try {
    await buildDocs({ distDir: values.dist ? path.resolve(values.dist) : undefined });
  } catch (error) {
    process.stderr.write(`build-docs: ${error.message}\n`);
    process.exitCode = 1;
  }
}
