import { createClient as createClientV1, pagination as paginationV1 } from "@cdas/client-v1";
import { createClient as createClientV2, pagination as paginationV2 } from "@cdas/client-v2";
import { createClient as createClientV3, pagination as paginationV3 } from "@cdas/client-v3";
import { buildSdk, type SdkOptions, type VersionDefinition } from "./core.js";
import { CdasError } from "./errors.js";
import type { Sdk, Version } from "./types.js";

export type { FetchLike } from "./attempt.js";
export type { SdkOptions } from "./core.js";
export {
  CdasApiError,
  type CdasApiErrorInit,
  CdasError,
  type CdasErrorBody,
  type CdasErrorCode,
  isCdasApiError,
  isCdasError,
} from "./errors.js";
export type { Page, PaginateOptions, PaginationSpec, Paginator } from "./paginate.js";
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
 * Creates the SDK for one API version. `version` decides the types of `client` and `paginate`.
 * Throws CdasError (`invalid_options`) for a missing option or a baseUrl that is not https.
 */
export function createSdk<V extends Version>(options: SdkOptions<V>): Sdk<V> {
  const definition = VERSIONS[options?.version];
  if (!definition) {
    throw new CdasError("invalid_options", `version must be one of ${Object.keys(VERSIONS).join(", ")}`);
  }
  return buildSdk(definition, options) as unknown as Sdk<V>;
}
