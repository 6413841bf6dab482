// Totals the vitest JSON reports of every workspace package that has a test script, and prints
// "N passed, N failed, N skipped". A package whose suite left no report counts as one failed test, and
// so does one whose suite failed (turbo's run summary, .turbo/runs/) with no failed test in its report:
// vitest reports a type error in a test file, or an unhandled error, outside its tests.
// Where a report carries test locations (vitest's includeTaskLocation), an earlier line splits the tests
// into generated rows (several tests from one call site: test.each or a loop) and single tests; tests
// registered by a shared helper (the package checks, the clients' behaviour tests) carry no location and
// are counted apart.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
// The workspace as pnpm-workspace.yaml declares it: spec, examples and every folder in packages/.
const dirs = ["spec", "examples", ...readdirSync(join(root, "packages")).map((name) => `packages/${name}`)];

/** Exit codes of the last `turbo run test --summarize`, by package folder (none without a summary). */
function testExitCodes() {
  const runs = join(root, ".turbo", "runs");
  if (!existsSync(runs)) return new Map();
  const latest = readdirSync(runs)
    .filter((name) => name.endsWith(".json"))
    .map((name) => join(runs, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!latest) return new Map();
  const summary = JSON.parse(readFileSync(latest, "utf8"));
  return new Map(
    (summary.tasks ?? [])
      .filter((task) => task.task === "test")
      .map((task) => [task.directory, task.execution?.exitCode]),
  );
}
const exitCodes = testExitCodes();

let passed = 0;
let failed = 0;
let skipped = 0;
const shape = { rows: 0, callSites: 0, single: 0, fromHelpers: 0 };

/** Tests of a report by call site: a site with more than one test generated them (test.each, loops). */
function countShape(report) {
  const results = (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).map((test) => ({ file: file.name, location: test.location })),
  );
  const perSite = new Map();
  for (const { file, location } of results) {
    if (!location) {
      shape.fromHelpers += 1;
      continue;
    }
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
  const exitCode = exitCodes.get(dir);
  const failedOutsideTests =
    r.numFailedTests + suiteFailures === 0 && exitCode !== undefined && exitCode !== 0;
  if (failedOutsideTests)
    console.error(
      `${dir}: the suite exited ${exitCode} with no failed test (a type error or an unhandled error: see its output)`,
    );
  const dirFailed = r.numFailedTests + suiteFailures + (failedOutsideTests ? 1 : 0);
  countShape(r);
  passed += r.numPassedTests;
  failed += dirFailed;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  console.error(`${dir}: ${r.numPassedTests} passed, ${dirFailed} failed, ${r.numPendingTests} skipped`);
}
console.log(
  `${shape.rows} generated rows from ${shape.callSites} call sites, ${shape.single} single tests, ${shape.fromHelpers} from shared helpers`,
);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
