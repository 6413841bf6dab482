// Independent validators on every bundle (dist/*.json, not the multi-file sources): swagger-parser and
// Spectral's spectral:oas ruleset.
import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Document, type ISpectralDiagnostic, Spectral } from "@stoplight/spectral-core";
import { Json } from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { describe, expect, it } from "vitest";
import { bundlePath, freshBundle, loadBundle, VERSIONS, type Version } from "./helpers";

const ERROR = 0;
const WARNING = 1;

const describeDiagnostic = (d: ISpectralDiagnostic) =>
  `${d.code} at ${d.path.join(".")} (line ${d.range.start.line + 1}): ${d.message}`;

/**
 * OAS 3.1 lets a security requirement of a scheme other than OAuth2/OpenID Connect list role names
 * (the interface's scope `api:user.write` on the bearer scheme); Spectral's oas3-operation-security-defined
 * only knows OAuth2 scopes and warns about it. That one warning is a limitation of the rule.
 */
function isRoleOfHttpScheme(version: Version, d: ISpectralDiagnostic): boolean {
  if (d.code !== "oas3-operation-security-defined") return false;
  const doc = loadBundle(version);
  const scheme = doc.components?.securitySchemes?.[String(d.path.at(-2))];
  return String(doc.openapi).startsWith("3.1") && scheme?.type === "http" && d.path.includes("security");
}

const spectralResults = new Map<Version, Promise<ISpectralDiagnostic[]>>();
/** Spectral's spectral:oas ruleset (recommended rules) on the JSON bundle, run once per version. */
function lint(version: Version): Promise<ISpectralDiagnostic[]> {
  let result = spectralResults.get(version);
  if (!result) {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [oas as never] } as never);
    const path = bundlePath(version);
    result = spectral.run(new Document(readFileSync(path, "utf8"), Json, path));
    spectralResults.set(version, result);
  }
  return result;
}

describe("@apidevtools/swagger-parser", () => {
  it.each(VERSIONS)("%s bundle validates with no error", async (version) => {
    const api = await SwaggerParser.validate(freshBundle(version) as never);
    expect((api as { openapi?: string }).openapi).toMatch(/^3\.1\./);
  });

  it.each(VERSIONS)("%s bundle is self-contained (no external $ref)", async (version) => {
    const refs = await SwaggerParser.resolve(freshBundle(version) as never);
    expect(refs.paths()).toHaveLength(1);
  });
});

describe("Spectral spectral:oas", () => {
  it.each(VERSIONS)("%s bundle has no error", async (version) => {
    const errors = (await lint(version)).filter((d) => d.severity === ERROR);
    expect(errors.map(describeDiagnostic)).toEqual([]);
  });

  it.each(VERSIONS)(
    "%s bundle has no warning (OAS 3.1 roles on the bearer scheme aside)",
    async (version) => {
      const warnings = (await lint(version)).filter(
        (d) => d.severity === WARNING && !isRoleOfHttpScheme(version, d),
      );
      expect(warnings.map(describeDiagnostic)).toEqual([]);
    },
  );

  it.each(VERSIONS)(
    "%s the only role Spectral flags on the bearer scheme is api:user.write",
    async (version) => {
      const doc = loadBundle(version);
      const roles = (await lint(version))
        .filter((d) => isRoleOfHttpScheme(version, d))
        .map((d) => d.path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc));
      expect([...new Set(roles)]).toEqual(roles.length ? ["api:user.write"] : []);
    },
  );
});
