/** The API facts the SDK acts on, in one table: nothing else in the SDK names a path. */

/** The segment every path of the API starts with, in every version (the version is a header). */
export const PATH_PREFIX = "/v1";

/** The token operation: `POST` with the client credentials in the body, never with a bearer. */
export const TOKEN_PATH = `${PATH_PREFIX}/token`;

/** Query parameters the SDK fills in, by path: the institutions list takes the team's `client_id`. */
export const FILLED_QUERY = { "/v1/institutions": "client_id" } as const;

/** The request header the SDK sends on every call with the chosen version. */
export const VERSION_HEADER = "X-Platform-Version";

/** The media type of JSON requests and answers, as the interface writes it. */
export const JSON_MEDIA_TYPE = "application/json; charset=UTF-8";
