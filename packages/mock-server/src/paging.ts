/** Offset and cursor paging over a fully filtered, ordered list, with the `links` each style returns. */
import { ApiError } from "./errors.js";

const CURSOR_PREFIX = "cdas1:";
const CURSOR_PATTERN = /^cdas1:(\d{1,9})$/;

/** An opaque cursor naming a position in the ordered list. */
function encodeCursor(position: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${position}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string, field: string): number {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const match = CURSOR_PATTERN.exec(text);
  if (!match)
    throw new ApiError(400, `parameter ${field} is not a cursor issued by this service`, "bad_request");
  return Number(match[1]);
}

/** The request path with some query parameters replaced (a relative address). */
function linkTo(
  path: string,
  query: Record<string, unknown>,
  changes: Record<string, string | undefined>,
): string {
  // Loops rather than entries/map/every, as this runs on every paged read.
  const pairs: [string, string][] = [];
  let plain = true;
  const add = (key: string, value: string) => {
    pairs.push([key, value]);
    plain &&= UNESCAPED_FORM_TEXT.test(key) && UNESCAPED_FORM_TEXT.test(value);
  };
  for (const key in query) {
    const value = query[key];
    if (value !== undefined && !Object.hasOwn(changes, key)) add(key, String(value));
  }
  for (const key in changes) {
    const value = changes[key];
    if (value !== undefined) add(key, value);
  }
  if (pairs.length === 0) return path;
  // Text URLSearchParams would change is form-encoded by it; otherwise pairs are joined as they are.
  if (!plain) return `${path}?${new URLSearchParams(pairs).toString()}`;
  let joined = "";
  for (const [key, value] of pairs) joined += joined === "" ? `${key}=${value}` : `&${key}=${value}`;
  return `${path}?${joined}`;
}

/** Text that form encoding (URLSearchParams) leaves unchanged. */
const UNESCAPED_FORM_TEXT = /^[A-Za-z0-9*._-]*$/;

interface Page<T> {
  items: T[];
  links: { next?: string; prev?: string };
}

/*
 * The bounds of `limit`, `offset` and `page[size]` are the bundle's (`minimum`, `maximum`), checked
 * by the query validator compiled from it (bundle.ts), so the sandbox refuses exactly what the
 * documents exclude. Values a bundle leaves open are served without a refusal: a page of no items
 * has no `next` (it would repeat itself), and an offset before the start reads from the start.
 */

/** The page of `limit` items from `offset`; `links.next` carries the next offset. */
export function offsetPage<T>(
  items: T[],
  path: string,
  rawQuery: Record<string, unknown>,
  limit: number,
  offset: number,
): Page<T> {
  const start = Math.max(0, offset);
  const page = limit > 0 ? items.slice(start, start + limit) : [];
  const links: Page<T>["links"] = {};
  if (limit > 0 && start + limit < items.length)
    links.next = linkTo(path, rawQuery, { limit: String(limit), offset: String(start + limit) });
  return { items: page, links };
}

/** `page[size]`, `page[after]`, `page[before]`; links carry opaque cursors. */
export function cursorPage<T>(
  items: T[],
  path: string,
  rawQuery: Record<string, unknown>,
  size: number,
  after: string | undefined,
  before: string | undefined,
  /** Whether the operation accepts `page[before]`; without it no `prev` link is offered. */
  backwardLinks = true,
): Page<T> {
  if (after !== undefined && before !== undefined) {
    throw new ApiError(400, "parameters page[after] and page[before] cannot be combined", "bad_request");
  }
  size = Math.max(0, size);
  let start = 0;
  let end = Math.min(size, items.length);
  if (after !== undefined) {
    start = decodeCursor(after, "page[after]") + 1;
    end = Math.min(start + size, items.length);
  } else if (before !== undefined) {
    end = Math.min(decodeCursor(before, "page[before]"), items.length);
    start = Math.max(0, end - size);
  }
  const page = start < end ? items.slice(start, end) : [];
  const links: Page<T>["links"] = {};
  const base = { "page[after]": undefined, "page[before]": undefined, "page[size]": String(size) };
  if (end < items.length && start < end)
    links.next = linkTo(path, rawQuery, { ...base, "page[after]": encodeCursor(end - 1) });
  const firstShown = Math.min(start, items.length);
  if (firstShown > 0 && backwardLinks)
    links.prev = linkTo(path, rawQuery, { ...base, "page[before]": encodeCursor(firstShown) });
  return { items: page, links };
}
