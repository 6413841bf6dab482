import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
