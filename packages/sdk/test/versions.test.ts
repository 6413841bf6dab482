/**
 * The SDK's version map is written out (a static import of each version's client package, so that each
 * version has its own types); these checks hold it to the registry (spec/versions.json): exactly its
 * versions, each with its client package as a dependency.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CdasInvalidOptionsError, createSdk, isSdkVersion, type Version } from "../src/index.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const registered: string[] = readJson(join(packageDir, "../../spec/versions.json")).versions.map(
  (entry: { name: string }) => entry.name,
);
const options = { baseUrl: "https://127.0.0.1", clientId: "id", clientSecret: "x" };

describe("the SDK's versions are the registry's", () => {
  it.each(registered)("%s creates a client", (version) => {
    const sdk = createSdk({ ...options, version: version as Version });
    expect(typeof sdk.client.GET).toBe("function");
  });

  it.each(registered)("isSdkVersion tells an SDK of %s from the others", (version) => {
    const sdk = createSdk({ ...options, version: version as Version });
    for (const other of registered) expect(isSdkVersion(sdk, other as Version)).toBe(other === version);
    expect(isSdkVersion(sdk, ...(registered as Version[]))).toBe(true);
    expect(isSdkVersion(sdk)).toBe(false);
  });

  it("refuses another version, listing exactly the registered ones", () => {
    const create = () => createSdk({ ...options, version: "v0" as Version });
    expect(create).toThrow(CdasInvalidOptionsError);
    expect(create).toThrow(`version must be one of ${registered.join(", ")} (got "v0")`);
  });

  it("depends on one client package per registered version", () => {
    const clients = Object.keys(readJson(join(packageDir, "package.json")).dependencies).filter((name) =>
      name.startsWith("@cdas/client-v"),
    );
    expect(clients).toEqual(registered.map((version) => `@cdas/client-${version}`));
  });
});
