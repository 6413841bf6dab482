// Totals the vitest JSON reports of every workspace package that has a test script, and prints
// "N passed, N failed, N skipped". A package whose suite left no report counts as one failed test.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
// The workspace as pnpm-workspace.yaml declares it: spec, examples and every folder in packages/.
const dirs = ["spec", "examples", ...readdirSync(join(root, "packages")).map((name) => `packages/${name}`)];

let passed = 0;
let failed = 0;
let skipped = 0;
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
  passed += r.numPassedTests;
  failed += r.numFailedTests + suiteFailures;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  console.error(
    `${dir}: ${r.numPassedTests} passed, ${r.numFailedTests + suiteFailures} failed, ${r.numPendingTests} skipped`,
  );
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
