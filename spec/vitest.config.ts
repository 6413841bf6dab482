import { defineConfig } from "vitest/config";

// Fidelity suite, independent validators and example checks, all reading the bundles in dist/.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    testTimeout: 60_000,
  },
});
