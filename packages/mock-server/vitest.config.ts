import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    reporters: ["default", "json"],
    // Test locations in the report: scripts/count-tests.mjs tells generated rows from single tests.
    includeTaskLocation: true,
    outputFile: { json: "reports/vitest.json" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
