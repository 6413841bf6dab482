/**
 * `startMockServer`: the sandbox's options, the clients and data it serves, and the handle a test
 * gets back (address, CA, credentials, a fetch trusting the CA, options for `createSdk`). The
 * request pipeline is in pipeline.ts, the sockets in transport.ts.
 */
import { inspect } from "node:util";
import { readRegistry } from "@cdas/spec/registry";
import {
  bundleFolder,
  indexBundle,
  type JsonObject,
  loadBundleDocument,
  type VersionBundle,
} from "./bundle.js";
import { generateDataSet } from "./data/generate.js";
import { isCalendarDate } from "./dates.js";
import { handlers, type ResponseForms, SandboxState } from "./handlers.js";
import {
  connectListener,
  httpLayerError,
  type Pipeline,
  type RequestLogEntry,
  requestListener,
} from "./pipeline.js";
import { hashString, Prng } from "./prng.js";
import { Routes } from "./routes.js";
import { authorityProblem, type CertificateAuthority, makeCertificates } from "./tls.js";
import { type Client, TokenStore } from "./tokens.js";
import { BodyReader, listen, type TransportTimeouts } from "./transport.js";
import { type Fetch, trustingFetch } from "./trusted-fetch.js";

export type { RequestLogEntry } from "./pipeline.js";
export type { TransportTimeouts } from "./transport.js";

/** The versions of @cdas/spec's bundles, in release order (its registry, `@cdas/spec/versions.json`). */
export const SUPPORTED_VERSIONS: readonly string[] = readRegistry(bundleFolder()).versions;
/** A version name of the registry (`v1`, ...). */
export type ApiVersion = string;

/** How much state clients can make the sandbox hold; each bound keeps a flood from running it out of memory. */
export interface SandboxLimits {
  /** Tokens held at once (about 300 bytes each); issuing one more drops the oldest. Default: `100 000`. */
  liveTokens?: number;
  /** Auth sessions held at once, the documented one aside; creating one more drops the oldest. Default: `100 000`. */
  authSessions?: number;
  /** Bytes of request bodies being received at once, by all connections; past it, a 503. Default: `64 MiB`. */
  bodyBytes?: number;
}

/**
 * The lifetime each form of the token response is described with (the documents' TokenResponse
 * schemas and examples: 3600 for `access_token`, a typical 900 for `token`): an issued token's
 * `expires_in` when `tokenTtlSeconds` is not given.
 */
export const TOKEN_TTL_SECONDS_BY_FORM = {
  access_token: 3600,
  token: 900,
} as const satisfies Record<ResponseForms["token"], number>;

/** What the sandbox uses for an option not given; `cdas-mock` shows and passes the same values. */
export const SANDBOX_DEFAULTS = {
  host: "127.0.0.1",
  seed: 1,
  /** Of the default form, `access_token`; `TOKEN_TTL_SECONDS_BY_FORM` has the other's. */
  tokenTtlSeconds: TOKEN_TTL_SECONDS_BY_FORM.access_token,
  tokenForm: "access_token",
  productForm: "bare",
  referenceDate: "2026-06-30",
  limits: { liveTokens: 100_000, authSessions: 100_000, bodyBytes: 64 * 1024 * 1024 },
  timeouts: {
    handshakeMs: 10_000,
    headersMs: 30_000,
    requestMs: 60_000,
    keepAliveMs: 72_000,
    closeGraceMs: 10_000,
  },
} as const satisfies MockServerOptions;

export interface MockServerOptions {
  /** Port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to bind. Default: `127.0.0.1`. */
  host?: string;
  /** Seed of the data set (and of the default credentials). Default: `1`. */
  seed?: number | string;
  /** Lifetime of issued tokens, in seconds (`900` with `tokenForm: "token"`). Default: `3600`. */
  tokenTtlSeconds?: number;
  /** Version served when a request has no X-Platform-Version header; default the registry's default. */
  defaultVersion?: ApiVersion;
  /**
   * HTTPS with a CA and a certificate made at start (default, `true`); HTTPS with a certificate signed by
   * the CA given (an EC P-256 one: `cdas-mock --ca-file` keeps one this way), so that a client trusting it
   * trusts every start; or plain HTTP (`false`).
   */
  tls?: boolean | CertificateAuthority;
  /** Form of the token response: `access_token` for `{access_token, token_type, expires_in}`, or `token` for `{token, expires_in}`. Default: `access_token`. */
  tokenForm?: ResponseForms["token"];
  /** Form of the summary products read: `bare` for the bare Product, or `data` for `{data: [Product]}`. Default: `bare`. */
  productForm?: ResponseForms["product"];
  /** Last day the data set covers (`YYYY-MM-DD`); every date in the data is anchored to it. Default: `2026-06-30`. */
  referenceDate?: string;
  /** "Today" for the 90-day default window of transactions (`YYYY-MM-DD` or a Date); default the reference date. */
  today?: string | Date;
  /** Credentials of the main client (whose tokens carry `api:user.write`); default derived from the seed. */
  clientId?: string;
  clientSecret?: string;
  /** Clock in milliseconds, for token expiry; default Date.now. */
  now?: () => number;
  /**
   * A bundle folder to serve instead of @cdas/spec's dist: its `versions.json` (the registry) says the
   * versions, the default and what each is based on; `<version>.json` are the bundles.
   */
  specDist?: string;
  /** Bundles to serve instead of those of the bundle folder (parsed OpenAPI documents by version). */
  bundles?: Partial<Record<ApiVersion, object>>;
  /** Called after each response with its method, path (never the query or body), status and duration. */
  onResponse?: (entry: RequestLogEntry) => void;
  /** How long slow clients may take before the connection is closed. */
  timeouts?: TransportTimeouts;
  /** How many tokens and auth sessions are held, and how many body bytes are received at once. */
  limits?: SandboxLimits;
}

export interface ClientCredentials {
  clientId: string;
  /** Not enumerable and redacted from inspection, so it does not leak into logs. */
  readonly clientSecret: string;
}

/** Options to spread into `createSdk` of `@cdas/sdk` (add `version`). The secret is redacted from inspection. */
export interface SandboxSdkOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: Fetch;
  /** Present (true) only with `tls: false`, where the address is plain http on loopback. */
  allowInsecureLoopback?: boolean;
}

export interface MockServer extends ClientCredentials {
  /** Base address, e.g. `https://127.0.0.1:4010`. */
  url: string;
  /** PEM of the certificate authority that signed the server certificate; null with `tls: false`. */
  ca: string | null;
  /** A standard fetch that trusts `ca` (on Node, Bun and Deno); closed with the server. */
  fetch: Fetch;
  /** `{ baseUrl, clientId, clientSecret, fetch }` for `createSdk({ version, ...sandbox.sdkOptions })`. */
  sdkOptions: SandboxSdkOptions;
  /**
   * A second client whose tokens lack the `api:user.write` scope: `{ clientId, clientSecret }`, spread
   * over `sdkOptions` for an SDK of that client (`{ ...sandbox.sdkOptions, ...sandbox.readOnlyClient }`).
   */
  readOnlyClient: ClientCredentials;
  /** The versions served, in release order (the bundle folder's registry). */
  versions: ApiVersion[];
  defaultVersion: ApiVersion;
  referenceDate: string;
  today: string;
  /** Operation ids present in a bundle that the sandbox does not implement (expected to be empty). */
  unimplementedOperations: string[];
  close(): Promise<void>;
}

const WRITE_SCOPE = "api:user.write";

// Indexed bundles of a folder and generated data sets are immutable: servers of one process share them.
const folderBundles = new Map<string, VersionBundle>();
const dataSets = new Map<string, ReturnType<typeof generateDataSet>>();

function folderBundle(folder: string, version: string, lineage: readonly string[]): VersionBundle {
  const key = `${folder}\0${lineage.join(",")}`;
  let bundle = folderBundles.get(key);
  if (!bundle) {
    bundle = indexBundle(version, loadBundleDocument(version, folder), lineage);
    folderBundles.set(key, bundle);
  }
  return bundle;
}

/** Every version of the bundle folder's registry, indexed (a given bundle replaces the folder's). */
function servedBundles(options: MockServerOptions): {
  bundles: Map<string, VersionBundle>;
  defaultVersion: string;
} {
  const folder = bundleFolder(options.specDist);
  const registry = readRegistry(folder);
  const defaultVersion = options.defaultVersion ?? registry.default;
  if (!registry.entries.has(defaultVersion))
    throw new TypeError(
      `Unsupported default version ${defaultVersion}: one of ${registry.versions.join(", ")}`,
    );
  const bundles = new Map<string, VersionBundle>();
  for (const version of registry.versions) {
    const given = options.bundles?.[version] as JsonObject | undefined;
    const lineage = registry.lineage(version);
    bundles.set(
      version,
      given ? indexBundle(version, given, lineage) : folderBundle(folder, version, lineage),
    );
  }
  return { bundles, defaultVersion };
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

/**
 * Makes `clientSecret` non-enumerable (when `hide`) and redacts it from `util.inspect` and
 * `JSON.stringify`, which show every other field (the address above all, when debugging).
 */
function redactSecret<T extends { clientId: string }>(target: T, clientSecret: string, hide: boolean): T {
  Object.defineProperty(target, "clientSecret", { value: clientSecret, enumerable: !hide });
  const shown = () => {
    const fields: Record<string, unknown> = { ...target };
    fields.clientSecret = "[redacted]";
    return fields;
  };
  // Symbols and toJSON are not enumerable, so a spread copies the secret but not these.
  Object.defineProperty(target, inspect.custom, {
    value: (_depth: number, options: object) => inspect(shown(), options),
    enumerable: false,
    configurable: true,
  });
  Object.defineProperty(target, "toJSON", { value: shown, enumerable: false });
  return target;
}

function makeClient(clientId: string, secret: string, scopes: string[]): Client {
  const client = { clientId, scopes } as unknown as Client;
  Object.defineProperty(client, "secret", { value: secret, enumerable: false });
  return client;
}

function toDateText(name: string, value: string | Date | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : value;
  if (!isCalendarDate(text))
    throw new TypeError(`${name} must be a calendar date, YYYY-MM-DD (got ${JSON.stringify(value)})`);
  return text;
}

/** Every option's name, so that a misspelt one is refused rather than ignored (the compiler keeps this whole). */
const OPTION_NAMES: Record<keyof MockServerOptions, true> = {
  port: true,
  host: true,
  seed: true,
  tokenTtlSeconds: true,
  defaultVersion: true,
  tls: true,
  tokenForm: true,
  productForm: true,
  referenceDate: true,
  today: true,
  clientId: true,
  clientSecret: true,
  now: true,
  specDist: true,
  bundles: true,
  onResponse: true,
  timeouts: true,
  limits: true,
};

/** Refuses an option (of `where`: the options, `limits.`, `timeouts.`) that is not one of `known`, naming it. */
function refuseUnknown(where: string, given: object | undefined, known: object): void {
  const unknown = Object.keys(given ?? {}).filter((name) => !Object.hasOwn(known, name));
  if (unknown.length === 0) return;
  const names = (list: string[]) => list.map((name) => `${where}${name}`).join(", ");
  throw new TypeError(
    `startMockServer has no option ${names(unknown)} (its options: ${names(Object.keys(known))})`,
  );
}

/** The server's certificates as `tls` asks for them; null for plain HTTP. */
function tlsMaterial(tls: boolean | CertificateAuthority, host: string) {
  if (tls === false) return null;
  if (tls === true) return makeCertificates(host);
  if (typeof tls !== "object" || tls === null)
    throw new TypeError("tls must be true, false or a certificate authority, { ca, caKey }");
  refuseUnknown("tls.", tls, { ca: true, caKey: true });
  const problem = authorityProblem(tls);
  if (problem !== undefined) throw new TypeError(`tls, a certificate authority: ${problem}`);
  return makeCertificates(host, tls);
}

/** The limits of the options, each a positive integer, the defaults for those not given. */
function sandboxLimits(options: MockServerOptions): Required<SandboxLimits> {
  const limits = { ...SANDBOX_DEFAULTS.limits, ...options.limits };
  for (const [name, value] of Object.entries(limits))
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new TypeError(`limits.${name} must be a positive integer`);
  return limits;
}

/** The two clients of the sandbox: the main one (write scope) and a read-only one, derived from the seed. */
function sandboxClients(
  options: MockServerOptions,
  tokenForm: ResponseForms["token"],
  maxLiveTokens: number,
) {
  const credentialRng = new Prng(hashString(`credentials:${String(options.seed ?? SANDBOX_DEFAULTS.seed)}`));
  const clientId = options.clientId ?? `cli_${credentialRng.hex(16)}`;
  const clientSecret = options.clientSecret ?? `sk_sandbox_${credentialRng.hex(32)}`;
  const readOnlyId = `${clientId}_readonly`;
  const readOnlySecret = `sk_sandbox_ro_${credentialRng.hex(32)}`;
  const ttl = options.tokenTtlSeconds ?? TOKEN_TTL_SECONDS_BY_FORM[tokenForm];
  if (!Number.isSafeInteger(ttl) || ttl <= 0)
    throw new TypeError("tokenTtlSeconds must be a positive integer");
  const tokens = new TokenStore(
    [makeClient(clientId, clientSecret, [WRITE_SCOPE]), makeClient(readOnlyId, readOnlySecret, [])],
    ttl,
    options.now ?? Date.now,
    maxLiveTokens,
  );
  return { clientId, clientSecret, readOnlyId, readOnlySecret, tokens };
}

/** Starts the sandbox. Resolves once it listens. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  refuseUnknown("", options, OPTION_NAMES);
  refuseUnknown("limits.", options.limits, SANDBOX_DEFAULTS.limits);
  refuseUnknown("timeouts.", options.timeouts, SANDBOX_DEFAULTS.timeouts);
  const host = options.host ?? SANDBOX_DEFAULTS.host;
  const referenceDate = toDateText("referenceDate", options.referenceDate, SANDBOX_DEFAULTS.referenceDate);
  const today = toDateText("today", options.today, referenceDate);
  const limits = sandboxLimits(options);
  const forms = {
    token: options.tokenForm ?? SANDBOX_DEFAULTS.tokenForm,
    product: options.productForm ?? SANDBOX_DEFAULTS.productForm,
  } as const;
  const clients = sandboxClients(options, forms.token, limits.liveTokens);

  const { bundles, defaultVersion } = servedBundles(options);
  const data = dataSet(options.seed ?? SANDBOX_DEFAULTS.seed, referenceDate);
  const state = new SandboxState(
    data,
    today,
    clients.clientId,
    forms,
    clients.tokens,
    options.now ?? Date.now,
    limits.authSessions,
  );
  const unimplemented = new Set<string>();
  for (const bundle of bundles.values()) {
    for (const op of bundle.operations) if (!handlers[op.operationId]) unimplemented.add(op.operationId);
  }

  const material = await tlsMaterial(options.tls ?? true, host);
  const pipeline: Pipeline = {
    routes: new Routes(bundles, state.echo),
    bundles,
    defaultVersion,
    state,
    bodies: new BodyReader(limits.bodyBytes),
  };
  const transport = await listen({
    tls: material,
    port: options.port ?? 0,
    host,
    listener: requestListener(pipeline, options.onResponse),
    connectListener: connectListener(pipeline, options.onResponse),
    timeouts: { ...SANDBOX_DEFAULTS.timeouts, ...options.timeouts },
    errorAnswer: (status, message, request) => httpLayerError(pipeline, status, message, request),
  });
  const trusted = await trustingFetch(material?.ca ?? null);

  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  const url = `${material ? "https" : "http"}://${urlHost}:${transport.port}`;
  const sdkOptions = { baseUrl: url, clientId: clients.clientId, fetch: trusted.fetch } as SandboxSdkOptions;
  if (!material) sdkOptions.allowInsecureLoopback = true;
  const handle = redactSecret({ clientId: clients.clientId } as MockServer, clients.clientSecret, true);
  Object.assign(handle, {
    url,
    ca: material?.ca ?? null,
    fetch: trusted.fetch,
    sdkOptions: redactSecret(sdkOptions, clients.clientSecret, false),
    readOnlyClient: redactSecret({ clientId: clients.readOnlyId }, clients.readOnlySecret, false),
    versions: [...bundles.keys()],
    defaultVersion,
    referenceDate,
    today,
    unimplementedOperations: [...unimplemented].sort(),
  });
  const close = async () => {
    await Promise.all([transport.close(), trusted.close()]);
  };
  Object.defineProperty(handle, "close", { enumerable: false, value: close });
  return handle;
}
