// Runtime code the client packages share; tsup bundles it into each client (this package is a devDependency).
import type { Client, ClientOptions } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";

type CreateClient = typeof openapiFetch.default;

// esbuild gives the CommonJS build of a "type": "module" package Node's interop, in which the default
// import is openapi-fetch's whole CommonJS `exports` object; the function is then its `default`.
const interopDefault = openapiFetch.default as CreateClient & { default?: CreateClient };
const createOpenApiFetchClient: CreateClient = interopDefault.default ?? interopDefault;

/**
 * openapi-fetch's client for one API version: every option passes through, and each request carries
 * `X-Platform-Version: <apiVersion>` unless the caller's headers set it (or remove it with `null`).
 */
export function createVersionedClient<Paths extends {}>(
  apiVersion: string,
  options?: ClientOptions,
): Client<Paths> {
  const headers = openapiFetch.mergeHeaders({ "X-Platform-Version": apiVersion }, options?.headers);
  return createOpenApiFetchClient<Paths>({ ...options, headers });
}
