#!/usr/bin/env node
// Renders the docs site from the bundles in dist/: one Redoc reference per version (bundle inlined, no
// network), the change reports of every pair of versions (Markdown and JSON in dist/changes/, HTML in
// dist/docs/changes/) and an index page. Usage: node scripts/build-docs.mjs [--dist <dir>]
import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readRegistry } from "../registry/index.js";
import { sampleLanguages, withCodeSamples } from "./lib/code-samples.mjs";
import { finishReferencePage, pairName, renderIndex, versionPairs } from "./lib/docs-site.mjs";
import { formatGuideHtml, formatGuideMarkdown } from "./lib/guide-format.mjs";
import { SPEC_DIR } from "./lib/load-spec.mjs";
import { buildGuide } from "./lib/migration-guide.mjs";
import { formatHtml, formatJson, formatMarkdown } from "./lib/report-format.mjs";
import { diffDocuments } from "./lib/spec-diff.mjs";
import { switcherData, switcherScript } from "./lib/version-switcher.mjs";

process.env.REDOCLY_TELEMETRY = "off";
const REDOCLY = path.join(SPEC_DIR, "node_modules", ".bin", "redocly");
/** A config without redocly.yaml's decorators: the bundles are rendered as they are. */
const DOCS_CONFIG = path.join(SPEC_DIR, "docs.redocly.yaml");

/**
 * The copy of a bundle that Redoc renders: code samples on every operation, and the title without the
 * version suffix, which Redoc adds itself ("Consented Data Access Service (v2)", not "... (v2) (v2)").
 * dist/vN.json stays as published.
 */
export function redocDocument(doc, version) {
  const copy = withCodeSamples(doc, version);
  const suffix = ` (${copy.info?.version})`;
  if (copy.info?.title?.endsWith(suffix)) copy.info.title = copy.info.title.slice(0, -suffix.length);
  return copy;
}

/**
 * Redoc's options for a version's reference (given as a file: `--openapi` takes JSON or a path, and its
 * dotted form cannot write a list). codeSamples.languages lists the samples' tabs, without which Redoc
 * shows only curl; jsonSamplesExpandLevel 3 opens a list's records in a response example (at Redoc's
 * 2, each shows as `{ … }`). (Redoc 3 reads scrollYOffset as a number only: docs-site.mjs keeps the
 * bar clear of its jumps instead.)
 */
function redocOptions(version) {
  return { jsonSamplesExpandLevel: 3, codeSamples: { languages: sampleLanguages(version) } };
}

function renderReference(bundle, options, output, title) {
  return new Promise((resolve, reject) => {
    execFile(
      REDOCLY,
      [
        "build-docs",
        bundle,
        "--config",
        DOCS_CONFIG,
        "--inlineBundle",
        `--openapi=${options}`,
        "--title",
        title,
        "--output",
        output,
      ],
      { cwd: SPEC_DIR, env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`redocly build-docs ${bundle}: ${stderr}`)) : resolve(),
    );
  });
}

/** The versions of the bundle folder, in its registry's order (dist/versions.json); each has its bundle. */
function bundledVersions(distDir) {
  const { versions, source } = readRegistry(distDir);
  const missing = versions.filter((version) => !existsSync(path.join(distDir, `${version}.json`)));
  if (missing.length > 0)
    throw new Error(
      `${source} lists ${missing.join(", ")} but ${distDir} has no bundle of it: run the bundle step first.`,
    );
  return versions;
}

/** The change report and migration guide of every pair, in every format; returns the reports and guides. */
function writeChanges({ versions, documents, docsDir, changesDir, figures }) {
  const reports = {};
  const guides = {};
  for (const [from, to] of versionPairs(versions)) {
    const name = pairName(from, to);
    const t0 = performance.now();
    const report = diffDocuments(documents[from], documents[to], { from, to });
    const guide = buildGuide(report, documents[from], documents[to]);
    reports[name] = report;
    guides[name] = guide;
    const others = versionPairs(versions)
      .map(([a, b]) => pairName(a, b))
      .filter((other) => other !== name);
    const files = {
      [`${name}.md`]: formatMarkdown(report, { guide }),
      [`${name}.json`]: formatJson(report),
      [`${name}.guide.md`]: formatGuideMarkdown(guide, { report: name }),
    };
    for (const dir of [changesDir, path.join(docsDir, "changes")]) {
      for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    }
    const reportLinks = others.map((o) => `<a href="${o}.html">${o.replace("-to-", " → ")}</a>`).join(" · ");
    const html = formatHtml(report, {
      versions,
      prefix: "../",
      pairLinks: `Other reports: ${reportLinks}.`,
      guide,
    });
    writeFileSync(path.join(docsDir, "changes", `${name}.html`), html);
    const guideHtml = formatGuideHtml(guide, { versions, prefix: "../", others });
    writeFileSync(path.join(docsDir, "changes", `${name}.guide.html`), guideHtml);
    figures.reports[name] = {
      ...report.counts,
      ms: Math.round(performance.now() - t0),
      markdownBytes: Buffer.byteLength(files[`${name}.md`]),
      jsonBytes: Buffer.byteLength(files[`${name}.json`]),
      htmlBytes: Buffer.byteLength(html),
      guideLines: files[`${name}.guide.md`].split("\n").length - 1,
    };
  }
  return { reports, guides };
}

/** One Redoc page per version (the three redocly processes run side by side). */
async function writeReferences({ versions, documents, guides, distDir, docsDir, figures }) {
  const redocDir = mkdtempSync(path.join(tmpdir(), "cdas-redoc-"));
  try {
    await Promise.all(
      versions.map(async (version) => {
        const bundle = path.join(redocDir, `${version}.json`);
        writeFileSync(bundle, JSON.stringify(redocDocument(documents[version], version)));
        const options = path.join(redocDir, `${version}.options.json`);
        writeFileSync(options, JSON.stringify(redocOptions(version)));
        const output = path.join(docsDir, `${version}.html`);
        const t0 = performance.now();
        await renderReference(bundle, options, output, documents[version].info?.title ?? version);
        const switcher = switcherScript(switcherData({ versions, current: version, guides, documents }));
        const page = finishReferencePage(readFileSync(output, "utf8"), {
          versions,
          current: version,
          switcher,
        });
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
  } finally {
    rmSync(redocDir, { recursive: true, force: true });
  }
}

function logFigures(figures, docsDir, log) {
  for (const version of figures.versions) {
    const { bytes, ms } = figures.references[version];
    log(`docs: ${version}.html ${Math.round(bytes / 1024)} KiB in ${ms} ms`);
  }
  for (const [name, r] of Object.entries(figures.reports)) {
    log(
      `changes: ${name} ${r.total} changes (${r.breaking} breaking, ${r["non-breaking"]} non-breaking, ${r.annotation} annotation); guide ${r.guideLines} lines`,
    );
  }
  log(`docs: site written to ${path.relative(process.cwd(), docsDir) || docsDir} in ${figures.totalMs} ms`);
}

/** Builds the site from `distDir`/vN.json into `distDir`/docs and `distDir`/changes; returns figures. */
export async function buildDocs({ distDir = path.join(SPEC_DIR, "dist"), log = console.log } = {}) {
  const started = performance.now();
  const versions = bundledVersions(distDir);
  const docsDir = path.join(distDir, "docs");
  const changesDir = path.join(distDir, "changes");
  rmSync(docsDir, { recursive: true, force: true });
  rmSync(changesDir, { recursive: true, force: true });
  mkdirSync(path.join(docsDir, "changes"), { recursive: true });
  mkdirSync(changesDir, { recursive: true });

  const figures = { versions, references: {}, reports: {} };
  const documents = Object.fromEntries(
    versions.map((v) => [v, JSON.parse(readFileSync(path.join(distDir, `${v}.json`), "utf8"))]),
  );
  const { reports, guides } = writeChanges({ versions, documents, docsDir, changesDir, figures });
  await writeReferences({ versions, documents, guides, distDir, docsDir, figures });
  writeFileSync(path.join(docsDir, "index.html"), renderIndex({ versions, documents, reports, guides }));
  figures.totalMs = Math.round(performance.now() - started);
  logFigures(figures, docsDir, log);
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
