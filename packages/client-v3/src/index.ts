import { createOpenApiFetchClient } from "@cdas/client-tooling/runtime";
import type { ClientOptions, Client as OpenApiFetchClient } from "openapi-fetch";
import type { paths } from "./generated/schema.js";

export type { ClientOptions } from "openapi-fetch";
export { pagination } from "./generated/pagination.js";
// `paths`, `components`, `operations` and a type per component schema (`Account`, `RateTier`, ...).
export type * from "./generated/schema.js";

/** The openapi-fetch client typed with this version's paths. */
export type Client = OpenApiFetchClient<paths>;

/** Creates a client for this version; `baseUrl` and every other openapi-fetch option pass through unchanged. */
export function createClient(options?: ClientOptions): Client {
  return createOpenApiFetchClient<paths>(options);
}
