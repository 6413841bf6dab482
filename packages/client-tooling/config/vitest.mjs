// Test settings of the workspace's TypeScript packages (the clients, the SDK, the sandbox): runtime tests plus type tests, with the JSON report CI counts.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: [fileURLToPath(new URL("./vitest-setup.mjs", import.meta.url))],
    typecheck: { include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    reporters: ["default", "json"],
    // Test locations in the report: scripts/count-tests.mjs tells generated rows from single tests.
    includeTaskLocation: true,
    outputFile: { json: "reports/vitest.json" },
    testTimeout: 60_000,
  },
});
