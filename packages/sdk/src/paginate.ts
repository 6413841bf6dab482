/**
 * Walks every list style (offset, cursor with absolute or relative links, single pages, bare arrays)
 * through `client.GET`, so that every page takes the same road as a call of the user's: the SDK's
 * transport, and any middleware the user added with `sdk.client.use`.
 */
import {
  apiErrorOf,
  type FailedCall,
  failedInCallersCode,
  invalidAnswer,
  invalidOptions,
  invalidResponse,
  isObject,
  paginationLoop,
  redactedCall,
  refuseUnknownOptions,
  unreadableOptions,
} from "./errors.js";
import { type Redact, redactedCopy, textOf } from "./redact.js";
import { followAbort } from "./signals.js";

/** The `x-cdas-pagination` of a list operation, as generated into each client package. */
export interface PaginationSpec {
  readonly style: "offset" | "cursor" | "none";
  /** The key that holds the list; "" for a bare array. */
  readonly items: string;
}

export interface PaginateOptions {
  /** Stop after this many pages. */
  maxPages?: number | undefined;
  /** Stop after this many items (the last page is cut). */
  maxItems?: number | undefined;
  /** Sent as `limit` (offset style) or `page[size]` (cursor style) unless the query already has it. */
  pageSize?: number | undefined;
  /**
   * Request the next page while the loop works on the current one (never more than one page
   * ahead); leaving the loop early cancels the request in flight. Default false.
   */
  prefetch?: boolean | undefined;
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
  params?: { query?: Record<string, unknown>; header?: Record<string, unknown> };
  headers?: unknown;
  signal?: AbortSignal | null;
  [key: string]: unknown;
}

export interface PaginatorContext {
  /** `client.GET` of the SDK's client. */
  get: GetFunction;
  baseUrl: string;
  /** Removes the client secret from text handed back (a failed page's address). */
  redact: Redact;
}

export function createPaginator(
  context: PaginatorContext,
  path: string,
  spec: PaginationSpec,
  init: RequestInitLike | undefined,
  options: PaginateOptions = {},
): Paginator<unknown, unknown> {
  // Each read once, into plain copies: a getter could answer the check one thing and the walk another.
  let checked: PaginateOptions;
  let request: RequestInitLike;
  try {
    checked = checkOptions(options);
    request = { ...init };
  } catch (error) {
    throw unreadableOptions(error, "paginate could not read its init or options");
  }
  const { signal } = request;
  if (signal !== undefined && signal !== null && !(signal instanceof AbortSignal))
    throw invalidOptions(`paginate's init.signal must be an AbortSignal (got ${typeof signal})`);
  const pages = () => stoppable((ended) => walk(context, path, spec, request, checked, ended), signal);
  return {
    pages,
    [Symbol.asyncIterator]: () => itemsOf(pages(), signal),
    async toArray() {
      const all: unknown[] = [];
      for await (const page of pages()) for (const item of page.items) all.push(item);
      return all;
    },
  };
}

/**
 * The pages of a walk, whose `return()` and `throw()` do not wait for the page in flight (an async
 * generator's would, retries included): they cancel it, and a `next()` waiting for it ends the walk
 * (`done`) instead of failing. Once the caller has aborted, a page that fails rejects with the
 * caller's reason. The walk's `ended` aborts once `return()` or `throw()` is called; each page's own signal
 * follows it and the caller's while the page is fetched (`walk`).
 */
function stoppable(
  start: (ended: AbortSignal) => AsyncGenerator<Page<unknown, unknown>>,
  callerSignal: AbortSignal | null | undefined,
): AsyncGenerator<Page<unknown, unknown>> {
  const ending = new AbortController();
  const stop = () => ending.abort(new DOMException("The walk ended before this page was used", "AbortError"));
  const generator = start(ending.signal);
  const pages: AsyncGenerator<Page<unknown, unknown>> = {
    next: () => {
      // The caller's abort ends the walk at the next page, one already fetched (prefetch) included.
      if (callerSignal?.aborted)
        return pages.return(undefined).then(() => Promise.reject(callerSignal.reason));
      return generator.next().catch((error: unknown) => {
        if (ending.signal.aborted) return { done: true, value: undefined };
        // The caller's abort rejects with the caller's reason, whatever the page failed with meanwhile.
        if (callerSignal?.aborted) throw callerSignal.reason;
        throw error;
      });
    },
    async return(value) {
      stop();
      await generator.return(undefined);
      return { done: true, value };
    },
    throw(error) {
      stop();
      return generator.throw(error);
    },
    [Symbol.asyncIterator]: () => pages,
  };
  return pages;
}

/**
 * Items one by one without an async generator per item: a buffered page is served with an already
 * resolved promise, so a large walk costs little more than a loop over the pages. The caller's abort
 * ends the walk at the next item (with the caller's reason), not at the end of the page in hand. A call
 * made while a page is being fetched waits for it, as an async generator's would: two refills at once
 * would each fetch a page, and the second would overwrite the first.
 */
function itemsOf(
  pages: AsyncGenerator<Page<unknown, unknown>>,
  signal: AbortSignal | null | undefined,
): AsyncIterator<unknown> {
  let buffer: unknown[] = [];
  let index = 0;
  // Once `return()` is called, nothing more is handed out, not even a page a refill then brings.
  let stopped = false;
  const refill = async (): Promise<IteratorResult<unknown>> => {
    while (index >= buffer.length) {
      const next = await pages.next();
      if (next.done || stopped) return { done: true, value: undefined };
      buffer = next.value.items;
      index = 0;
    }
    return { done: false, value: buffer[index++] };
  };
  const stop = async (value?: unknown): Promise<IteratorResult<unknown>> => {
    stopped = true;
    buffer = [];
    await pages.return(undefined); // a page in flight is cancelled (prefetch)
    return { done: true, value };
  };
  let refilling: Promise<IteratorResult<unknown>> | undefined;
  const next = (): Promise<IteratorResult<unknown>> => {
    if (refilling) return refilling.then(next, next);
    if (signal?.aborted) return stop().then(() => Promise.reject(signal.reason));
    if (index < buffer.length) return Promise.resolve({ done: false, value: buffer[index++] });
    const refilled = refill();
    refilling = refilled;
    // Registered before any waiter's, so that the waiters find the refill over.
    const over = () => {
      refilling = undefined;
    };
    refilled.then(over, over);
    return refilled;
  };
  return { next, return: stop };
}

/** A page as read, and the link followed to it (none for the first). */
type Fetched = { data: unknown; response: Response; link?: URL | undefined };

async function* walk(
  context: PaginatorContext,
  path: string,
  spec: PaginationSpec,
  init: RequestInitLike,
  options: PaginateOptions,
  ended: AbortSignal,
): AsyncGenerator<Page<unknown, unknown>> {
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  let remaining = options.maxItems ?? Number.POSITIVE_INFINITY;
  if (maxPages <= 0 || remaining <= 0) return;
  const seen = new SeenPages();
  const pageUrl = `${context.baseUrl}${path}`;
  const scope = new URL(pageUrl);
  let firstInit: RequestInitLike;
  let header: Record<string, unknown> | undefined;
  try {
    firstInit = withPageSize(init, spec, options.pageSize, context.redact);
    header = init.params?.header;
  } catch (error) {
    throw failedInCallersCode(error, "GET", path, context.redact, "before sending"); // a getter of the caller's params
  }
  // A link is followed exactly as written (its query serialised as the link has it), with the caller's
  // headers. A middleware sees what it sees of the first page: the list's path as `schemaPath` (what
  // metrics group by) and the query, here the link's, as `params.query`.
  const linkInit = (link: URL): RequestInitLike => ({
    headers: init.headers,
    params: { header, query: Object.fromEntries(link.searchParams) },
    querySerializer: () => link.search.slice(1),
  });
  // Each page has a signal of its own that follows the caller's and the walk's `ended` while the page
  // is fetched, and only then: a walk dropped between pages, never ended, leaves no listener on the
  // caller's signal (a shutdown signal lives as long as the process).
  const callerSignal = init.signal ?? undefined;
  const fetchPage = (link?: URL) => {
    const page = new AbortController();
    const letGoWalk = followAbort(page, ended);
    const letGoCaller = followAbort(page, callerSignal);
    const pageInit = { ...(link === undefined ? firstInit : linkInit(link)), signal: page.signal };
    return getPage(context, path, pageInit)
      .then((fetched) => ({ ...fetched, link }))
      .finally(() => {
        letGoWalk();
        letGoCaller();
      });
  };
  // The call an error names, the secret taken out (a middleware's answer is not the transport's,
  // which takes it out of its own): a page, or for a redirect back, the link that was redirected.
  const called =
    (address: string): PageCall =>
    () =>
      redactedCall("GET", address, context.redact);
  let pending: Promise<Fetched> | undefined = fetchPage();
  for (let index = 0; pending !== undefined; index++) {
    const { data, response, link } = await pending;
    pending = undefined;
    // The page's address, unless the SDK withheld it (it spelled the secret) or a fetch gave none.
    const url = URL.canParse(response.url) ? response.url : pageUrl;
    // Remembered when it is not the link followed (the first page; a same-origin redirect), so that a
    // link or a redirect back to a page already read is a loop before its items are handed out again.
    const page = called(url);
    if (url === response.url && url !== link?.href)
      seen.add(new URL(url), called(link?.href ?? url), index > 0);
    const items = listOf(data, spec, page);
    const kept = items.length > remaining ? items.slice(0, remaining) : items;
    remaining -= kept.length;
    const last = remaining <= 0 || index + 1 >= maxPages || spec.style === "none" || items.length === 0;
    const next = last ? undefined : nextLink(data, url, page, path, scope, context.redact);
    if (next !== undefined) seen.add(next, page);
    if (next !== undefined && options.prefetch) {
      pending = fetchPage(next);
      pending.catch(() => {}); // awaited on the next turn, or abandoned when the loop ends here
    }
    yield { index, items: kept, data, response };
    if (next !== undefined && !options.prefetch) pending = fetchPage(next);
  }
}

/**
 * One page through `client.GET`, which parses its JSON (and types a body that is not JSON, as for
 * every call of the client): a non-2xx page throws.
 */
async function getPage(context: PaginatorContext, path: string, init: RequestInitLike): Promise<Fetched> {
  const { data, response } = await context.get(path, { ...init, parseAs: "json" });
  if (response.ok) return { data, response };
  // sdk.client keeps the SDK's error of every answer that was not 2xx on it (core.ts).
  throw apiErrorOf({ response });
}

/** What an error of a page names: the call that read it. */
type PageCall = () => FailedCall;

function listOf(data: unknown, spec: PaginationSpec, page: PageCall): unknown[] {
  const list = spec.items === "" ? data : (data as Record<string, unknown> | null | undefined)?.[spec.items];
  if (Array.isArray(list)) return list;
  const expected = spec.items === "" ? "a JSON array" : `an array under "${spec.items}"`;
  throw invalidAnswer(page(), ` answered 2xx without ${expected}`);
}

/**
 * The next link (absolute or relative, as written), refused when it leaves the list on the API's
 * origin (it would carry the bearer token elsewhere or read another resource) or carries credentials.
 */
function nextLink(
  data: unknown,
  url: string,
  page: PageCall,
  path: string,
  scope: URL,
  redact: Redact,
): URL | undefined {
  const refused = (why: string, cause?: unknown) =>
    invalidResponse(`links.next of ${path} ${why}`, page(), cause);
  if (!isObject(data)) return undefined;
  const links = data.links;
  if (links === undefined || links === null) return undefined;
  const next = typeof links === "object" ? (links as { next?: unknown }).next : links;
  if (next === undefined || next === null || next === "") return undefined;
  if (typeof next !== "string") throw refused(`is not a string`);
  if (next.length > MAX_LINK_LENGTH) throw refused(`is longer than ${MAX_LINK_LENGTH} characters`);
  let target: URL;
  try {
    target = new URL(next, url);
  } catch (cause) {
    throw refused("is not a valid address", redactedCopy(cause, redact));
  }
  // Measured again once resolved and encoded (8,150 "€" become some 73,000 characters).
  if (target.href.length > MAX_LINK_LENGTH)
    throw refused(`is longer than ${MAX_LINK_LENGTH} characters once encoded`);
  if (target.username || target.password) throw refused(`carries credentials`);
  // A fragment is never sent (and the answer's address has none): the link followed is without it.
  target.hash = "";
  // The secret goes in the token call's body alone, never in an address (logs and proxies keep those).
  if (redact(target.href) !== target.href) throw refused(`holds the client secret: not followed`);
  if (target.origin !== scope.origin || target.pathname !== scope.pathname) {
    throw refused(`points outside ${path} on the API's origin`);
  }
  return target;
}

/**
 * The longest `links.next` followed: longer than the request line servers accept (8 KiB is common),
 * and each link is read whole to remember it.
 */
const MAX_LINK_LENGTH = 8192;

/**
 * The pages and cursors a walk has read: a link back to one of them is a loop. Each is remembered by
 * a digest, not its text, so that a walk's memory does not grow with the length of its links.
 */
class SeenPages {
  private readonly links = new Set<string>();
  private readonly cursors = new Set<string>();

  /**
   * `page`: the call a loop names (the page whose link `target` is, or the link redirected to
   * `target`); `redirected`: `target` is the address a page was answered from, not a link's.
   */
  add(target: URL, page: PageCall, redirected = false): void {
    // The same page whatever the order of its query's names (a copy: the link is followed as written).
    const normal = new URL(target.href);
    normal.searchParams.sort();
    const key = digest(`${normal.pathname}${normal.search}`);
    if (this.links.has(key)) {
      throw paginationLoop(
        redirected
          ? `links.next of ${target.pathname} was redirected to a page already read`
          : `links.next of ${target.pathname} points to a page already read`,
        page(),
      );
    }
    this.links.add(key);
    const cursor = target.searchParams.get("page[after]");
    if (cursor === null) return;
    const cursorKey = digest(cursor);
    if (this.cursors.has(cursorKey))
      throw paginationLoop(`${target.pathname} repeated a cursor already followed`, page());
    this.cursors.add(cursorKey);
  }
}

/**
 * A 106-bit digest of text: two 53-bit lanes of cyrb53 (public domain, bryc), seeded apart. Not for
 * secrecy: two honest links collide with odds far below one in 2^50, and a server that forges a
 * collision only ends its own walk (with a CdasPaginationLoopError).
 */
function digest(text: string): string {
  return `${cyrb53(text, 0)}.${cyrb53(text, 0x9e3779b9)}`;
}

function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function withPageSize(
  init: RequestInitLike,
  spec: PaginationSpec,
  pageSize: number | undefined,
  redact: Redact,
): RequestInitLike {
  if (spec.style === "none") return init;
  const key = spec.style === "offset" ? "limit" : "page[size]";
  const query = init.params?.query ?? {};
  const given = query[key];
  // A page of no items (or fewer) walks nothing: refused as the pageSize option is.
  if (given !== undefined && given !== null && given !== "" && !(Number(given) >= 1)) {
    throw invalidOptions(
      redact(`paginate needs a query ${key} of at least 1 to walk pages (got ${textOf(given)})`),
    );
  }
  if (pageSize === undefined || given !== undefined) return init;
  return { ...init, params: { ...init.params, query: { ...query, [key]: pageSize } } };
}

/** Every option of `PaginateOptions`, so that a misspelt one (`pagesize`) is refused rather than ignored. */
const OPTION_NAMES: Record<keyof PaginateOptions, true> = {
  maxPages: true,
  maxItems: true,
  pageSize: true,
  prefetch: true,
};

/** The options checked, as a plain copy. */
function checkOptions(options: PaginateOptions): PaginateOptions {
  refuseUnknownOptions("paginate", options, OPTION_NAMES);
  const { maxPages, maxItems, pageSize, prefetch } = options;
  for (const [name, value, least] of [
    ["maxPages", maxPages, 0],
    ["maxItems", maxItems, 0],
    ["pageSize", pageSize, 1],
  ] as const) {
    if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < least)) {
      throw invalidOptions(
        `paginate option ${name} must be a whole number of at least ${least} (got ${textOf(value)})`,
      );
    }
  }
  if (prefetch !== undefined && typeof prefetch !== "boolean") {
    throw invalidOptions("paginate option prefetch must be a boolean");
  }
  return { maxPages, maxItems, pageSize, prefetch };
}
