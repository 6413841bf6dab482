// Runtime code the client packages share; tsup bundles it into each client (this package is a devDependency).
import type {
  Client,
  ClientOptions,
  ClientPathsWithMethod,
  FetchResponse,
  MaybeOptionalInit,
  ParseAs,
} from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";

type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
// biome-ignore lint/complexity/noBannedTypes: openapi-fetch's own constraint on a client's paths.
type OperationsByPath = Record<string, Record<HttpMethod, {}>>;
type Media = `${string}/${string}`;

/** Whether the init of each path of a method may be left out. */
type InitPresence<Paths extends OperationsByPath, Method extends HttpMethod> = {
  [Path in ClientPathsWithMethod<Client<Paths>, Method>]: undefined extends MaybeOptionalInit<
    Paths[Path],
    Method
  >
    ? "optional"
    : "required";
};

/**
 * A call's init as written, `parseAs` the one part inferred; left out only where `Presence` allows.
 * An indexed object, not a condition: each package that bundles these types has a copy of them, and
 * copies of a condition on a type parameter do not match one another.
 */
type InitArgs<Init, As, Presence> = {
  optional: [init?: Init & { parseAs?: As }];
  required: [init: Init & { parseAs?: As }];
}[Presence & ("optional" | "required")];

/**
 * A call's result whose `error` may also be `Extra` (the SDK's: its error of the status for an error
 * answer without a body, where openapi-fetch gives `undefined`); the result as it is when `Extra` is
 * `never`, as for the clients.
 */
type WithExtraError<Result, Extra> = [Extra] extends [never]
  ? Result
  : Result extends { error: infer Body }
    ? Omit<Result, "error"> & { error: Body | Extra }
    : Result;

/**
 * A method of openapi-fetch's client whose init is checked as written: a key the operation does not
 * have (a misspelt query parameter) fails to compile. openapi-fetch's own method infers the whole init
 * and adds an index signature to it, so such a key compiles and is sent (openapi-typescript issue
 * 2329). Only `parseAs` is inferred, as the type of `data` follows it.
 */
type ExactMethod<Paths extends OperationsByPath, Method extends HttpMethod, Extra> = <
  Path extends ClientPathsWithMethod<Client<Paths>, Method>,
  As extends ParseAs = "json",
>(
  url: Path,
  ...init: InitArgs<MaybeOptionalInit<Paths[Path], Method>, As, InitPresence<Paths, Method>[Path]>
) => Promise<WithExtraError<FetchResponse<Paths[Path][Method], { parseAs: As }, Media>, Extra>>;

/** `ExactMethod` with the method as an argument. */
type ExactRequestOf<Paths extends OperationsByPath, Method extends HttpMethod, Extra> = <
  Path extends ClientPathsWithMethod<Client<Paths>, Method>,
  As extends ParseAs = "json",
>(
  method: Method,
  url: Path,
  ...init: InitArgs<MaybeOptionalInit<Paths[Path], Method>, As, InitPresence<Paths, Method>[Path]>
) => Promise<WithExtraError<FetchResponse<Paths[Path][Method], { parseAs: As }, Media>, Extra>>;

/** openapi-fetch's `request`, exact: one signature per method, so that each path's init is known (see `InitArgs`). */
type ExactRequest<Paths extends OperationsByPath, Extra> = ExactRequestOf<Paths, "get", Extra> &
  ExactRequestOf<Paths, "put", Extra> &
  ExactRequestOf<Paths, "post", Extra> &
  ExactRequestOf<Paths, "delete", Extra> &
  ExactRequestOf<Paths, "options", Extra> &
  ExactRequestOf<Paths, "head", Extra> &
  ExactRequestOf<Paths, "patch", Extra> &
  ExactRequestOf<Paths, "trace", Extra>;

/**
 * openapi-fetch's client (the same object) with each call's init checked as written (`ExactMethod`);
 * `Extra`, what else a call's `error` may be (`WithExtraError`).
 */
export interface ExactClient<Paths extends {}, Extra = never>
  extends Omit<
    Client<Paths>,
    "request" | "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE"
  > {
  request: ExactRequest<Paths, Extra>;
  GET: ExactMethod<Paths, "get", Extra>;
  PUT: ExactMethod<Paths, "put", Extra>;
  POST: ExactMethod<Paths, "post", Extra>;
  DELETE: ExactMethod<Paths, "delete", Extra>;
  OPTIONS: ExactMethod<Paths, "options", Extra>;
  HEAD: ExactMethod<Paths, "head", Extra>;
  PATCH: ExactMethod<Paths, "patch", Extra>;
  TRACE: ExactMethod<Paths, "trace", Extra>;
}

type CreateClient = typeof openapiFetch.default;

// esbuild gives the CommonJS build of a "type": "module" package Node's interop, in which the default
// import is openapi-fetch's whole CommonJS `exports` object; the function is then its `default`.
const interopDefault = openapiFetch.default as CreateClient & { default?: CreateClient };
const createOpenApiFetchClient: CreateClient = interopDefault.default ?? interopDefault;

/** The media type the interface gives for `accept` on every request and `content-type` on one with a body. */
const JSON_MEDIA_TYPE = "application/json; charset=UTF-8";

/**
 * openapi-fetch's client for one API version: every option passes through, and each request carries
 * `X-Platform-Version: <apiVersion>` (a call whose headers set another is refused before it is sent,
 * unless it brings a `fetch` of its own) and the interface's `accept` unless the caller's headers set
 * it (`null` removes either). openapi-fetch labels a JSON body `application/json`; the client's
 * `fetch` (the caller's, if given) receives it labelled with the interface's charset.
 */
export function createVersionedClient<Paths extends {}>(
  apiVersion: string,
  options?: ClientOptions,
): ExactClient<Paths> {
  const headers = openapiFetch.mergeHeaders(
    { "X-Platform-Version": apiVersion, Accept: JSON_MEDIA_TYPE },
    options?.headers,
  );
  // openapi-fetch passes its `requestInitExt` option as a second argument: it goes on with the request.
  const send: (request: Request, init?: RequestInit) => Promise<Response> =
    options?.fetch ?? ((request, init) => globalThis.fetch(request, init));
  const fetch = (request: Request, init?: RequestInit) => {
    // The types describe this version's answers: one of another version would come back typed as this
    // one's, and go wrong only where its data is read. (A request without the header is let through: a
    // middleware's own request, to the token endpoint or elsewhere, has none.)
    const sent = request.headers.get("x-platform-version");
    if (sent !== null && sent !== apiVersion) {
      throw new Error(
        `${request.method} ${new URL(request.url).pathname}: X-Platform-Version must be ${apiVersion}, the version this client's types describe (got ${JSON.stringify(sent)}); for another version, use that version's client`,
      );
    }
    if (request.headers.get("content-type") === "application/json") {
      request.headers.set("content-type", JSON_MEDIA_TYPE);
    }
    return send(request, init);
  };
  // The same client: only the types of its methods' init are stricter.
  return createOpenApiFetchClient<Paths>({ ...options, headers, fetch }) as unknown as ExactClient<Paths>;
}
