import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "json"],
    // Test locations in the report: scripts/count-tests.mjs tells generated rows from single tests.
    includeTaskLocation: true,
    outputFile: { json: "reports/vitest.json" },
    setupFiles: ["test/setup.ts"],
    // Packs every publishable package once, for all files (see test/pack.ts).
    globalSetup: ["test/pack.ts"],
    // Installs, compiles and runtimes: one file at a time on a 2-core machine.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
