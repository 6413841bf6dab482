import { createVersionedClient } from "@cdas/client-tooling/runtime";
import type { ClientOptions, Client as OpenApiFetchClient } from "openapi-fetch";
import { apiVersion } from "./generated/api-version.js";
import type { paths } from "./generated/schema.js";

export type { ClientOptions } from "openapi-fetch";
export { apiVersion } from "./generated/api-version.js";
export { pagination } from "./generated/pagination.js";
// `paths`, `components`, `operations` and a type per component schema (`Account`, `RateTier`, ...).
export type * from "./generated/schema.js";

/** The openapi-fetch client typed with this version's paths. */
export type Client = OpenApiFetchClient<paths>;

/**
 * Creates a client for this version. `baseUrl` and every other openapi-fetch option pass through;
 * requests carry `X-Platform-Version` with this version unless `headers` set it otherwise.
 */
export function createClient(options?: ClientOptions): Client {
  return createVersionedClient<paths>(apiVersion, options);
}
