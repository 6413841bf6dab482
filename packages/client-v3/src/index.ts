import { createVersionedClient, type ExactClient } from "@cdas/client-tooling/runtime";
import type { ClientOptions, Client as OpenApiFetchClientOf } from "openapi-fetch";
import { apiVersion } from "./generated/api-version.js";
import type { paths } from "./generated/schema.js";

export type { ClientOptions } from "openapi-fetch";
export { apiVersion } from "./generated/api-version.js";
export { pagination } from "./generated/pagination.js";
// `paths`, `components`, `operations` and a type per component schema (`Account`, `RateTier`, ...).
export type * from "./generated/schema.js";

/**
 * The openapi-fetch client typed with this version's paths, each call's init checked as written (a
 * misspelt parameter fails to compile, which openapi-fetch's own types let through).
 */
export type Client = ExactClient<paths>;

/**
 * openapi-fetch's own client type for these paths, for a library typed against it (openapi-react-query,
 * swr-openapi): `client as OpenApiFetchClient`. The same object; its calls' options are then checked as
 * openapi-fetch checks them.
 */
export type OpenApiFetchClient = OpenApiFetchClientOf<paths>;

/**
 * Creates a client for this version. `baseUrl` and every other openapi-fetch option pass through;
 * requests carry `X-Platform-Version` with this version (a call that sets another is refused).
 */
export function createClient(options?: ClientOptions): Client {
  return createVersionedClient<paths>(apiVersion, options);
}
