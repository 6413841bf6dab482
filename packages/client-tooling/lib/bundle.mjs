// Reads a client package's redocly.yaml and the bundle it points at; shared by the generator and the tests.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { deref, HTTP_METHODS, operationParameters, listOperations as operationsOf } from "@cdas/spec/openapi";
import { parse } from "yaml";

/**
 * The one API of `<packageDir>/redocly.yaml`: its name is the version, `root` the bundle and
 * `x-openapi-ts.output` the generated schema file. `CDAS_SPEC_DIST` (a folder holding `v1.json`, ...)
 * replaces the bundle folder, to build against another spec build.
 */
export function readClientConfig(packageDir) {
  const configPath = resolve(packageDir, "redocly.yaml");
  const apis = Object.entries(parse(readFileSync(configPath, "utf8"))?.apis ?? {});
  if (apis.length !== 1) throw new Error(`${configPath} must declare exactly one API, found ${apis.length}`);
  const [version, api] = apis[0];
  const output = api?.["x-openapi-ts"]?.output;
  if (typeof api?.root !== "string" || typeof output !== "string") {
    throw new Error(`${configPath}: API ${version} needs \`root\` and \`x-openapi-ts.output\``);
  }
  const specDistOverride = process.env.CDAS_SPEC_DIST;
  const bundlePath = specDistOverride
    ? resolve(specDistOverride, `${version}.json`)
    : resolve(packageDir, api.root);
  const schemaPath = resolve(packageDir, output);
  return { version, configPath, bundlePath, schemaPath, generatedDir: dirname(schemaPath) };
}

export function readBundle(bundlePath) {
  let text;
  try {
    text = readFileSync(bundlePath, "utf8");
  } catch (cause) {
    throw new Error(`Bundle ${bundlePath} not found; build it first: pnpm --filter @cdas/spec build`, {
      cause,
    });
  }
  return JSON.parse(text);
}

/** Every operation of the bundle with its parameters resolved (path-level ones merged in). */
export function listOperations(bundle) {
  return operationsOf(bundle).map(({ path, method, pathItem, operation }) => ({
    path,
    method,
    operationId: operation.operationId,
    operation,
    parameters: operationParameters(bundle, pathItem, operation),
  }));
}

const isVersionHeader = (parameter) =>
  parameter?.in === "header" && parameter.name?.toLowerCase() === "x-platform-version";

/**
 * A copy of the bundle without the `X-Platform-Version` header parameter, which the client packages
 * send themselves: removed from every path item and operation, and from `components.parameters`.
 */
export function withoutVersionHeader(bundle) {
  const copy = structuredClone(bundle);
  const keep = (parameters) => parameters.filter((parameter) => !isVersionHeader(deref(copy, parameter)));
  for (const pathItem of Object.values(copy.paths ?? {})) {
    if (pathItem.parameters) pathItem.parameters = keep(pathItem.parameters);
    for (const method of HTTP_METHODS) {
      if (pathItem[method]?.parameters) pathItem[method].parameters = keep(pathItem[method].parameters);
    }
  }
  const components = copy.components?.parameters ?? {};
  for (const [name, parameter] of Object.entries(components)) {
    if (isVersionHeader(parameter)) delete components[name];
  }
  return copy;
}
