/** Walks every list style: offset, cursor (absolute or relative links), single pages and bare arrays. */
import { mergeHeaders } from "openapi-fetch";
import { type CdasApiError, CdasError, isCdasError } from "./errors.js";

/** The `x-cdas-pagination` of a list operation, as generated into each client package. */
export interface PaginationSpec {
  readonly style: "offset" | "cursor" | "none";
  /** The key that holds the list; "" for a bare array. */
  readonly items: string;
}

export interface PaginateOptions {
  /** Stop after this many pages. */
  maxPages?: number;
  /** Stop after this many items (the last page is cut). */
  maxItems?: number;
  /** Sent as `limit` (offset style) or `page[size]` (cursor style) unless the query already has it. */
  pageSize?: number;
}

export interface Page<TItem, TBody> {
  /** Zero-based page number. */
  index: number;
  items: TItem[];
  /** The whole parsed body of the page. */
  data: TBody;
  response: Response;
}

export interface Paginator<TItem, TBody> extends AsyncIterable<TItem> {
  /** Iterates whole pages instead of items. */
  pages(): AsyncIterable<Page<TItem, TBody>>;
  /** Collects every item (mind `maxItems` on large lists). */
  toArray(): Promise<TItem[]>;
}

type GetResult = { data?: unknown; error?: unknown; response: Response };
// biome-ignore lint/suspicious/noExplicitAny: the typed surface is checked by Sdk<V>; this is the untyped engine.
export type GetFunction = (path: string, init: any) => Promise<GetResult>;

interface RequestInitLike {
  params?: {
    query?: Record<string, unknown>;
    path?: Record<string, unknown>;
    header?: Record<string, unknown>;
  };
  headers?: unknown;
  signal?: AbortSignal | null;
  [key: string]: unknown;
}

export interface PaginatorContext {
  /** client.GET: the first page, built from the typed init. */
  get: GetFunction;
  /** Sends a ready GET of a next link through the SDK's fetch wrapper (auth, retries, deadline). */
  send: (request: Request) => Promise<Response>;
  /** The SDK's Request class (its headers, bearer, client_id), for next links as for first pages. */
  Request: typeof Request;
  baseUrl: string;
  /** A CdasApiError from an error body (parsed or raw text), with the secret redacted. */
  toApiError: (body: unknown, response: Response, url: string) => CdasApiError;
}

export function createPaginator(
  context: PaginatorContext,
  path: string,
  spec: PaginationSpec,
  init: RequestInitLike | undefined,
  options: PaginateOptions = {},
): Paginator<unknown, unknown> {
  const pages = () => walk(context, path, spec, init ?? {}, options);
  return {
    pages,
    [Symbol.asyncIterator]: () => itemsOf(pages()),
    async toArray() {
      const all: unknown[] = [];
      for await (const page of pages()) for (const item of page.items) all.push(item);
      return all;
    },
  };
}

/**
 * Items one by one without an async generator per item: a buffered page is served with an already
 * resolved promise, so a large walk costs little more than a loop over the pages.
 */
function itemsOf(pages: AsyncGenerator<Page<unknown, unknown>>): AsyncIterator<unknown> {
  let buffer: unknown[] = [];
  let index = 0;
  const refill = async (): Promise<IteratorResult<unknown>> => {
    while (index >= buffer.length) {
      const next = await pages.next();
      if (next.done) return { done: true, value: undefined };
      buffer = next.value.items;
      index = 0;
    }
    return { done: false, value: buffer[index++] };
  };
  return {
    next: () => (index < buffer.length ? Promise.resolve({ done: false, value: buffer[index++] }) : refill()),
    return: async (value?: unknown) => {
      buffer = [];
      await pages.return(undefined);
      return { done: true, value };
    },
  };
}

async function* walk(
  context: PaginatorContext,
  path: string,
  spec: PaginationSpec,
  init: RequestInitLike,
  options: PaginateOptions,
): AsyncGenerator<Page<unknown, unknown>> {
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  let remaining = options.maxItems ?? Number.POSITIVE_INFINITY;
  if (maxPages <= 0 || remaining <= 0) return;
  const seenLinks = new Set<string>();
  const seenCursors = new Set<string>();
  const pageUrl = `${context.baseUrl}${path}`;
  const signal = init.signal ?? undefined;
  // Built once per walk: the caller's headers of every followed link (openapi-fetch's merge, as for the
  // first page), and where links may point.
  const linkHeaders = mergeHeaders(init.headers as HeadersInit | undefined, init.params?.header as never);
  const scope = new URL(pageUrl);
  let link: URL | undefined;
  for (let index = 0; index < maxPages; index++) {
    const { data, response } =
      link === undefined
        ? await fetchFirstPage(context, path, withPageSize(init, spec, options.pageSize), signal)
        : await followLink(context, link, linkHeaders, signal);
    const url = response.url || pageUrl;
    if (index === 0 && response.url) remember(new URL(response.url), seenLinks, seenCursors);
    const items = listOf(data, spec, url);
    const kept = items.length > remaining ? items.slice(0, remaining) : items;
    remaining -= kept.length;
    yield { index, items: kept, data, response };
    if (remaining <= 0 || spec.style === "none" || items.length === 0) return;
    const next = nextLink(data, url);
    if (next === undefined) return;
    link = resolveLink(next, url, scope, path);
    remember(link, seenLinks, seenCursors);
  }
}

async function fetchFirstPage(
  context: PaginatorContext,
  path: string,
  init: RequestInitLike,
  signal: AbortSignal | undefined,
): Promise<{ data: unknown; response: Response }> {
  let result: GetResult;
  try {
    result = await context.get(path, init);
  } catch (error) {
    throw unreadable(error, path, signal);
  }
  const { response } = result;
  if (!response.ok)
    throw context.toApiError(result.error, response, response.url || `${context.baseUrl}${path}`);
  return { data: result.data, response };
}

/**
 * Next pages go to the link exactly as the server wrote it (after the origin and path checks), with
 * the caller's headers and signal, built by the SDK's Request class and sent through its fetch wrapper.
 */
async function followLink(
  context: PaginatorContext,
  link: URL,
  headers: Headers,
  signal: AbortSignal | undefined,
): Promise<{ data: unknown; response: Response }> {
  const response = await context.send(new context.Request(link, { method: "GET", headers, signal }));
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw unreadable(error, link.pathname, signal);
  }
  if (!response.ok) throw context.toApiError(text, response, link.href);
  try {
    return { data: text === "" ? undefined : JSON.parse(text), response };
  } catch (error) {
    throw unreadable(error, link.pathname, signal);
  }
}

function unreadable(error: unknown, path: string, signal: AbortSignal | undefined): unknown {
  if (isCdasError(error) || signal?.aborted) return error;
  return new CdasError("invalid_response", `GET ${path} answered a body that could not be read`, {
    cause: error,
  });
}

function listOf(data: unknown, spec: PaginationSpec, url: string): unknown[] {
  const list = spec.items === "" ? data : (data as Record<string, unknown> | null | undefined)?.[spec.items];
  if (Array.isArray(list)) return list;
  throw new CdasError(
    "invalid_response",
    `GET ${new URL(url).pathname} answered 2xx without ${spec.items === "" ? "a JSON array" : `an array under "${spec.items}"`}`,
  );
}

function nextLink(data: unknown, url: string): string | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const links = (data as { links?: unknown }).links;
  if (links === undefined || links === null) return undefined;
  const next = typeof links === "object" ? (links as { next?: unknown }).next : links;
  if (next === undefined || next === null || next === "") return undefined;
  if (typeof next !== "string") {
    throw new CdasError(
      "invalid_response",
      `GET ${new URL(url).pathname} answered a links.next that is not a string`,
    );
  }
  return next;
}

/** Resolves a next link (absolute or relative) and refuses links that leave the API or the list. */
function resolveLink(
  next: string,
  pageUrl: string,
  scope: { origin: string; pathname: string },
  path: string,
): URL {
  let target: URL;
  try {
    target = new URL(next, pageUrl);
  } catch {
    throw new CdasError("invalid_response", `links.next of ${path} is not a valid address`);
  }
  if (target.origin !== scope.origin || target.pathname !== scope.pathname) {
    // Following it would send the bearer token elsewhere or read another resource.
    throw new CdasError(
      "invalid_response",
      `links.next of ${path} points outside ${path} on the API's origin`,
    );
  }
  return target;
}

function remember(target: URL, seenLinks: Set<string>, seenCursors: Set<string>): void {
  const params = [...target.searchParams].sort(([a, x], [b, y]) =>
    a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1,
  );
  const key = `${target.pathname}?${new URLSearchParams(params)}`;
  if (seenLinks.has(key)) {
    throw new CdasError("pagination_loop", `links.next of ${target.pathname} points to a page already read`);
  }
  seenLinks.add(key);
  const cursor = target.searchParams.get("page[after]");
  if (cursor !== null) {
    if (seenCursors.has(cursor)) {
      throw new CdasError("pagination_loop", `${target.pathname} repeated a cursor already followed`);
    }
    seenCursors.add(cursor);
  }
}

function withPageSize(
  init: RequestInitLike,
  spec: PaginationSpec,
  pageSize: number | undefined,
): RequestInitLike {
  if (pageSize === undefined || spec.style === "none") return init;
  const key = spec.style === "offset" ? "limit" : "page[size]";
  const query = init.params?.query ?? {};
  if (query[key] !== undefined) return init;
  return { ...init, params: { ...init.params, query: { ...query, [key]: pageSize } } };
}
