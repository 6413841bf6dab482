// Types of index.js: JSON pointers, local $refs and the HTTP methods of the bundled OpenAPI documents.

/** The operation keys of an OpenAPI path item, in the specification's order. */
export declare const HTTP_METHODS: readonly [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One token escaped for a JSON pointer: `~` becomes `~0`, `/` becomes `~1`. */
export declare function escapeToken(token: string | number): string;
/** The JSON pointer of a list of tokens: `["paths", "/v1/token"]` gives `/paths/~1v1~1token`. */
export declare function toPointer(tokens: readonly (string | number)[]): string;
/** The tokens of a JSON pointer written `/a/b` or as a URI fragment `#/a/b` (which is percent-decoded). */
export declare function pointerTokens(pointer: string): string[];
/** The value at a JSON pointer, or undefined when it does not exist (own keys only). */
export declare function getPointer<T = unknown>(doc: unknown, pointer: string): T | undefined;
/** The value at a JSON pointer; fails, naming the pointer, when it does not exist. */
export declare function resolvePointer<T = unknown>(doc: unknown, pointer: string): T;
/**
 * Follows a chain of local `$ref`s to the first node that is not a reference, and gives that node with
 * its pointer (`at` when `node` is no reference). Fails on a non-local, dangling or cyclic reference.
 */
export declare function followRef<T = unknown>(
  doc: unknown,
  node: unknown,
  at: string,
): { node: T; pointer: string };
export declare function followRef<T = unknown>(
  doc: unknown,
  node: unknown,
  at?: string,
): { node: T; pointer: string | undefined };
/** The node a reference stands for, the reference's sibling keywords laid over the target's. */
export declare function deref<T = unknown>(doc: unknown, node: unknown): T;
/** A deep copy with every local `$ref` replaced by its target (siblings laid over); fails on a cycle. */
export declare function inlineRefs<T = unknown>(doc: unknown, node: unknown): T;

export interface OperationEntry<T = Record<string, unknown>> {
  path: string;
  method: HttpMethod;
  /** The path item, dereferenced. */
  pathItem: T;
  operation: T;
}
/** Every operation of a document in path then method order, path items dereferenced. */
export declare function listOperations<T = Record<string, unknown>>(doc: {
  paths?: Record<string, unknown>;
}): OperationEntry<T>[];
/**
 * The parameters of an operation, dereferenced: the path item's, less those the operation redefines
 * (same `in` and `name`), then the operation's own.
 */
export declare function operationParameters<T = Record<string, unknown>>(
  doc: unknown,
  pathItem: { parameters?: unknown[] },
  operation: { parameters?: unknown[] },
): T[];

/** The page size an example's `links` show (`page[size]`, else `limit`), as `[name, value]`. */
export declare function examplePageSize(exampleValue: unknown): [string, string] | undefined;

/** A 2xx response example of an operation: its name (undefined for a single `example`), summary and value. */
export interface ResponseExample {
  name: string | undefined;
  summary: string;
  value: unknown;
}
/** The 2xx response examples of an operation, in the document's order, references followed. */
export declare function responseExamples(doc: unknown, operation: { responses?: unknown }): ResponseExample[];

/** A request: values by parameter name (path, query, header) and the body, undefined when there is none. */
export interface ExampleRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}
/**
 * The documented request that a 2xx response example (by default the operation's first) answers: each
 * parameter's example named like it (a parameter paired only with other response examples is left
 * out when optional), else its example; the page size its links show; the body's example. The one
 * request the reference's code samples show and the sandbox's tests send.
 */
export declare function exampleRequest(
  doc: unknown,
  pathItem: { parameters?: unknown[] },
  operation: Record<string, unknown>,
  exampleName?: string,
): ExampleRequest;
