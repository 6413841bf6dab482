/**
 * The sandbox server on Node's own HTTP stack (see transport.ts): a request's path is matched
 * against the bundles' paths, then every request runs the same pipeline: version choice, credentials, parameter and body validation against the bundle of
 * the requested version, the operation's handler, then paging by its `x-cdas-pagination`.
 */
import type { IncomingHttpHeaders, RequestListener } from "node:http";
import { inspect } from "node:util";
import { parse as parseQuery } from "fast-querystring";
import {
  describeValidationError,
  indexBundle,
  type JsonObject,
  loadBundleDocument,
  type OperationInfo,
  VERSION_HEADER,
  type VersionBundle,
} from "./bundle.js";
import { generateDataSet } from "./data/generate.js";
import { isCalendarDate } from "./dates.js";
import { ApiError, documentedStatus, errorBody, errorResponseFor, SHORT_JSON } from "./errors.js";
import { type HandlerContext, type HandlerResult, handlers, SandboxState } from "./handlers.js";
import { cursorPage, offsetPage } from "./paging.js";
import { hashString, Prng } from "./prng.js";
import { makeCertificates } from "./tls.js";
import { type Client, TokenStore } from "./tokens.js";
import { hasBody, listen, readBody, writeResponse } from "./transport.js";

export const SUPPORTED_VERSIONS = ["v1", "v2", "v3"] as const;
export type ApiVersion = (typeof SUPPORTED_VERSIONS)[number];
// Query numbers are plain decimal literals: no hex, no blanks, no empty value (Ajv coercion would take them).
const INTEGER_TEXT = /^-?\d{1,16}$/;
const NUMBER_TEXT = /^-?(\d{1,16}(\.\d{1,16})?|\.\d{1,16})$/;

export interface MockServerOptions {
  /** Port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Seed of the data set (and of the default credentials); default 1. */
  seed?: number | string;
  /** Lifetime of issued tokens; default 3600. */
  tokenTtlSeconds?: number;
  /** Version served when a request has no X-Platform-Version header; default v3. */
  defaultVersion?: ApiVersion;
  /** HTTPS with a certificate made at start (default, `true`), or plain HTTP (`false`). */
  tls?: boolean;
  /** Form of the token response: `{access_token, token_type, expires_in}` (default) or `{token, expires_in}`. */
  tokenForm?: "access_token" | "token";
  /** Last day the data set covers (`YYYY-MM-DD`); every date in the data is anchored to it. Default 2026-06-30. */
  referenceDate?: string;
  /** "Today" for the 90-day default window of transactions (`YYYY-MM-DD` or a Date); default the reference date. */
  today?: string | Date;
  /** Credentials of the main client (whose tokens carry `api:user.write`); default derived from the seed. */
  clientId?: string;
  clientSecret?: string;
  /** Clock in milliseconds, for token expiry; default Date.now. */
  now?: () => number;
  /** Bundles to serve instead of those of @cdas/spec (parsed OpenAPI documents by version). */
  bundles?: Partial<Record<ApiVersion, object>>;
  /** Called after each response with its method, path (never the query or body), status and duration. */
  onResponse?: (entry: RequestLogEntry) => void;
}

export interface RequestLogEntry {
  method: string;
  /** The path only: queries and bodies are never passed on, so credentials cannot leak into logs. */
  path: string;
  status: number;
  version: string | undefined;
  milliseconds: number;
}

export interface ClientCredentials {
  clientId: string;
  /** Not enumerable and redacted from inspection, so it does not leak into logs. */
  readonly clientSecret: string;
}

export interface MockServer extends ClientCredentials {
  /** Base address, e.g. `https://127.0.0.1:4010`. */
  url: string;
  /** PEM of the certificate authority that signed the server certificate; null with `tls: false`. */
  ca: string | null;
  /** A second client whose tokens lack the `api:user.write` scope. */
  readOnlyClient: ClientCredentials;
  defaultVersion: ApiVersion;
  referenceDate: string;
  today: string;
  /** Operation ids present in a bundle that the sandbox does not implement (expected to be empty). */
  unimplementedOperations: string[];
  close(): Promise<void>;
}

const WRITE_SCOPE = "api:user.write";

// Indexed bundles of @cdas/spec and generated data sets are immutable: servers of one process share them.
const specBundles = new Map<string, VersionBundle>();
const dataSets = new Map<string, ReturnType<typeof generateDataSet>>();

function specBundle(version: string): VersionBundle {
  let bundle = specBundles.get(version);
  if (!bundle) {
    bundle = indexBundle(version, loadBundleDocument(version));
    specBundles.set(version, bundle);
  }
  return bundle;
}

function dataSet(seed: number | string, referenceDate: string): ReturnType<typeof generateDataSet> {
  const key = `${typeof seed}:${String(seed)}:${referenceDate}`;
  let data = dataSets.get(key);
  if (!data) {
    data = generateDataSet({ seed, referenceDate });
    dataSets.set(key, data);
  }
  return data;
}

function redactedCredentials(clientId: string, clientSecret: string): ClientCredentials {
  const credentials = { clientId } as ClientCredentials;
  Object.defineProperty(credentials, "clientSecret", { value: clientSecret, enumerable: false });
  Object.defineProperty(credentials, inspect.custom, {
    value: () => `{ clientId: ${JSON.stringify(clientId)}, clientSecret: '[redacted]' }`,
    enumerable: false,
    configurable: true,
  });
  Object.defineProperty(credentials, "toJSON", { value: () => ({ clientId }), enumerable: false });
  return credentials;
}

function makeClient(clientId: string, secret: string, scopes: string[]): Client {
  const client = { clientId, scopes } as unknown as Client;
  Object.defineProperty(client, "secret", { value: secret, enumerable: false });
  return client;
}

function toDateText(value: string | Date | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : value;
  if (!isCalendarDate(text)) throw new TypeError(`Expected a YYYY-MM-DD date, got ${JSON.stringify(value)}`);
  return text;
}

/** Starts the sandbox. Resolves once it listens. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? "127.0.0.1";
  const seed = options.seed ?? 1;
  const useTls = options.tls ?? true;
  const defaultVersion = options.defaultVersion ?? "v3";
  if (!SUPPORTED_VERSIONS.includes(defaultVersion))
    throw new TypeError(`Unsupported default version ${defaultVersion}`);
  const referenceDate = toDateText(options.referenceDate, "2026-06-30");
  const today = toDateText(options.today, referenceDate);
  const ttl = options.tokenTtlSeconds ?? 3600;
  if (!Number.isSafeInteger(ttl) || ttl <= 0)
    throw new TypeError("tokenTtlSeconds must be a positive integer");
  const now = options.now ?? Date.now;

  const credentialRng = new Prng(hashString(`credentials:${String(seed)}`));
  const clientId = options.clientId ?? `cli_${credentialRng.hex(16)}`;
  const clientSecret = options.clientSecret ?? `sk_sandbox_${credentialRng.hex(32)}`;
  const readOnlyId = `${clientId}_readonly`;
  const readOnlySecret = `sk_sandbox_ro_${credentialRng.hex(32)}`;
  const tokens = new TokenStore(
    [makeClient(clientId, clientSecret, [WRITE_SCOPE]), makeClient(readOnlyId, readOnlySecret, [])],
    ttl,
    now,
  );

  const bundles = new Map<string, VersionBundle>();
  for (const version of SUPPORTED_VERSIONS) {
    const given = options.bundles?.[version] as JsonObject | undefined;
    bundles.set(version, given ? indexBundle(version, given) : specBundle(version));
  }
  const data = dataSet(seed, referenceDate);
  const state = new SandboxState(data, today, clientId, options.tokenForm ?? "access_token", tokens, now);

  const unimplemented = new Set<string>();
  for (const bundle of bundles.values()) {
    for (const op of bundle.operations) if (!handlers[op.operationId]) unimplemented.add(op.operationId);
  }

  const material = useTls ? await makeCertificates(host) : null;
  const pipeline: Pipeline = { routes: new Routes(bundles), bundles, defaultVersion, state };
  const transport = await listen({
    tls: material,
    port: options.port ?? 0,
    host,
    listener: requestListener(pipeline, options.onResponse),
    errorBody: (message) => JSON.stringify(errorBody(SHORT_JSON, message, "bad_request", 400)),
  });

  const address = transport.listening.address();
  const boundPort = typeof address === "object" && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  const url = `${material ? "https" : "http"}://${urlHost}:${boundPort}`;

  const handle = redactedCredentials(clientId, clientSecret) as MockServer;
  Object.assign(handle, {
    url,
    ca: material?.ca ?? null,
    readOnlyClient: redactedCredentials(readOnlyId, readOnlySecret),
    defaultVersion,
    referenceDate,
    today,
    unimplementedOperations: [...unimplemented].sort(),
  });
  Object.defineProperty(handle, inspect.custom, {
    value: () => `MockServer { url: '${url}', clientId: '${clientId}', clientSecret: '[redacted]' }`,
    enumerable: false,
  });
  Object.defineProperty(handle, "close", { enumerable: false, value: () => transport.close() });
  return handle;
}

interface Pipeline {
  routes: Routes;
  bundles: Map<string, VersionBundle>;
  defaultVersion: ApiVersion;
  state: SandboxState;
}

/** What one request carries once its path is matched and its query parsed. */
interface RequestParts {
  method: string;
  /** The path as sent (still percent-encoded): paging links are built on it. */
  path: string;
  /** The operation path template it matched, e.g. `/v1/banking/products/{product_id}`. */
  template: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  /** Text of the body; undefined without one, null when it was over the size limit. */
  body: string | undefined | null;
}

interface Reply {
  status: number;
  mediaType: string;
  body: string;
  headers?: Record<string, string>;
}

const MAX_PATH_PARAMETER_LENGTH = 500;
// Absolute-form request targets (`GET https://host/path`) are answered like their path.
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** The fixed paths of every bundle, and the one-parameter templates (`/v1/banking/products/{product_id}`). */
class Routes {
  private readonly fixed = new Set<string>();
  private readonly templated: { prefix: string; template: string; parameter: string }[] = [];

  constructor(bundles: Map<string, VersionBundle>) {
    const paths = new Set<string>();
    for (const bundle of bundles.values()) for (const path of bundle.operationsByPath.keys()) paths.add(path);
    for (const path of paths) {
      const parameter = /^([^{}]*\/)\{([^}/]+)\}$/.exec(path);
      if (parameter) this.templated.push({ prefix: parameter[1]!, template: path, parameter: parameter[2]! });
      else if (!path.includes("{")) this.fixed.add(path);
      else throw new Error(`path ${path} has a parameter before its end; the sandbox routes one, last`);
    }
  }

  /** The template a path matches and its parameters; throws a 400 for broken percent-encoding. */
  match(path: string): { template: string; params: Record<string, string> } | undefined {
    if (this.fixed.has(path)) return { template: path, params: {} };
    if (path.includes("%")) {
      const decoded = decodePathText(path);
      if (this.fixed.has(decoded)) return { template: decoded, params: {} };
    }
    for (const route of this.templated) {
      if (!path.startsWith(route.prefix)) continue;
      const value = path.slice(route.prefix.length);
      if (value === "" || value.includes("/") || value.length > MAX_PATH_PARAMETER_LENGTH) continue;
      return { template: route.template, params: { [route.parameter]: decodePathText(value) } };
    }
    return undefined;
  }
}

function decodePathText(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ApiError(
      400,
      `bad request: '${text.slice(0, 200)}' is not a valid url component`,
      "bad_request",
      {},
      true,
    );
  }
}

/** The request listener: route, read the body when there is one, run the pipeline, write the reply. */
function requestListener(pipeline: Pipeline, onResponse: MockServerOptions["onResponse"]): RequestListener {
  return (request, response) => {
    const started = onResponse ? performance.now() : 0;
    const method = request.method ?? "GET";
    let url = request.url ?? "/";
    if (url.charCodeAt(0) !== 47) url = url.replace(ABSOLUTE_FORM, "") || "/";
    const queryStart = url.indexOf("?");
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const respond = (reply: Reply) => {
      writeResponse(response, reply.status, reply.mediaType, reply.body, reply.headers);
      if (onResponse) {
        const header = request.headers[VERSION_HEADER];
        onResponse({
          method,
          path,
          status: reply.status,
          version: typeof header === "string" ? header : undefined,
          milliseconds: performance.now() - started,
        });
      }
    };

    let route: ReturnType<Routes["match"]>;
    try {
      route = pipeline.routes.match(path);
    } catch (error) {
      respond(errorReply(undefined, error));
      return;
    }
    if (!route) {
      respond(
        errorReply(undefined, new ApiError(404, `no operation at ${method} ${path}`, "not_found", {}, true)),
      );
      return;
    }
    const parts: RequestParts = {
      method,
      path,
      template: route.template,
      params: route.params,
      query: parseQuery(queryStart === -1 ? "" : url.slice(queryStart + 1)) as Record<string, unknown>,
      headers: request.headers,
      body: undefined,
    };
    if (!hasBody(request)) {
      respond(handleRequest(pipeline, parts));
      return;
    }
    readBody(request)
      .then((body) => {
        parts.body = body;
        respond(handleRequest(pipeline, parts));
      })
      // handleRequest turns every failure into a reply; this only guards the write to a socket gone bad.
      .catch(() => response.destroy());
  };
}

/** Version choice, then the operation's checks and handler; every failure becomes its documented error. */
function handleRequest(pipeline: Pipeline, request: RequestParts): Reply {
  const { bundles, defaultVersion } = pipeline;
  const { method, template } = request;
  let op: OperationInfo | undefined;
  try {
    const version = chooseVersion(request.headers, bundles, defaultVersion);
    const bundle = bundles.get(version.version)!;
    const byMethod = bundle.operationsByPath.get(template);
    op = byMethod?.get(method);
    if (!op) {
      const allowed = [...(byMethod?.keys() ?? [])];
      throw new ApiError(
        405,
        `method ${method} is not allowed on ${template}; use ${allowed.join(", ")}`,
        "method_not_allowed",
        { allow: allowed.join(", ") },
        true,
      );
    }
    if (version.error) throw version.error;
    if (request.body === null)
      throw new ApiError(400, "request body is too large", "bad_request", { connection: "close" });
    if (version.defaulted && op.versionHeaderRequired) {
      throw new ApiError(
        400,
        `header X-Platform-Version is required on ${method} ${template} in ${op.version}`,
        "bad_request",
      );
    }
    return resultReply(op, request, runOperation(op, request, pipeline.state));
  } catch (error) {
    return errorReply(op ?? operationForErrors(bundles, defaultVersion, method, template), error);
  }
}

/** The operation whose documented errors shape an answer when the request named no valid one. */
function operationForErrors(
  bundles: Map<string, VersionBundle>,
  version: string,
  method: string,
  path: string,
): OperationInfo | undefined {
  const byMethod = bundles.get(version)!.operationsByPath.get(path);
  return byMethod?.get(method) ?? byMethod?.values().next().value;
}

function chooseVersion(
  headers: IncomingHttpHeaders,
  bundles: Map<string, VersionBundle>,
  defaultVersion: string,
): { version: string; defaulted?: boolean; error?: ApiError } {
  const header = headers[VERSION_HEADER];
  if (header === undefined) return { version: defaultVersion, defaulted: true };
  if (typeof header === "string" && bundles.has(header)) return { version: header };
  return {
    version: defaultVersion,
    error: new ApiError(
      400,
      `header X-Platform-Version must be one of ${[...bundles.keys()].join(", ")} (got ${JSON.stringify(String(header)).slice(0, 40)})`,
      "bad_request",
    ),
  };
}

const NO_SCOPES: ReadonlySet<string> = new Set();

/** Checks credentials and parameters, then runs the operation's handler (synchronously: no await per request). */
function runOperation(op: OperationInfo, request: RequestParts, state: SandboxState): HandlerResult {
  // Credentials first: without a valid token nothing else is revealed.
  let scopes: ReadonlySet<string> = NO_SCOPES;
  if (op.security) {
    const check = state.tokens.check(request.headers.authorization);
    if (check.ok) scopes = check.scopes;
    else if (!(op.security.optional && check.reason === "missing")) {
      const message =
        check.reason === "expired"
          ? "token has expired; request a new one"
          : check.reason === "missing"
            ? "missing bearer token in the Authorization header"
            : "invalid bearer token";
      throw new ApiError(401, message, "unauthorized");
    }
    const missingScope = op.security.scopes.find((scope) => !scopes.has(scope));
    if (check.ok && missingScope)
      throw new ApiError(401, `token lacks the scope ${missingScope}`, "unauthorized");
  }

  const rawQuery = request.query;
  for (const name in rawQuery) {
    const value = rawQuery[name];
    if (Array.isArray(value))
      throw new ApiError(400, `parameter ${name} is repeated; give it once`, "bad_request");
    if (value === "" && op.requiredQuery.has(name))
      throw new ApiError(400, `parameter ${name} must not be empty`, "bad_request");
  }
  for (const [name, type] of op.numericQuery) {
    const value = rawQuery[name];
    if (typeof value === "string" && !(type === "integer" ? INTEGER_TEXT : NUMBER_TEXT).test(value)) {
      throw new ApiError(400, `parameter ${name} must be of type ${type}`, "invalid_field_type");
    }
  }
  const query: Record<string, unknown> = { ...rawQuery };
  if (!op.validateQuery(query)) throw validationError(op.validateQuery.errors![0]!, "query");
  const params: Record<string, unknown> = { ...request.params };
  if (op.validatePath && !op.validatePath(params)) throw validationError(op.validatePath.errors![0]!, "path");
  if (op.validateHeaders && !op.validateHeaders({ ...request.headers }))
    throw validationError(op.validateHeaders.errors![0]!, "header");
  for (const [name, value] of op.defaults)
    if (query[name] === undefined && name in query === false) query[name] = value;

  let body: unknown;
  if (op.hasBody) {
    const raw = request.body ?? undefined;
    if (raw === undefined || raw.length === 0) {
      if (op.bodyRequired) throw new ApiError(400, "request body is required (JSON)", "bad_request");
    } else {
      const contentType = String(request.headers["content-type"] ?? "");
      if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType)) {
        throw new ApiError(400, "header content-type must be application/json", "bad_request");
      }
      try {
        body = JSON.parse(raw);
      } catch {
        throw new ApiError(400, "request body is not valid JSON", "bad_request");
      }
      if (op.validateBody && !op.validateBody(body))
        throw validationError(op.validateBody.errors![0]!, "body");
      if (op.bodyProperties && body && typeof body === "object" && !Array.isArray(body)) {
        const unknown = Object.keys(body).find((key) => !op.bodyProperties!.has(key));
        if (unknown !== undefined)
          throw new ApiError(400, `body field body.${unknown} is not allowed here`, "bad_request");
      }
    }
  }

  const handler = handlers[op.operationId];
  if (!handler)
    throw new ApiError(404, `operation ${op.operationId} is not implemented by the sandbox`, "not_found");
  const context: HandlerContext = { op, version: op.version, query, params, body, scopes, state };
  return handler(context);
}

function validationError(
  error: Parameters<typeof describeValidationError>[0],
  location: "query" | "path" | "header" | "body",
): ApiError {
  const described = describeValidationError(error, location);
  return new ApiError(400, described.message, described.name);
}

function resultReply(op: OperationInfo, request: RequestParts, result: HandlerResult): Reply {
  if (result.kind === "body")
    return { status: result.status ?? 200, mediaType: "application/json", body: JSON.stringify(result.body) };
  const { items: records, serialize } = result;
  const paging = op.pagination;
  const key = paging?.items ?? result.key ?? "";
  const { path, query: rawQuery } = request;
  let page: unknown[] = records;
  let links: Record<string, string> | undefined;
  if (paging?.style === "offset") {
    const limit = Number(result.query.limit ?? 25);
    const offset = Number(result.query.offset ?? 0);
    const slice = offsetPage(records, path, rawQuery, limit, offset);
    page = slice.items;
    links = slice.links;
  } else if (paging?.style === "cursor") {
    const size = result.query["page[size]"];
    const after = result.query["page[after]"] as string | undefined;
    const before = result.query["page[before]"] as string | undefined;
    const optedOut = result.optInPaging && size === undefined && after === undefined && before === undefined;
    if (!optedOut) {
      const slice = cursorPage(records, path, rawQuery, Number(size ?? 25), after, before, op.cursorBackward);
      page = slice.items;
      links = slice.links;
    }
  }
  const serializeItem = serialize as (item: unknown) => unknown;
  const json = result.cacheJson
    ? jsonOf(serializeItem)
    : (item: unknown) => JSON.stringify(serializeItem(item));
  let items = "[";
  for (let i = 0; i < page.length; i++) items += i === 0 ? json(page[i]) : `,${json(page[i])}`;
  items += "]";
  let body = items;
  if (key !== "") {
    body = `{${JSON.stringify(key)}:${items}`;
    if (links && op.successHasLinks) body += `,"links":${JSON.stringify(links)}`;
    body += "}";
  }
  return { status: 200, mediaType: "application/json", body };
}

// JSON of records, by serializer: records are immutable, so a record's JSON never changes. Only
// serializers that live as long as the module are cached (a closure made per request would never hit).
const jsonCache = new WeakMap<(item: unknown) => unknown, (item: unknown) => string>();

/** A function giving the JSON of a record as this serializer shapes it, cached per record. */
function jsonOf(serialize: (item: unknown) => unknown): (item: unknown) => string {
  let json = jsonCache.get(serialize);
  if (!json) {
    const byItem = new WeakMap<object, string>();
    json = (item) => {
      if (typeof item !== "object" || item === null) return JSON.stringify(serialize(item));
      let text = byItem.get(item);
      if (text === undefined) {
        text = JSON.stringify(serialize(item));
        byItem.set(item, text);
      }
      return text;
    };
    jsonCache.set(serialize, json);
  }
  return json;
}

function errorReply(op: OperationInfo | undefined, error: unknown): Reply {
  const apiError = error instanceof ApiError ? error : new ApiError(500, "internal error", "fault");
  const outsideOperation = apiError.outside || !op;
  const status = outsideOperation ? apiError.status : documentedStatus(op, apiError.status);
  const info = outsideOperation ? SHORT_JSON : errorResponseFor(op, status);
  return {
    status,
    mediaType: info.mediaType,
    body: JSON.stringify(errorBody(info, apiError.message, apiError.errorName, status)),
    headers: apiError.headers,
  };
}
