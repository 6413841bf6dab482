/**
 * Loads the OpenAPI bundles (of @cdas/spec, or another bundle folder) and indexes their operations: parameters, request body,
 * security, paging (`x-cdas-pagination`) and documented error responses. Ajv validators for each
 * operation's parameters and body are compiled once, here, at start.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  escapeToken,
  followRef,
  getPointer,
  HTTP_METHODS,
  type HttpMethod,
  pointerTokens,
} from "@cdas/spec/openapi";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { type ResponseShape, responseShape } from "./data/shapes.js";
import type { InputEcho } from "./errors.js";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop in some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

export type JsonObject = Record<string, unknown>;

/** The header that chooses the version (lower case, as Node gives header names). */
export const VERSION_HEADER = "x-platform-version";

const isVersionHeader = (p: ParameterInfo) => p.in === "header" && p.name.toLowerCase() === VERSION_HEADER;

export interface ParameterInfo {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required: boolean;
  schema: JsonObject;
}

export interface ErrorResponseInfo {
  mediaType: string;
  /** Whether the documented schema is the extended shape (`fault`, `temporary`, `timeout`). */
  extended: boolean;
}

interface Pagination {
  style: "offset" | "cursor" | "none";
  items: string;
}

export interface OperationInfo {
  version: string;
  /** The response forms of its version (src/data/shapes.ts): its own or those of a version it is based on. */
  shape: ResponseShape;
  method: string;
  /** The path template as in the bundle, e.g. `/v1/banking/products/{product_id}`. */
  path: string;
  operationId: string;
  parameters: ParameterInfo[];
  /** null when the operation needs no credentials; otherwise whether anonymous calls are also allowed and the scopes needed. */
  security: { optional: boolean; scopes: string[] } | null;
  pagination: Pagination | null;
  /** Whether the success body has a `links` member (paged envelopes). */
  successHasLinks: boolean;
  hasBody: boolean;
  bodyRequired: boolean;
  /** Documented error statuses ("400", "4XX", "default", ...) with their media type and shape. */
  errors: Map<string, ErrorResponseInfo>;
  validateQuery: ValidateFunction;
  /** null when the operation has no path parameters. */
  validatePath: ValidateFunction | null;
  /** Header parameters other than the version header (chosen before validation); null when there are none. */
  validateHeaders: ValidateFunction | null;
  validateBody: ValidateFunction | null;
  /** Whether the operation declares `X-Platform-Version` required (a request without it is refused). */
  versionHeaderRequired: boolean;
  /** Whether cursor paging goes backwards too (`page[before]`): only then is a `prev` link offered. */
  cursorBackward: boolean;
  /** Top-level members the request body schema names; others are refused (catches misspelt fields). */
  bodyProperties: Set<string> | null;
  /** Default values of parameters, by name. */
  defaults: Map<string, unknown>;
  /** Query parameters typed integer or number: their text must be a plain decimal literal. */
  numericQuery: Map<string, "integer" | "number">;
  /** Names of the required query parameters. */
  requiredQuery: Set<string>;
}

export interface VersionBundle {
  version: string;
  document: JsonObject;
  /** In document order. */
  operations: OperationInfo[];
  /** The same operations by path template, then by method (upper case). */
  operationsByPath: Map<string, Map<string, OperationInfo>>;
}

/**
 * A folder of bundles and the registry that lists them (versions.json, vN.json): `specDist` when given,
 * else the dist/ of @cdas/spec.
 */
export function bundleFolder(specDist?: string): string {
  if (specDist !== undefined) return path.resolve(specDist);
  return path.dirname(createRequire(import.meta.url).resolve("@cdas/spec/versions.json"));
}

/** Reads `<folder>/<version>.json`. */
export function loadBundleDocument(version: string, folder: string = bundleFolder()): JsonObject {
  const file = path.join(folder, `${version}.json`);
  return JSON.parse(readFileSync(file, "utf8")) as JsonObject;
}

/** A new Ajv instance with the formats and OpenAPI vocabulary the bundles use. */
function createAjv(options: { coerceTypes: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    coerceTypes: options.coerceTypes,
    validateSchema: false,
    logger: false,
    discriminator: false,
  });
  addFormats(ajv);
  for (const name of ["int32", "int64", "float", "double", "byte", "binary", "password"])
    ajv.addFormat(name, true);
  return ajv;
}

function isExtendedShape(document: JsonObject, schema: unknown, pointer: string): boolean {
  if (!schema) return false;
  const { node } = followRef<JsonObject>(document, schema, pointer);
  const properties = node.properties as JsonObject | undefined;
  if (properties && "fault" in properties) return true;
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    const parts = node[key] as unknown[] | undefined;
    if (parts?.some((part, i) => isExtendedShape(document, part, `${pointer}/${key}/${i}`))) return true;
  }
  return false;
}

/** What indexing one bundle shares: the document, its Ajv instances and a `$ref` maker into it. */
interface IndexContext {
  document: JsonObject;
  shape: ResponseShape;
  paramAjv: Ajv2020;
  bodyAjv: Ajv2020;
  ref: (pointer: string) => { $ref: string };
}

/** Indexes one bundle and compiles its validators. */
export function indexBundle(
  version: string,
  document: JsonObject,
  lineage: readonly string[] = [version],
): VersionBundle {
  // A version the sandbox has no response shapes for fails here, at start, not on its first read.
  const shape = responseShape(version, lineage);
  const schemaId = `cdas-${version}`;
  const context: IndexContext = {
    document,
    shape,
    paramAjv: createAjv({ coerceTypes: true }),
    bodyAjv: createAjv({ coerceTypes: false }),
    ref: (pointer) => ({ $ref: `${schemaId}#${pointer}` }),
  };
  context.paramAjv.addSchema(document, schemaId);
  context.bodyAjv.addSchema(document, schemaId);

  const operations: OperationInfo[] = [];
  const paths = (document.paths ?? {}) as JsonObject;
  for (const [path, rawPathItem] of Object.entries(paths)) {
    const pathPointer = `/paths/${escapeToken(path)}`;
    const { node: pathItem, pointer: pathItemPointer } = followRef<JsonObject>(
      document,
      rawPathItem,
      pathPointer,
    );
    for (const method of HTTP_METHODS) {
      if (!pathItem[method]) continue;
      operations.push(indexOperation(context, version, path, pathItem, pathItemPointer, method));
    }
  }
  const operationsByPath = new Map<string, Map<string, OperationInfo>>();
  for (const op of operations) {
    const byMethod = operationsByPath.get(op.path) ?? new Map<string, OperationInfo>();
    byMethod.set(op.method, op);
    operationsByPath.set(op.path, byMethod);
  }
  return { version, document, operations, operationsByPath };
}

function indexOperation(
  context: IndexContext,
  version: string,
  path: string,
  pathItem: JsonObject,
  pathItemPointer: string,
  method: HttpMethod,
): OperationInfo {
  const { document, paramAjv } = context;
  const operation = pathItem[method] as JsonObject;
  const opPointer = `${pathItemPointer}/${method}`;
  const { parameters, schemaPointers } = collectParameters(
    document,
    pathItem,
    pathItemPointer,
    operation,
    opPointer,
  );
  const parameterSchema = (location: ParameterInfo["in"], closed: boolean, caseInsensitive = false) =>
    paramAjv.compile(
      parametersSchema(context, parameters, schemaPointers, location, closed, caseInsensitive),
    );
  const has = (location: ParameterInfo["in"]) =>
    parameters.some((p) => p.in === location && !isVersionHeader(p));
  const body = indexRequestBody(context, operation, opPointer);
  const { errors, successHasLinks } = indexResponses(document, operation, opPointer);
  const numericQuery = new Map<string, "integer" | "number">();
  for (const p of parameters) {
    if (p.in !== "query") continue;
    const type = followRef<JsonObject>(document, p.schema, schemaPointers.get(`query:${p.name}`)!).node.type;
    if (type === "integer" || type === "number") numericQuery.set(p.name, type);
  }
  const defaults = new Map<string, unknown>();
  for (const p of parameters) if (p.schema.default !== undefined) defaults.set(p.name, p.schema.default);
  return {
    version,
    shape: context.shape,
    method: method.toUpperCase(),
    path,
    operationId: operation.operationId as string,
    parameters,
    security: securityOf(operation, document.security as JsonObject[] | undefined),
    pagination: (operation["x-cdas-pagination"] as Pagination | undefined) ?? null,
    successHasLinks,
    hasBody: Boolean(operation.requestBody),
    ...body,
    errors,
    validateQuery: parameterSchema("query", true),
    validatePath: has("path") ? parameterSchema("path", true) : null,
    validateHeaders: has("header") ? parameterSchema("header", false, true) : null,
    versionHeaderRequired: parameters.some((p) => isVersionHeader(p) && p.required),
    cursorBackward: parameters.some((p) => p.in === "query" && p.name === "page[before]"),
    defaults,
    numericQuery,
    requiredQuery: new Set(parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name)),
  };
}

/** Path-item then operation parameters (an operation's overrides the path item's of the same name). */
function collectParameters(
  document: JsonObject,
  pathItem: JsonObject,
  pathItemPointer: string,
  operation: JsonObject,
  opPointer: string,
): { parameters: ParameterInfo[]; schemaPointers: Map<string, string> } {
  const parameters: ParameterInfo[] = [];
  const schemaPointers = new Map<string, string>();
  const rawParams = [
    ...((pathItem.parameters as unknown[]) ?? []).map(
      (p, i) => [p, `${pathItemPointer}/parameters/${i}`] as const,
    ),
    ...((operation.parameters as unknown[]) ?? []).map(
      (p, i) => [p, `${opPointer}/parameters/${i}`] as const,
    ),
  ];
  for (const [raw, pointer] of rawParams) {
    const { node, pointer: resolvedPointer } = followRef<JsonObject>(document, raw, pointer);
    const info: ParameterInfo = {
      name: node.name as string,
      in: node.in as ParameterInfo["in"],
      required: node.required === true,
      schema: (node.schema as JsonObject) ?? {},
    };
    const existing = parameters.findIndex((p) => p.name === info.name && p.in === info.in);
    if (existing >= 0) parameters.splice(existing, 1);
    parameters.push(info);
    schemaPointers.set(`${info.in}:${info.name}`, `${resolvedPointer}/schema`);
  }
  return { parameters, schemaPointers };
}

/** One object schema over the parameters of a location, each referring to its schema in the bundle. */
function parametersSchema(
  context: IndexContext,
  parameters: ParameterInfo[],
  schemaPointers: Map<string, string>,
  location: ParameterInfo["in"],
  closed: boolean,
  caseInsensitive: boolean,
): JsonObject {
  const selected = parameters.filter((p) => p.in === location && !isVersionHeader(p));
  const key = (name: string) => (caseInsensitive ? name.toLowerCase() : name);
  return {
    type: "object",
    properties: Object.fromEntries(
      selected.map((p) => [key(p.name), context.ref(schemaPointers.get(`${p.in}:${p.name}`)!)]),
    ),
    required: selected.filter((p) => p.required).map((p) => key(p.name)),
    additionalProperties: !closed,
  };
}

function indexRequestBody(
  context: IndexContext,
  operation: JsonObject,
  opPointer: string,
): Pick<OperationInfo, "validateBody" | "bodyProperties" | "bodyRequired"> {
  const result: Pick<OperationInfo, "validateBody" | "bodyProperties" | "bodyRequired"> = {
    validateBody: null,
    bodyProperties: null,
    bodyRequired: false,
  };
  if (!operation.requestBody) return result;
  const { document } = context;
  const { node: body, pointer: bodyPointer } = followRef<JsonObject>(
    document,
    operation.requestBody,
    `${opPointer}/requestBody`,
  );
  result.bodyRequired = body.required === true;
  const content = (body.content ?? {}) as JsonObject;
  const mediaType = Object.keys(content).find((type) => type.includes("json"));
  if (!mediaType) return result;
  const schemaPointer = `${bodyPointer}/content/${escapeToken(mediaType)}/schema`;
  result.validateBody = context.bodyAjv.compile(context.ref(schemaPointer));
  const schema = followRef<JsonObject>(document, getPointer(document, schemaPointer), schemaPointer).node;
  const properties = schema.properties as JsonObject | undefined;
  if (properties && schema.additionalProperties !== true)
    result.bodyProperties = new Set(Object.keys(properties));
  return result;
}

/** Documented error statuses with their media type and shape, and whether the success body has `links`. */
function indexResponses(
  document: JsonObject,
  operation: JsonObject,
  opPointer: string,
): { errors: Map<string, ErrorResponseInfo>; successHasLinks: boolean } {
  const errors = new Map<string, ErrorResponseInfo>();
  let successHasLinks = false;
  const responses = (operation.responses ?? {}) as JsonObject;
  for (const [status, rawResponse] of Object.entries(responses)) {
    const responsePointer = `${opPointer}/responses/${escapeToken(status)}`;
    const { node: response, pointer: resolvedPointer } = followRef<JsonObject>(
      document,
      rawResponse,
      responsePointer,
    );
    const content = (response.content ?? {}) as JsonObject;
    const [mediaType] = Object.keys(content);
    if (!mediaType) continue;
    const schema = (content[mediaType] as JsonObject).schema;
    const schemaPointer = `${resolvedPointer}/content/${escapeToken(mediaType)}/schema`;
    if (status.startsWith("2")) {
      const resolved = schema ? followRef<JsonObject>(document, schema, schemaPointer).node : {};
      successHasLinks = Boolean((resolved.properties as JsonObject | undefined)?.links);
    } else {
      errors.set(status, { mediaType, extended: isExtendedShape(document, schema, schemaPointer) });
    }
  }
  return { errors, successHasLinks };
}

/** The operation's security (or the document's): null without any, else whether anonymous calls pass and the scopes. */
function securityOf(
  operation: JsonObject,
  globalSecurity: JsonObject[] | undefined,
): OperationInfo["security"] {
  const security = (operation.security as JsonObject[] | undefined) ?? globalSecurity ?? [];
  if (security.length === 0) return null;
  const optional = security.some((requirement) => Object.keys(requirement).length === 0);
  const scopes = [
    ...new Set(security.flatMap((requirement) => Object.values(requirement).flat() as string[])),
  ];
  return { optional, scopes };
}

/** How a value of a JSON Schema format is written, for the formats whose name does not say it. */
const FORMAT_SPELLINGS: Readonly<Record<string, string>> = {
  date: "YYYY-MM-DD",
  "date-time": "YYYY-MM-DDThh:mm:ssZ",
};

/**
 * A readable sentence naming the field an Ajv error is about. Fields are named one way: by their path
 * from the top of their location (`body field redirect_uri`, `body field a.b`, `parameter limit`);
 * a body that is not of the schema's type at all is "the body", not a field. The path, which names
 * members the client chose, is repeated as `echo` says.
 */
export function describeValidationError(
  error: ErrorObject,
  location: "query" | "path" | "header" | "body",
  echo: InputEcho,
): { message: string; name: string } {
  const segments = pointerTokens(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "type" && location === "body" && segments.length === 0)
    return { message: `the body must be a JSON ${String(params.type)}`, name: "invalid_field_type" };
  if (error.keyword === "required") segments.push(String(params.missingProperty));
  if (error.keyword === "additionalProperties") segments.push(String(params.additionalProperty));
  const where = location === "body" ? "body field" : location === "header" ? "header" : "parameter";
  const subject =
    location === "body" && segments.length === 0
      ? "the body"
      : `${where} ${segments.length > 0 ? echo.text(segments.join(".")) : location}`;
  switch (error.keyword) {
    case "required":
      return { message: `${subject} is required`, name: "bad_request" };
    case "additionalProperties":
      return { message: `${subject} is not allowed here`, name: "bad_request" };
    case "type":
      return { message: `${subject} must be of type ${String(params.type)}`, name: "invalid_field_type" };
    case "enum":
      return {
        message: `${subject} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        name: "bad_request",
      };
    case "format": {
      const format = String(params.format);
      const written = FORMAT_SPELLINGS[format];
      const message = `${subject} must be a valid ${format}${written ? `, written ${written}` : ""}`;
      return { message, name: "invalid_field_type" };
    }
    default:
      return { message: `${subject} ${error.message ?? "is invalid"}`, name: "bad_request" };
  }
}
