/** Turning a handler's result into a response (paging applied) and any failure into its documented error. */
import type { OperationInfo } from "./bundle.js";
import { ApiError, documentedError, errorBody } from "./errors.js";
import type { HandlerResult } from "./handlers.js";
import { cursorPage, offsetPage } from "./paging.js";

export interface Reply {
  status: number;
  mediaType: string;
  body: string;
  headers?: Record<string, string>;
  /** The API version that answered, once one was chosen (for `onResponse`). */
  version?: string;
}

/** The request as paging needs it: the path as sent (links are built on it) and its raw query. */
interface PagedRequest {
  path: string;
  query: Record<string, unknown>;
}

export function resultReply(op: OperationInfo, request: PagedRequest, result: HandlerResult): Reply {
  if (result.kind === "body")
    return { status: 200, mediaType: "application/json", body: JSON.stringify(result.body) };
  const { page, links } = pageOf(op, request, result);
  const serializeItem = result.serialize as (item: unknown) => unknown;
  const json = result.cacheJson
    ? jsonOf(serializeItem)
    : (item: unknown) => JSON.stringify(serializeItem(item));
  let items = "[";
  for (let i = 0; i < page.length; i++) items += i === 0 ? json(page[i]) : `,${json(page[i])}`;
  items += "]";
  const key = op.pagination?.items ?? "";
  if (key === "") return { status: 200, mediaType: "application/json", body: items };
  let body = `{${JSON.stringify(key)}:${items}`;
  if (links && op.successHasLinks) body += `,"links":${JSON.stringify(links)}`;
  return { status: 200, mediaType: "application/json", body: `${body}}` };
}

/** The page size when the bundle gives the size parameter no default (the query has the bundle's filled in). */
const FALLBACK_PAGE_SIZE = 25;

/** The records of the requested page and its links, as the operation's `x-cdas-pagination` says. */
function pageOf(
  op: OperationInfo,
  request: PagedRequest,
  result: Extract<HandlerResult, { kind: "list" }>,
): { page: unknown[]; links?: Record<string, string> } {
  const { items: records } = result;
  const paging = op.pagination;
  if (paging?.style === "offset") {
    const limit = Number(result.query.limit ?? FALLBACK_PAGE_SIZE);
    const offset = Number(result.query.offset ?? 0);
    const slice = offsetPage(records, request.path, request.query, limit, offset);
    return { page: slice.items, links: slice.links };
  }
  if (paging?.style === "cursor") {
    const size = result.query["page[size]"];
    const after = result.query["page[after]"] as string | undefined;
    const before = result.query["page[before]"] as string | undefined;
    const optedOut = result.optInPaging && size === undefined && after === undefined && before === undefined;
    if (!optedOut) {
      const slice = cursorPage(
        records,
        request.path,
        request.query,
        Number(size ?? FALLBACK_PAGE_SIZE),
        after,
        before,
        op.cursorBackward,
      );
      return { page: slice.items, links: slice.links };
    }
  }
  return { page: records };
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

/** An error in the form `op` (the operation of its path, if any) documents; see `documentedError`. */
export function errorReply(op: OperationInfo | undefined, error: unknown): Reply {
  const apiError = error instanceof ApiError ? error : new ApiError(500, "internal error", "fault");
  const { status, info } = documentedError(op, apiError.status, apiError.outside);
  return {
    status,
    mediaType: info.mediaType,
    body: JSON.stringify(errorBody(info, apiError.message, apiError.errorName, status)),
    headers: apiError.headers,
  };
}
