// Runtime code the client packages share; tsup bundles it into each client (this package is a devDependency).
import * as openapiFetch from "openapi-fetch";

type CreateClient = typeof openapiFetch.default;

// esbuild gives the CommonJS build of a "type": "module" package Node's interop, in which the default
// import is openapi-fetch's whole CommonJS `exports` object; the function is then its `default`.
const interopDefault = openapiFetch.default as CreateClient & { default?: CreateClient };

/** openapi-fetch's `createClient`, in both the ESM and the CommonJS build. */
export const createOpenApiFetchClient: CreateClient = interopDefault.default ?? interopDefault;
