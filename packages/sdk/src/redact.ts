/**
 * Taking the client secret out of everything the SDK hands back: text, headers, error bodies and
 * errors with their causes. The secret itself is held only by closures (core.ts's and `secretRedactor`'s).
 */

/**
 * Removes the client secret from text, written as `replacement` (default `[redacted]`; a header name
 * needs one that is a valid token).
 */
export type Redact = (text: string, replacement?: string) => string;

const REDACTED = "[redacted]";

/** What an error body becomes when it holds the secret in a form the SDK cannot rewrite in place. */
export const WITHHELD_BODY = "[the body was withheld: it held the client secret]";

/**
 * Replaces the secret (raw, JSON-escaped once or twice as when a body echoes a body, URL-encoded), in
 * any letter case: a URL's host and a header's name come back lower-cased.
 */
export function secretRedactor(secret: string): Redact {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const forms = [
    ...new Set([secret, escaped, JSON.stringify(escaped).slice(1, -1), encodeURIComponent(secret)]),
  ];
  // Longest first, so that a longer form is replaced whole rather than through a shorter one inside it.
  forms.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(
    forms.map((form) => form.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")).join("|"),
    "gi",
  );
  return (text, replacement = REDACTED) => text.replace(pattern, replacement);
}

/** The headers themselves when no name or value holds the secret; a redacted copy otherwise. */
export function redactHeaders(headers: Headers, redact: Redact): Headers {
  // One look at every name and value (no header holds a line break, so none is found across two).
  const lines: string[] = [];
  for (const [name, value] of headers) lines.push(name, value);
  const all = lines.join("\n");
  if (redact(all) === all) return headers;
  const copy = new Headers();
  for (const [name, value] of headers) copy.append(redact(name, "redacted"), redact(value));
  return copy;
}

/**
 * An error body with the secret taken out. A JSON body (after the white space `String.trim` removes, as
 * the SDK's own reading does) may escape the secret in any of JSON's ways (`\/`, `\u0063`, in a key or
 * a value): it is read and written again, which writes every string plainly, then redacted. A body
 * that still holds the secret once JSON escapes and URL encoding are undone (text that is not JSON,
 * JSON too deep to write again) is withheld whole.
 */
export function redactBody(text: string, redact: Redact): string {
  const shown = redact(text);
  const rewritten = rewrittenJson(shown);
  const redacted = rewritten === undefined ? undefined : redact(rewritten);
  const result = redacted !== undefined && redacted !== rewritten ? redacted : shown;
  return redact(decoded(result)) === decoded(result) ? result : WITHHELD_BODY;
}

/** JSON text written again (every string plainly), or undefined for text that is not JSON or too deep. */
function rewrittenJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[") && !trimmed.startsWith('"')) return undefined;
  try {
    return JSON.stringify(JSON.parse(trimmed));
  } catch {
    return undefined; // not JSON, or nested past the stack
  }
}

/** Text with JSON string escapes and URL encoding undone, repeatedly (a body may echo a body). */
function decoded(text: string): string {
  let current = text;
  for (let round = 0; round < 3; round++) {
    const next = current
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\\(["\\/bfnrt])/g, (_, c: string) => JSON.parse(`"\\${c}"`) as string)
      .replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === current) break;
    current = next;
  }
  return current;
}

/** The error itself when no message of its chain holds the secret; a redacted copy otherwise. */
export function redactError(error: unknown, redact: Redact): unknown {
  const holdsSecret = causeChain(error).some((link) => {
    const text = link instanceof Error ? `${link.message}\n${link.stack ?? ""}` : String(link);
    return redact(text) !== text;
  });
  return holdsSecret ? redactedCopy(error, redact) : error;
}

/** An error and its causes, outermost first, at most 8 deep (a chain may loop). */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let link = error; link !== undefined && link !== null && chain.length < 8; ) {
    chain.push(link);
    link = (link as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * A copy of an error and its causes (at most `depth` deep) with the secret removed from every message
 * and stack, codes kept and nothing else of the original: for a cause that holds text of the server's.
 */
export function redactedCopy(error: unknown, redact: Redact, depth = 8): unknown {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) {
    return error === undefined ? undefined : redact(String(error));
  }
  const source = error as Error & { code?: unknown; cause?: unknown };
  const cause =
    depth > 0 && source.cause !== undefined ? redactedCopy(source.cause, redact, depth - 1) : undefined;
  const copy = new Error(redact(String(source.message)), cause === undefined ? undefined : { cause });
  copy.name = String(source.name ?? "Error");
  // The original's stack (where it was thrown), not the copy's.
  if (typeof source.stack === "string") copy.stack = redact(source.stack);
  if (typeof source.code === "string") Object.assign(copy, { code: source.code });
  return copy;
}
