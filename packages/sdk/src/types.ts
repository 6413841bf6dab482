/** Version-dependent types: the client, the list paths and their item types come from each client package. */

import type { ExactClient } from "@cdas/client-tooling/runtime";
import type * as V1 from "@cdas/client-v1";
import type * as V2 from "@cdas/client-v2";
import type * as V3 from "@cdas/client-v3";
import type { MaybeOptionalInit } from "openapi-fetch";
import type { FILLED_QUERY } from "./api.js";
import type { SdkCallOptions } from "./core.js";
import type { CdasApiError } from "./errors.js";
import type { PaginateOptions, Paginator } from "./paginate.js";

interface VersionTypes {
  v1: { paths: V1.paths; pagination: typeof V1.pagination };
  v2: { paths: V2.paths; pagination: typeof V2.pagination };
  v3: { paths: V3.paths; pagination: typeof V3.pagination };
}

export type Version = keyof VersionTypes;

export type PathsOf<V extends Version> = VersionTypes[V]["paths"];

/**
 * The client of a version: `createClient()` of `@cdas/client-vN`, except that what the SDK fills in
 * (the institutions list's `client_id`) is optional; the version header is in no client's types (the
 * generator leaves it out: every client sends it). Over a union of versions, one client of the paths
 * they share, each answering the union of their bodies (a union of clients could not be called). An
 * error answer without a body gives the SDK's error of its status as `error` (core.ts), where
 * openapi-fetch gives `undefined`: `error` is the documented body or a `CdasApiError`.
 */
export type ClientOf<V extends Version> = ExactClient<SdkPaths<V>, CdasApiError>;

/** The paths of a version with what the SDK fills in made optional, where the document requires it. */
type SdkPaths<V extends Version> = {
  [P in keyof PathsOf<V>]: {
    [M in keyof PathsOf<V>[P]]: M extends "parameters"
      ? PathsOf<V>[P][M]
      : Relaxed<PathsOf<V>[P][M], M extends "get" ? P : never>;
  };
};

/** An operation relaxed only when the SDK fills in part of its query (others keep their exact type). */
type Relaxed<Operation, P> = [SdkFilledQuery<P>] extends [never] ? Operation : RelaxedOperation<Operation, P>;

/** The list operations of a version (keys of its generated `pagination` map). */
export type ListPath<V extends Version> = keyof VersionTypes[V]["pagination"] & keyof PathsOf<V> & string;

type GetOperation<V extends Version, P extends ListPath<V>> = PathsOf<V>[P] extends { get: infer Operation }
  ? Operation
  : never;

/** The 200 JSON body of a list operation (over a union of versions, the union of their bodies). */
export type ListBody<V extends Version, P extends ListPath<V>> = V extends Version
  ? GetOperation<V, P> extends {
      responses: { 200: { content: { "application/json": infer Body } } };
    }
    ? Body
    : never
  : never;

type ItemsKey<V extends Version, P extends ListPath<V>> = VersionTypes[V]["pagination"][P] extends {
  items: infer Key;
}
  ? Key
  : never;

type ElementOf<List> = NonNullable<List> extends readonly (infer Item)[] ? Item : never;

/**
 * The item type of a list operation: an element of the bare array, or of the array under `items`
 * (over a union of versions, the union of their items).
 */
export type ListItem<V extends Version, P extends ListPath<V>> = V extends Version
  ? ItemsKey<V, P> extends ""
    ? ElementOf<ListBody<V, P>>
    : ItemsKey<V, P> extends keyof ListBody<V, P>
      ? ElementOf<ListBody<V, P>[ItemsKey<V, P>]>
      : never
  : never;

type ParamsOf<Operation> = Operation extends { parameters: infer Params } ? Params : never;

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type WithOptional<T, K extends PropertyKey> = Omit<T, K> & Partial<Pick<T, Extract<keyof T, K>>>;

/** Makes `keys` of one parameter section optional, and the section itself when nothing in it stays required. */
type RelaxSection<Params, Section extends string, Keys extends PropertyKey> = Section extends keyof Params
  ? [NonNullable<Params[Section]>] extends [never]
    ? { [_ in Section]?: never }
    : [RequiredKeys<WithOptional<NonNullable<Params[Section]>, Keys>>] extends [never]
      ? { [_ in Section]?: WithOptional<NonNullable<Params[Section]>, Keys> }
      : { [_ in Section]: WithOptional<NonNullable<Params[Section]>, Keys> }
  : unknown;

/** The query parameter the SDK fills in on a path: client_id on the institutions list. */
type SdkFilledQuery<P> = P extends keyof typeof FILLED_QUERY ? (typeof FILLED_QUERY)[P] : never;
type RelaxedOperation<Operation, P> = Omit<Operation, "parameters"> & {
  parameters: Omit<ParamsOf<Operation>, "query"> &
    RelaxSection<ParamsOf<Operation>, "query", SdkFilledQuery<P>>;
};

/** The init of a list path: `client.GET`'s init, except that the institutions list's client_id is optional. */
export type ListInit<V extends Version, P extends ListPath<V>> = V extends Version
  ? MaybeOptionalInit<{ get: RelaxedOperation<GetOperation<V, P>, P> }, "get">
  : never;

export type PaginateArgs<V extends Version, P extends ListPath<V>> =
  undefined extends ListInit<V, P>
    ? [init?: ListInit<V, P>, options?: PaginateOptions]
    : [init: ListInit<V, P>, options?: PaginateOptions];

export interface Sdk<V extends Version> {
  readonly version: V;
  /** The normalised base URL (no trailing slash). */
  readonly baseUrl: string;
  readonly clientId: string;
  /**
   * openapi-fetch client of the version, with auth, headers, retries, deadlines and typed failures
   * built in; `client.use(...)` adds your own middleware (it runs on `paginate`'s pages too).
   */
  readonly client: ClientOf<V>;
  /**
   * Iterates every item of a list operation across pages; `.pages()` iterates whole pages.
   * Throws a CdasApiError subclass for a non-2xx page and a CdasError for any other failure.
   */
  paginate<P extends ListPath<V>>(
    path: P,
    ...args: PaginateArgs<V, P>
  ): Paginator<ListItem<V, P>, ListBody<V, P>>;
  /**
   * A copy of this SDK with other limits for its calls (`timeoutMs`, `maxResponseBytes`, `maxRetries`,
   * `retryBaseDelayMs`, `maxRetryDelayMs`; those left out are this SDK's, which keeps its own). It
   * shares this SDK's token and middleware (`client.use` on either applies to both); the token call
   * keeps `createSdk`'s limits.
   */
  withOptions(options: SdkCallOptions): Sdk<V>;
}
