import { defineConfig } from "vitest/config";

// Fidelity suite, independent validators and example checks, all reading the bundles in dist/.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // Locations let scripts/count-tests.mjs tell generated rows (many tests, one call site) from the rest.
    includeTaskLocation: true,
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    testTimeout: 60_000,
  },
});
