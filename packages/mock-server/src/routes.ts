/** Matching a request path to an operation path of the bundles: fixed paths and one-parameter templates. */
import type { VersionBundle } from "./bundle.js";
import { ApiError } from "./errors.js";

const MAX_PATH_PARAMETER_LENGTH = 500;

/** The fixed paths of every bundle, and the one-parameter templates (`/v1/banking/products/{product_id}`). */
export class Routes {
  private readonly fixed = new Set<string>();
  private readonly templated: { prefix: string; template: string; parameter: string }[] = [];

  constructor(bundles: Map<string, VersionBundle>) {
    const paths = new Set<string>();
    for (const bundle of bundles.values()) for (const path of bundle.operationsByPath.keys()) paths.add(path);
    for (const path of paths) {
      const parameter = /^([^{}]*\/)\{([^}/]+)\}$/.exec(path);
      if (parameter) this.templated.push({ prefix: parameter[1]!, template: path, parameter: parameter[2]! });
      else if (!path.includes("{")) this.fixed.add(path);
      else throw new Error(`path ${path} has a parameter before its end; the sandbox routes one, last`);
    }
  }

  /** The template a path matches and its parameters; throws a 400 for broken percent-encoding. */
  match(path: string): { template: string; params: Record<string, string> } | undefined {
    if (this.fixed.has(path)) return { template: path, params: {} };
    if (path.includes("%")) {
      const decoded = decodePathText(path);
      if (this.fixed.has(decoded)) return { template: decoded, params: {} };
    }
    for (const route of this.templated) {
      if (!path.startsWith(route.prefix)) continue;
      const value = path.slice(route.prefix.length);
      if (value === "" || value.includes("/") || value.length > MAX_PATH_PARAMETER_LENGTH) continue;
      return { template: route.template, params: { [route.parameter]: decodePathText(value) } };
    }
    return undefined;
  }
}

function decodePathText(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ApiError(
      400,
      `bad request: '${text.slice(0, 200)}' is not a valid url component`,
      "bad_request",
      {},
      true,
    );
  }
}
