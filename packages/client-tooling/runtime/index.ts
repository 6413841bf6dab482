// Runtime code the client packages share; tsup bundles it into each client (this package is a devDependency).
import type { Client, ClientOptions } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";

type CreateClient = typeof openapiFetch.default;

// esbuild gives the CommonJS build of a "type": "module" package Node's interop, in which the default
// import is openapi-fetch's whole CommonJS `exports` object; the function is then its `default`.
const interopDefault = openapiFetch.default as CreateClient & { default?: CreateClient };
const createOpenApiFetchClient: CreateClient = interopDefault.default ?? interopDefault;

/** The media type the interface gives for `accept` on every request and `content-type` on one with a body. */
const JSON_MEDIA_TYPE = "application/json; charset=UTF-8";

/**
 * openapi-fetch's client for one API version: every option passes through, and each request carries
 * `X-Platform-Version: <apiVersion>` and the interface's `accept` unless the caller's headers set them
 * (or remove them with `null`). openapi-fetch labels a JSON body `application/json`; the client's
 * `fetch` (the caller's, if given) receives it labelled with the interface's charset.
 */
export function createVersionedClient<Paths extends {}>(
  apiVersion: string,
  options?: ClientOptions,
): Client<Paths> {
  const headers = openapiFetch.mergeHeaders(
    { "X-Platform-Version": apiVersion, Accept: JSON_MEDIA_TYPE },
    options?.headers,
  );
  // openapi-fetch passes its `requestInitExt` option as a second argument: it goes on with the request.
  const send: (request: Request, init?: RequestInit) => Promise<Response> =
    options?.fetch ?? ((request, init) => globalThis.fetch(request, init));
  const fetch = (request: Request, init?: RequestInit) => {
    if (request.headers.get("content-type") === "application/json") {
      request.headers.set("content-type", JSON_MEDIA_TYPE);
    }
    return send(request, init);
  };
  return createOpenApiFetchClient<Paths>({ ...options, headers, fetch });
}
