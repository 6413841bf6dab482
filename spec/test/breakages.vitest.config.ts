// Child run of breakages.test.ts: one project per broken copy of the bundles (plan.json in
// $CDAS_BREAKAGES_DIR), each running the test file that should catch it against that copy. Writes the
// names of the failed tests per project to failures.json beside the plan; no other report.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import type { Reporter } from "vitest/node";
import base from "../vitest.config";

export interface PlannedRun {
  project: string;
  file: string;
  dist: string;
}

const dir = process.env.CDAS_BREAKAGES_DIR;
if (!dir) throw new Error("CDAS_BREAKAGES_DIR is not set: this config is run by breakages.test.ts");
const plan = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8")) as PlannedRun[];

const failures: Reporter = {
  onTestRunEnd(modules) {
    const failed: Record<string, string[]> = {};
    for (const module of modules) {
      const names = failed[module.project.name] ?? [];
      failed[module.project.name] = names;
      for (const test of module.children.allTests("failed")) names.push(test.fullName);
      for (const error of module.errors()) names.push(`${module.moduleId}: ${error.message}`);
    }
    writeFileSync(join(dir, "failures.json"), JSON.stringify(failed));
  },
};

export default defineConfig({
  test: {
    root: dirname(dirname(fileURLToPath(import.meta.url))),
    setupFiles: base.test?.setupFiles,
    reporters: [failures],
    pool: "threads",
    projects: plan.map(({ project, file, dist }) => ({
      extends: true,
      test: { name: project, include: [file], env: { CDAS_SPEC_DIST: dist } },
    })),
  },
});
