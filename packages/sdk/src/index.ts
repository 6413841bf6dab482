import { createClient as createClientV1, pagination as paginationV1 } from "@cdas/client-v1";
import { createClient as createClientV2, pagination as paginationV2 } from "@cdas/client-v2";
import { createClient as createClientV3, pagination as paginationV3 } from "@cdas/client-v3";
import { buildSdk, type SdkOptions, type VersionDefinition } from "./core.js";
import type { Sdk, Version } from "./types.js";

/**
 * Each version's client package whole, so that `@cdas/sdk` alone is enough: its model types
 * (`V1.Transaction`, `V3.Consent`, `V2.components["schemas"][...]`, `paths`) and its values
 * (`createClient`, `pagination`, `apiVersion`). Values, not `export type *`: the bundled
 * declarations would say `export { V3 }` either way, and a value export that is not there compiles
 * (`import { V3 }` under `verbatimModuleSyntax`) and then fails to load.
 */
export * as V1 from "@cdas/client-v1";
export * as V2 from "@cdas/client-v2";
export * as V3 from "@cdas/client-v3";
/** openapi-fetch's middleware type, for `sdk.client.use(...)`: named here so that `@cdas/sdk` alone is enough. */
export type { Middleware } from "openapi-fetch";
export type { SdkCallOptions, SdkDefaults, SdkOptions } from "./core.js";
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULTS } from "./core.js";
export {
  type AnyCdasError,
  apiErrorOf,
  CdasApiError,
  type CdasApiErrorInit,
  CdasAuthenticationError,
  CdasConnectionError,
  CdasError,
  type CdasErrorBody,
  type CdasErrorCode,
  CdasInvalidOptionsError,
  CdasInvalidRequestError,
  CdasInvalidResponseError,
  CdasNotFoundError,
  CdasPaginationLoopError,
  CdasPermissionError,
  CdasRateLimitError,
  CdasServerError,
  CdasTimeoutError,
  isCdasApiError,
  isCdasError,
} from "./errors.js";
export type { Page, PaginateOptions, PaginationSpec, Paginator } from "./paginate.js";
export type { FetchLike } from "./transport.js";
export type {
  ClientOf,
  ListBody,
  ListInit,
  ListItem,
  ListPath,
  PaginateArgs,
  PathsOf,
  Sdk,
  Version,
} from "./types.js";

const VERSIONS: Record<Version, VersionDefinition> = {
  v1: { createClient: createClientV1, pagination: paginationV1 },
  v2: { createClient: createClientV2, pagination: paginationV2 },
  v3: { createClient: createClientV3, pagination: paginationV3 },
};

/**
 * Whether an SDK whose version is known only at run time (`Sdk<Version>`) is of one of `versions`:
 * narrows it to `Sdk<...>` of those, whose calls take their parameters alone and answer their records
 * (over every version, a parameter of one compiles for all).
 */
// `| Sdk<V>`: TypeScript cannot tell that `Sdk<V>` of any V is an `Sdk<Version>` (only of each one).
export function isSdkVersion<V extends Version>(sdk: Sdk<Version> | Sdk<V>, ...versions: V[]): sdk is Sdk<V> {
  return (versions as readonly string[]).includes(sdk.version);
}

/**
 * Creates the SDK for one API version. `version` decides the types of `client` and `paginate`.
 * Throws CdasInvalidOptionsError for a missing option or a baseUrl that is not https.
 */
export function createSdk<V extends Version>(options: SdkOptions<V>): Sdk<V> {
  return buildSdk(VERSIONS, options) as unknown as Sdk<V>;
}
