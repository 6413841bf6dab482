/**
 * The sandbox server: Fastify behind a small TCP front that sends TLS connections to the HTTPS
 * server and answers anything else (plain HTTP) with a clear 400 and a close. Every route runs the
 * same pipeline: version choice, credentials, parameter and body validation against the bundle of
 * the requested version, the operation's handler, then paging by its `x-cdas-pagination`.
 */
import type { RequestListener } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { inspect } from "node:util";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import {
  describeValidationError,
  indexBundle,
  type JsonObject,
  loadBundleDocument,
  type OperationInfo,
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

export const SUPPORTED_VERSIONS = ["v1", "v2", "v3"] as const;
export type ApiVersion = (typeof SUPPORTED_VERSIONS)[number];
const VERSION_HEADER = "x-platform-version";
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
const FIRST_BYTE_TIMEOUT_MS = 30_000;

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
  const dataKey = `${typeof seed}:${String(seed)}:${referenceDate}`;
  const data = dataSets.get(dataKey) ?? generateDataSet({ seed, referenceDate });
  dataSets.set(dataKey, data);
  const state = new SandboxState(data, today, clientId, options.tokenForm ?? "access_token", tokens, now);

  const unimplemented = new Set<string>();
  for (const bundle of bundles.values()) {
    for (const op of bundle.operations.values())
      if (!handlers[op.operationId]) unimplemented.add(op.operationId);
  }

  const material = useTls ? await makeCertificates(host) : null;
  let httpsServer: HttpsServer | undefined;
  const fastifyOptions = {
    logger: false,
    exposeHeadRoutes: false,
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: false, caseSensitive: true },
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) =>
      sendError(reply, undefined, new ApiError(400, `bad request: ${error.message}`, "bad_request")),
    ...(material
      ? {
          serverFactory: (handler: RequestListener) => {
            httpsServer = createHttpsServer({ key: material.key, cert: material.cert }, handler);
            return httpsServer;
          },
        }
      : {}),
  };
  const app = Fastify(fastifyOptions as FastifyServerOptions) as unknown as FastifyInstance;

  const onResponse = options.onResponse;
  if (onResponse) {
    app.addHook("onResponse", async (request, reply) => {
      const header = request.headers[VERSION_HEADER];
      onResponse({
        method: request.method,
        path: request.url.split("?")[0]!,
        status: reply.statusCode,
        version: typeof header === "string" ? header : undefined,
        milliseconds: reply.elapsedTime,
      });
    });
  }
  registerRoutes(app, bundles, defaultVersion, state);

  const port = options.port ?? 0;
  let front: NetServer | undefined;
  const sockets = new Set<Socket>();
  if (material && httpsServer) {
    await app.ready();
    const target = httpsServer;
    front = createNetServer({ pauseOnConnect: true }, (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
      // A connection that never says anything is dropped rather than held open.
      socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
      socket.once("data", (chunk: Buffer) => {
        socket.pause();
        socket.setTimeout(0);
        if (chunk[0] === 0x16) {
          socket.unshift(chunk);
          target.emit("connection", socket);
          return;
        }
        const body = JSON.stringify({
          id: "plain-http",
          message:
            "This service accepts HTTPS only; plain HTTP is rejected. Use https:// with the sandbox CA.",
          name: "bad_request",
        });
        socket.end(
          `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      });
      socket.resume();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        front!.once("error", reject);
        front!.listen(port, host, () => resolve());
      });
    } catch (error) {
      await app.close();
      throw error;
    }
  } else {
    await app.listen({ port, host });
  }

  const address = (front ?? app.server).address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  const url = `${material ? "https" : "http"}://${urlHost}:${boundPort}`;

  let closed: Promise<void> | undefined;
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
  Object.defineProperty(handle, "close", {
    enumerable: false,
    value: () => {
      closed ??= (async () => {
        if (front) {
          const stopped = new Promise<void>((resolve) => front!.close(() => resolve()));
          for (const socket of sockets) socket.destroy();
          await stopped;
          httpsServer?.closeAllConnections?.();
        }
        await app.close();
      })();
      return closed;
    },
  });
  return handle;
}

/** Fastify path syntax for an OpenAPI path template. */
function routePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

function registerRoutes(
  app: FastifyInstance,
  bundles: Map<string, VersionBundle>,
  defaultVersion: ApiVersion,
  state: SandboxState,
): void {
  // Bodies arrive as text whatever their declared type; each operation parses and validates them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));

  const paths = new Set<string>();
  for (const bundle of bundles.values()) for (const op of bundle.operations.values()) paths.add(op.path);

  for (const path of paths) {
    app.route({
      method: ALL_METHODS,
      url: routePath(path),
      handler: async (request, reply) => {
        let op: OperationInfo | undefined;
        try {
          const version = chooseVersion(request, bundles, defaultVersion);
          const bundle = bundles.get(version.version)!;
          op = bundle.operations.get(`${request.method} ${path}`);
          if (!op) {
            const allowed = [...bundle.operations.values()]
              .filter((o) => o.path === path)
              .map((o) => o.method);
            throw new ApiError(
              405,
              `method ${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
              "method_not_allowed",
              { allow: allowed.join(", ") },
              true,
            );
          }
          if (version.error) throw version.error;
          if (
            version.defaulted &&
            op.parameters.some(
              (p) => p.in === "header" && p.required && p.name.toLowerCase() === VERSION_HEADER,
            )
          ) {
            throw new ApiError(
              400,
              `header X-Platform-Version is required on ${request.method} ${path} in ${op.version}`,
              "bad_request",
            );
          }
          const result = runOperation(op, request, state);
          return sendResult(reply, op, request, result);
        } catch (error) {
          return sendError(
            reply,
            op ?? operationForErrors(bundles, defaultVersion, request.method, path),
            error,
          );
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      undefined,
      new ApiError(
        404,
        `no operation at ${request.method} ${request.url.split("?")[0]}`,
        "not_found",
        {},
        true,
      ),
    ),
  );
  app.setErrorHandler((error, request, reply) => {
    const path = request.routeOptions?.url;
    // Errors raised before the handler (body too large, unreadable body) in the requested version's shape.
    const { version } = chooseVersion(request, bundles, defaultVersion);
    const op = path
      ? operationForErrors(bundles, version, request.method, path.replace(/:([^/]+)/g, "{$1}"))
      : undefined;
    const status =
      typeof (error as { statusCode?: number }).statusCode === "number"
        ? (error as { statusCode: number }).statusCode
        : 500;
    const message =
      status === 413
        ? "request body is too large"
        : status < 500
          ? (error as Error).message
          : "internal error";
    return sendError(
      reply,
      op,
      new ApiError(status < 500 ? 400 : 500, message, status < 500 ? "bad_request" : "fault"),
    );
  });
}

/** The operation whose documented errors shape an answer when the request named no valid one. */
function operationForErrors(
  bundles: Map<string, VersionBundle>,
  version: string,
  method: string,
  path: string,
): OperationInfo | undefined {
  const bundle = bundles.get(version)!;
  return (
    bundle.operations.get(`${method} ${path}`) ??
    [...bundle.operations.values()].find((candidate) => candidate.path === path)
  );
}

function chooseVersion(
  request: FastifyRequest,
  bundles: Map<string, VersionBundle>,
  defaultVersion: string,
): { version: string; defaulted?: boolean; error?: ApiError } {
  const header = request.headers[VERSION_HEADER];
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

/** Checks credentials and parameters, then runs the operation's handler (synchronously: no await per request). */
function runOperation(op: OperationInfo, request: FastifyRequest, state: SandboxState): HandlerResult {
  // Credentials first: without a valid token nothing else is revealed.
  let scopes: ReadonlySet<string> = new Set();
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

  const rawQuery = request.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(rawQuery)) {
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
  const params: Record<string, unknown> = { ...(request.params as Record<string, unknown>) };
  if (op.hasPathParameters && !op.validatePath(params))
    throw validationError(op.validatePath.errors![0]!, "path");
  if (op.hasHeaderParameters && !op.validateHeaders({ ...request.headers })) {
    throw validationError(op.validateHeaders.errors![0]!, "header");
  }
  for (const [name, value] of op.defaults)
    if (query[name] === undefined && name in query === false) query[name] = value;

  let body: unknown;
  if (op.hasBody) {
    const raw = typeof request.body === "string" ? request.body : undefined;
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

function sendResult(reply: FastifyReply, op: OperationInfo, request: FastifyRequest, result: HandlerResult) {
  if (result.kind === "body") {
    return reply
      .code(result.status ?? 200)
      .type("application/json")
      .send(JSON.stringify(result.body));
  }
  const { items: records, serialize } = result;
  const paging = op.pagination;
  const key = paging?.items ?? result.key ?? "";
  const queryStart = request.url.indexOf("?");
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const rawQuery = request.query as Record<string, unknown>;
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
      const backward = op.parameters.some((p) => p.in === "query" && p.name === "page[before]");
      const slice = cursorPage(records, path, rawQuery, Number(size ?? 25), after, before, backward);
      page = slice.items;
      links = slice.links;
    }
  }
  const items = `[${page.map((item) => serializedJson(serialize as (item: unknown) => unknown, item)).join(",")}]`;
  let body = items;
  if (key !== "") {
    body = `{${JSON.stringify(key)}:${items}`;
    if (links && op.successHasLinks) body += `,"links":${JSON.stringify(links)}`;
    body += "}";
  }
  return reply.code(200).type("application/json").send(body);
}

// JSON of records, by serializer: records are immutable, so a record's JSON never changes.
const jsonCache = new WeakMap<(item: unknown) => unknown, WeakMap<object, string>>();

function serializedJson(serialize: (item: unknown) => unknown, item: unknown): string {
  if (typeof item !== "object" || item === null) return JSON.stringify(serialize(item));
  let byItem = jsonCache.get(serialize);
  if (!byItem) {
    byItem = new WeakMap();
    jsonCache.set(serialize, byItem);
  }
  let json = byItem.get(item);
  if (json === undefined) {
    json = JSON.stringify(serialize(item));
    byItem.set(item, json);
  }
  return json;
}

function sendError(reply: FastifyReply, op: OperationInfo | undefined, error: unknown) {
  const apiError = error instanceof ApiError ? error : new ApiError(500, "internal error", "fault");
  const outsideOperation = apiError.outside || !op;
  const status = outsideOperation ? apiError.status : documentedStatus(op, apiError.status);
  const info = outsideOperation ? SHORT_JSON : errorResponseFor(op, status);
  for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
  return reply
    .code(status)
    .type(info.mediaType)
    .send(JSON.stringify(errorBody(info, apiError.message, apiError.errorName, status)));
}
