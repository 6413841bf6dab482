/** Matching a request path to an operation path of the bundles: fixed paths and one-parameter templates. */
import type { VersionBundle } from "./bundle.js";
import { ApiError, type InputEcho } from "./errors.js";

/** The fixed paths of every bundle, and the one-parameter templates (`/v1/banking/products/{product_id}`). */
export class Routes {
  private readonly fixed = new Set<string>();
  private readonly templated: { prefix: string; template: string; parameter: string }[] = [];

  constructor(
    bundles: Map<string, VersionBundle>,
    /** How a path that cannot be decoded is repeated in the 400. */
    private readonly echo: InputEcho,
  ) {
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
      const decoded = this.decodePathText(path);
      if (this.fixed.has(decoded)) return { template: decoded, params: {} };
    }
    const route = this.templateOf(path);
    return (
      route && { template: route.template, params: { [route.parameter]: this.decodePathText(route.value) } }
    );
  }

  /**
   * The operation path a request path that is not one is nearest to, whose documents shape its
   * errors: the path without a trailing slash, empty segments or segments that cannot be decoded,
   * else the nearest path it lies under (`/v1/institutions/x` is on `/v1/institutions`). Undefined
   * for a path under none.
   */
  nearest(path: string): string | undefined {
    const segments: string[] = [];
    for (const segment of path.split("/")) {
      if (segment === "") continue;
      try {
        segments.push(decodeURIComponent(segment));
      } catch {
        // An undecodable segment is set aside: the rest still tells which path was meant.
      }
    }
    for (let length = segments.length; length > 0; length--) {
      const candidate = `/${segments.slice(0, length).join("/")}`;
      if (this.fixed.has(candidate)) return candidate;
      const route = this.templateOf(candidate);
      if (route) return route.template;
    }
    return undefined;
  }

  private templateOf(path: string) {
    for (const route of this.templated) {
      if (!path.startsWith(route.prefix)) continue;
      const value = path.slice(route.prefix.length);
      if (value === "" || value.includes("/")) continue;
      return { ...route, value };
    }
    return undefined;
  }

  private decodePathText(text: string): string {
    try {
      return decodeURIComponent(text);
    } catch {
      throw new ApiError(
        400,
        `bad request: '${this.echo.text(text)}' is not a valid url component`,
        "bad_request",
        {},
        true,
      );
    }
  }
}
