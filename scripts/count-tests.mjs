// Totals the vitest JSON reports of every workspace package that has a test script, and prints
// "N passed, N failed, N skipped". A package whose suite left no report counts as one failed test.
// Where a report carries test locations (vitest's includeTaskLocation), an earlier line splits the tests
// into generated rows (several tests from one call site: test.each or a loop) and single tests.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
// The workspace as pnpm-workspace.yaml declares it: spec, examples and every folder in packages/.
const dirs = ["spec", "examples", ...readdirSync(join(root, "packages")).map((name) => `packages/${name}`)];

let passed = 0;
let failed = 0;
let skipped = 0;
const shape = { rows: 0, callSites: 0, single: 0, unknown: [] };

/** Tests of a report by call site: a site with more than one test generated them (test.each, loops). */
function countShape(dir, report) {
  const results = (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).map((test) => ({ file: file.name, location: test.location })),
  );
  if (results.length === 0) return;
  if (results.some((r) => !r.location)) {
    shape.unknown.push(dir);
    return;
  }
  const perSite = new Map();
  for (const { file, location } of results) {
    const site = `${file}:${location.line}:${location.column}`;
    perSite.set(site, (perSite.get(site) ?? 0) + 1);
  }
  for (const count of perSite.values()) {
    if (count > 1) {
      shape.rows += count;
      shape.callSites += 1;
    } else shape.single += 1;
  }
}
for (const dir of dirs) {
  const manifest = join(root, dir, "package.json");
  if (!existsSync(manifest) || !JSON.parse(readFileSync(manifest, "utf8")).scripts?.test) continue;
  const report = join(root, dir, "reports", "vitest.json");
  if (!existsSync(report)) {
    console.error(`${dir}: no test report (the suite did not run or crashed)`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(report, "utf8"));
  const suiteFailures = (r.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).length,
  ).length;
  countShape(dir, r);
  passed += r.numPassedTests;
  failed += r.numFailedTests + suiteFailures;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  console.error(
    `${dir}: ${r.numPassedTests} passed, ${r.numFailedTests + suiteFailures} failed, ${r.numPendingTests} skipped`,
  );
}
const noLocations = shape.unknown.length ? `; not told (no test locations): ${shape.unknown.join(", ")}` : "";
console.log(
  `${shape.rows} generated rows from ${shape.callSites} call sites, ${shape.single} single tests${noLocations}`,
);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
