/** Test helpers: a sandbox per suite, an HTTPS client trusting its CA, and response validation against the bundles. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { deref, escapeToken, followRef } from "@cdas/spec/openapi";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { Agent, request } from "undici";
import {
  type MockServer,
  type MockServerOptions,
  SUPPORTED_VERSIONS,
  startMockServer,
} from "../src/index.js";
import { strictBundle } from "./strict-bundle.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

/** The versions the sandbox serves: those of @cdas/spec's registry, in release order. */
export const VERSIONS = SUPPORTED_VERSIONS;
export type Version = string;
export const TODAY = "2026-06-30";

type Json = Record<string, unknown>;

const bundles = new Map<string, Json>();

/** The parsed bundle of a version (read once). */
export function loadBundle(version: string): Json {
  let bundle = bundles.get(version);
  if (!bundle) {
    const require = createRequire(import.meta.url);
    bundle = JSON.parse(readFileSync(require.resolve(`@cdas/spec/${version}.json`), "utf8")) as Json;
    bundles.set(version, bundle);
  }
  return bundle;
}

export interface Operation {
  version: Version;
  method: string;
  path: string;
  operationId: string;
  operation: Json;
}

/** Every operation of a bundle, read from the document. */
export function operationsOf(version: Version): Operation[] {
  const bundle = loadBundle(version);
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(bundle.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      if (typeof operation === "object" && operation && "operationId" in operation) {
        out.push({
          version,
          method: method.toUpperCase(),
          path,
          operationId: (operation as Json).operationId as string,
          operation: operation as Json,
        });
      }
    }
  }
  return out;
}

/** Calls `visit` with every key and value of every object anywhere in a JSON value (arrays walked through). */
export function forEachEntry(value: unknown, visit: (key: string, item: unknown) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) forEachEntry(item, visit);
    return;
  }
  if (!value || typeof value !== "object") return;
  for (const [key, item] of Object.entries(value)) {
    visit(key, item);
    forEachEntry(item, visit);
  }
}

/** One example of a 2xx response: its operation, where it is (`listAccounts example`), and its value. */
export interface SuccessExample {
  op: Operation;
  where: string;
  value: unknown;
}

/** Every example of every 2xx response of a version (`example` and each of `examples`, resolved). */
export function successExamples(version: Version): SuccessExample[] {
  const bundle = loadBundle(version);
  const out: SuccessExample[] = [];
  for (const op of operationsOf(version)) {
    for (const [status, response] of Object.entries(op.operation.responses as Json)) {
      if (!status.startsWith("2")) continue;
      const content = (deref<Json>(bundle, response).content ?? {}) as Json;
      for (const media of Object.values(content) as Json[]) {
        if (media.example !== undefined)
          out.push({ op, where: `${op.operationId} example`, value: media.example });
        for (const [name, example] of Object.entries((media.examples ?? {}) as Json))
          out.push({ op, where: `${op.operationId} ${name}`, value: deref<Json>(bundle, example).value });
      }
    }
  }
  return out;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  text: string;
  body: unknown;
}

export class Sandbox {
  readonly agent: Agent;
  private tokenCache?: string;

  constructor(readonly server: MockServer) {
    this.agent = new Agent({ connect: server.ca ? { ca: server.ca } : {}, connections: 16 });
  }

  static async start(options: MockServerOptions = {}): Promise<Sandbox> {
    return new Sandbox(await startMockServer({ today: TODAY, ...options }));
  }

  async close(): Promise<void> {
    await this.agent.close();
    await this.server.close();
  }

  /** A sandbox of its own for `run`, closed however `run` ends. */
  static async using<T>(options: MockServerOptions, run: (sandbox: Sandbox) => Promise<T>): Promise<T> {
    const sandbox = await Sandbox.start(options);
    try {
      return await run(sandbox);
    } finally {
      await sandbox.close();
    }
  }

  async call(
    method: string,
    path: string,
    options: {
      version?: string;
      token?: string | null;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: "application/json; charset=UTF-8", ...options.headers };
    if (options.version) headers["x-platform-version"] = options.version;
    const token = options.token === undefined ? await this.token() : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !headers["content-type"])
      headers["content-type"] = "application/json; charset=UTF-8";
    const response = await request(`${this.server.url}${path}`, {
      method: method as "GET",
      headers,
      body,
      dispatcher: this.agent,
    });
    const text = await response.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      contentType: String(response.headers["content-type"] ?? ""),
      text,
      body: parsed,
    };
  }

  async token(
    credentials = { clientId: this.server.clientId, clientSecret: this.server.clientSecret },
  ): Promise<string> {
    if (this.tokenCache && credentials.clientId === this.server.clientId) return this.tokenCache;
    const response = await this.call("POST", "/v1/token", {
      token: null,
      body: { client_id: credentials.clientId, client_secret: credentials.clientSecret },
    });
    if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${response.text}`);
    const body = response.body as { access_token?: string; token?: string };
    const token = body.access_token ?? body.token!;
    if (credentials.clientId === this.server.clientId) this.tokenCache = token;
    return token;
  }

  async get(path: string, version?: string): Promise<ApiResponse> {
    return this.call("GET", path, { version });
  }
}

const validators = new Map<string, ValidateFunction>();
const ajvs = new Map<string, Ajv2020>();

function ajvFor(version: string): Ajv2020 {
  let ajv = ajvs.get(version);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true, logger: false });
    addFormats(ajv);
    for (const name of ["int32", "int64", "float", "double"]) ajv.addFormat(name, true);
    // Responses are checked against the strict bundle: a field the documents do not declare fails.
    ajv.addSchema(strictBundle(loadBundle(version)), `bundle-${version}`);
    ajvs.set(version, ajv);
  }
  return ajv;
}

/**
 * Asserts (by throwing) that a response is documented by the operation in the version's bundle:
 * its status (exact, `4XX` or `default`), media type and body schema, made strict (no undeclared field).
 */
export function assertDocumentedResponse(
  version: string,
  method: string,
  path: string,
  response: ApiResponse,
): void {
  const errors = bodyErrors(version, method, path, response);
  if (errors.length > 0) {
    throw new Error(
      `${version} ${method} ${path} ${response.status}: body does not match the bundle: ${JSON.stringify(errors.slice(0, 3))}`,
    );
  }
}

/** Fields of a documented response body that its strict schema does not declare, as `schema path: field`. */
export function undeclaredFields(
  version: string,
  method: string,
  path: string,
  response: ApiResponse,
): string[] {
  return bodyErrors(version, method, path, response)
    .filter((e) => e.keyword === "unevaluatedProperties")
    .map(
      (e) =>
        `${e.schemaPath.replace(/\/unevaluatedProperties$/, "")}: ${String(e.params.unevaluatedProperty)}`,
    );
}

/**
 * Asserts that an error the HTTP layer answers on a path (unknown path near it, wrong method,
 * unreadable path, timeout: statuses no operation documents) has the form the path's operations
 * document in the version: the media type and body schema of their 400 (of `4XX` for the token call).
 */
export function assertErrorOnPath(version: string, path: string, response: ApiResponse): void {
  const bundle = loadBundle(version);
  const [method] = Object.keys((bundle.paths as Json)[path] as Json);
  const responses = (((bundle.paths as Json)[path] as Json)[method!] as Json).responses as Json;
  const statusKey = ["400", "4XX"].find((key) => key in responses)!;
  const errors = bodyErrors(version, method!.toUpperCase(), path, response, statusKey);
  if (errors.length > 0)
    throw new Error(
      `${version} ${path} ${response.status}: error body not in the path's form: ${JSON.stringify(errors.slice(0, 3))}`,
    );
}

/**
 * The operation path of a version a request path is nearest to, whose documents give the form of its
 * errors: the path without empty or undecodable segments, or the nearest path it lies under.
 */
export function nearestOperationPath(version: string, path: string): string | undefined {
  const templates = Object.keys(loadBundle(version).paths as Json);
  const segments = path
    .split("/")
    .filter((segment) => segment !== "")
    .flatMap((segment) => {
      try {
        return [decodeURIComponent(segment)];
      } catch {
        return [];
      }
    });
  for (let length = segments.length; length > 0; length--) {
    const candidate = segments.slice(0, length);
    const found = templates.find((template) => {
      const parts = template.split("/").slice(1);
      return (
        parts.length === candidate.length &&
        parts.every((part, i) => part.startsWith("{") || part === candidate[i])
      );
    });
    if (found) return found;
  }
  return undefined;
}

/**
 * The schema errors of a response body, against the response of `statusKey` (by default the one
 * documenting its status); throws when its status or media type is not documented.
 */
function bodyErrors(
  version: string,
  method: string,
  path: string,
  response: ApiResponse,
  documentedKey?: string,
): ErrorObject[] {
  const bundle = loadBundle(version);
  const operation = ((bundle.paths as Json)[path] as Json)[method.toLowerCase()] as Json;
  const responses = operation.responses as Json;
  const statusKey =
    documentedKey ??
    [String(response.status), `${String(response.status)[0]}XX`, "default"].find((key) => key in responses);
  if (!statusKey)
    throw new Error(
      `${version} ${method} ${path}: status ${response.status} is not documented (${response.text.slice(0, 200)})`,
    );
  const responsePointer = `/paths/${escapeToken(path)}/${method.toLowerCase()}/responses/${escapeToken(statusKey)}`;
  const resolved = followRef<Json>(bundle, responses[statusKey], responsePointer);
  const content = resolved.node.content as Json;
  const mediaType = Object.keys(content)[0]!;
  // Exactly the declared media type: JSON takes no charset parameter (RFC 8259).
  if (response.contentType !== mediaType) {
    throw new Error(
      `${version} ${method} ${path} ${response.status}: media type ${response.contentType}, documented ${mediaType}`,
    );
  }
  let schemaPointer = `${resolved.pointer}/content/${escapeToken(mediaType)}/schema`;
  // An error schema that declares no field ("shape not documented") is checked as the short shape,
  // the common part of the two documented error bodies, which is what the sandbox sends there.
  if (response.status >= 400 && declaresNoField(bundle, { $ref: `#${schemaPointer}` }))
    schemaPointer = "/components/schemas/ShortError";
  const key = `${version} ${schemaPointer}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajvFor(version).compile({ $ref: `bundle-${version}#${schemaPointer}` });
    validators.set(key, validate);
  }
  return validate(response.body) ? [] : [...(validate.errors ?? [])];
}

function declaresNoField(bundle: Json, schema: Json): boolean {
  const { node } = followRef<Json>(bundle, schema);
  return !node.properties && !["allOf", "oneOf", "anyOf"].some((key) => key in node);
}

/** Asserts that a response is an error in the short shape in JSON (on a path near no operation's, or before any path is read). */
export function assertShortError(response: ApiResponse): void {
  if (response.contentType !== "application/json") throw new Error(`media type ${response.contentType}`);
  const body = response.body as Json;
  if (typeof body?.id !== "string" || typeof body.message !== "string" || typeof body.name !== "string") {
    throw new Error(`not a ShortError: ${response.text}`);
  }
  const validate = ajvFor("v3").compile({ $ref: "bundle-v3#/components/schemas/ShortError" });
  if (!validate(body)) throw new Error(`not a ShortError: ${JSON.stringify(validate.errors)}`);
}

/** The end users with data: the person and the organisation, from the end-user list. */
export async function mainEndUsers(
  sandbox: Sandbox,
): Promise<{ person: string; organisation: string; all: string[] }> {
  const response = await sandbox.get("/v1/end-users", "v2");
  const users = response.body as { id: string }[];
  const withAccounts: string[] = [];
  for (const user of users) {
    const accounts = await sandbox.get(`/v1/accounts?end_user_id=${user.id}`, "v2");
    if ((accounts.body as { data: unknown[] }).data.length > 0) withAccounts.push(user.id);
  }
  const identities = await Promise.all(
    withAccounts.map(async (id) => {
      const identity = await sandbox.get(`/v1/identity?end_user_id=${id}`, "v2");
      return { id, type: ((identity.body as { data: { type: string }[] }).data[0] ?? { type: "" }).type };
    }),
  );
  return {
    person: identities.find((i) => i.type === "PERSON")!.id,
    organisation: identities.find((i) => i.type === "ORGANISATION")!.id,
    all: users.map((u) => u.id),
  };
}

export type Call = { method?: string; path: string; body?: unknown; token?: null };

/** A valid request for each operation, for a given end user. */
export function validRequests(server: MockServer, operationId: string, endUser: string): Call[] {
  const byUser = (path: string) => [{ path: `${path}?end_user_id=${endUser}` }];
  switch (operationId) {
    case "createToken":
      return [
        {
          method: "POST",
          path: "/v1/token",
          token: null,
          body: { client_id: server.clientId, client_secret: server.clientSecret },
        },
      ];
    case "createAuthSession":
      return [
        {
          method: "POST",
          path: "/v1/auth/session",
          body: {
            end_user_id: endUser,
            institution_id: "inst_westpac",
            redirect_uri: "https://app.example.com.au/done",
            cancel_uri: "https://app.example.com.au/cancel",
          },
        },
      ];
    case "listInstitutions":
      return [
        { path: `/v1/institutions?client_id=${server.clientId}` },
        {
          path: `/v1/institutions?client_id=${server.clientId}&industry=energy&institution_mode=recommended`,
          token: null,
        },
      ];
    case "listAccounts":
      return [{ path: `/v1/accounts?end_user_id=${endUser}&limit=3&offset=1` }];
    case "listTransactions":
      return [{ path: `/v1/transactions?end_user_id=${endUser}&from_date=2024-01-01&limit=50` }];
    case "listServicePoints":
      return byUser("/v1/service-points");
    case "listConcessions":
      return byUser("/v1/concessions");
    case "listIdentities":
      return byUser("/v1/identity");
    case "listIncome":
      return byUser("/v1/income");
    case "listScheduledPayments":
      return byUser("/v1/scheduled-payments");
    case "listPayees":
      return byUser("/v1/payees");
    case "listProducts":
      return byUser("/v1/products");
    case "listEnergyBalances":
      return byUser("/v1/energy-balances");
    case "listBankingAccounts":
      return [{ path: `/v1/banking/accounts?end_user_id=${endUser}&page%5Bsize%5D=1000` }];
    case "listDirectDebits":
      return byUser("/v1/banking/acccounts/direct-debits");
    case "listBankingScheduledPayments":
      return byUser("/v1/banking/payments/scheduled");
    case "listBankingProducts":
      return [
        { path: "/v1/banking/products?institution_id=inst_cba&page%5Bsize%5D=1000" },
        { path: "/v1/banking/products" },
      ];
    case "getBankingProduct":
      // The business loan is one of the products src/data/variety.ts gives the optional fields.
      return ["transaction", "savings", "card", "svr_home_loan", "term", "business-loan"].map((key) => ({
        path: `/v1/banking/products/prd_cba_${key}`,
      }));
    case "listBankingTransactions":
      return [{ path: "/v1/banking/transactions" }];
    case "listDerRecords":
      return byUser("/v1/energy/der");
    case "listEnergyAccountBalances":
      return byUser("/v1/energy/balances");
    case "listEnergyPlans":
      return [
        { path: "/v1/energy/plans?retailer_id=agl&status=all&page%5Bsize%5D=1000" },
        { path: "/v1/energy/plans?institution_id=inst_origin&status=all" },
      ];
    case "getCommonIdentity":
      return [{ path: "/v1/common/identity" }];
    case "listConsents":
      return [{ path: "/v1/consent" }];
    case "listEndUsers":
      return [{ path: "/v1/end-users" }];
    default:
      throw new Error(`no valid request written for ${operationId}: add one to test/helpers.ts`);
  }
}
