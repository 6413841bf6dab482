/** What @cdas/mock-server publishes: publint, attw and both module formats, as for the other packages. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describePublishedPackage } from "@cdas/client-tooling/testing";
import { expect } from "vitest";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describePublishedPackage(packageDir, {
  script: `
    const esm = await import("./dist/index.js");
    const cjs = (await import("node:module")).createRequire(import.meta.url)("./dist/index.cjs");
    const describe = (m) => ({ exports: Object.keys(m).sort(), start: typeof m.startMockServer });
    console.log(JSON.stringify({ esm: describe(esm), cjs: describe(cjs) }));`,
  expectOutput: ({ esm, cjs }) => {
    expect(esm).toEqual({
      exports: ["DEFAULT_TRANSACTION_WINDOW_DAYS", "SUPPORTED_VERSIONS", "startMockServer", "trustingFetch"],
      start: "function",
    });
    expect(cjs).toEqual(esm);
  },
});
