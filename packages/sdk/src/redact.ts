/**
 * Taking the client secret out of everything the SDK hands back: text, headers, error bodies and
 * errors with their causes. The secret itself is held only by closures (core.ts's and `secretRedactor`'s).
 */

/**
 * Removes the client secret from text: each occurrence of one of its written forms becomes
 * `[redacted]`; text that spells it otherwise (escapes, percent-encoding) becomes `withheld` whole.
 */
export type Redact = (text: string, withheld?: string) => string;

const REDACTED = "[redacted]";

/** What an error body becomes when it spells the secret in a form the SDK cannot take out in place. */
export const WITHHELD_BODY = "[the body was withheld: it held the client secret]";

/**
 * The redactor of one secret. Its written forms (raw; JSON-escaped once or twice, as when a body echoes
 * a body; URL-encoded; its UTF-8 bytes read as Latin-1, as a header echoing it arrives; as a host name)
 * are replaced in any letter case (a host and a header name come back lower-cased). What is left is
 * then read as a reader might undo it: as it is (letters folded to lower case), and with JSON escapes,
 * percent-encoding or both undone, round after round; if any of those readings spells the secret, or
 * the text is still being undone after `DECODING_ROUNDS`, the whole text is withheld.
 */
export function secretRedactor(secret: string): Redact {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const forms = [secret, escaped, JSON.stringify(escaped).slice(1, -1), encodeURIComponent(secret)];
  forms.push(String.fromCharCode(...new TextEncoder().encode(secret)), ...hostForm(secret));
  // Longest first, so that a longer form is replaced whole rather than through a shorter one inside it.
  const unique = [...new Set(forms)].filter((form) => form !== "").sort((a, b) => b.length - a.length);
  const pattern = new RegExp(
    unique.map((form) => form.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")).join("|"),
    "gi",
  );
  const lowerSecret = secret.toLowerCase();
  const spells = (text: string) => text.toLowerCase().includes(lowerSecret);
  return (text, withheld = REDACTED) => {
    const replaced = text.replace(pattern, REDACTED);
    if (spells(replaced)) return withheld;
    if (!/[\\%]/.test(replaced)) return replaced;
    return UNDOINGS.some((undoing) => spelledWhenUndone(replaced, undoing, spells)) ? withheld : replaced;
  };
}

/** The secret as a URL writes it in a host name (lower case, non-ASCII as punycode), when it can be one. */
function hostForm(secret: string): string[] {
  try {
    const url = new URL(`http://${secret}.invalid/`);
    // Only a secret that is all host: an `@`, `:` or `/` in it makes another part of the URL.
    const whole = url.username === "" && url.password === "" && url.port === "" && url.pathname === "/";
    return whole && url.hostname.endsWith(".invalid") ? [url.hostname.slice(0, -".invalid".length)] : [];
  } catch {
    return [];
  }
}

/**
 * The readings of text: JSON escapes (left to right, so that `\\u0041` is a backslash and `u0041`) and
 * percent-encoding (runs of `%XX` as UTF-8, and JavaScript's `%uXXXX`) undone together, and each alone.
 */
const UNDOINGS: ReadonlyArray<readonly [RegExp, (match: string, ...groups: string[]) => string]> = [
  [/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))|((?:%[0-9a-fA-F]{2})+)|%u([0-9a-fA-F]{4})/g, eitherUndone],
  [/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, jsonUndone],
  [/((?:%[0-9a-fA-F]{2})+)|%u([0-9a-fA-F]{4})/g, percentUndone],
];
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

function jsonUndone(_match: string, hex?: string, simple?: string): string {
  if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
  return SIMPLE_ESCAPES[simple ?? ""] ?? simple ?? "";
}

function percentUndone(_match: string, run?: string, wide?: string): string {
  return run !== undefined ? percentDecoded(run) : String.fromCharCode(Number.parseInt(wide ?? "", 16));
}

function eitherUndone(match: string, hex?: string, simple?: string, run?: string, wide?: string): string {
  return hex !== undefined || simple !== undefined
    ? jsonUndone(match, hex, simple)
    : percentUndone(match, run, wide);
}

/** How many times text is undone at most: text still changing after that is withheld. */
const DECODING_ROUNDS = 8;

/** Whether undoing text with `undoing`, round after round, spells the secret after any round. */
function spelledWhenUndone(
  text: string,
  [escapes, undo]: (typeof UNDOINGS)[number],
  spells: (text: string) => boolean,
): boolean {
  let current = text;
  for (let round = 0; round < DECODING_ROUNDS; round++) {
    const next = current.replace(escapes, undo);
    if (next === current) return false;
    if (spells(next)) return true;
    current = next;
  }
  return true; // still changing: deeper than any honest text is encoded
}

/** Percent-encoded bytes as UTF-8 text, a byte that is not UTF-8 read as U+FFFD (the rest kept). */
function percentDecoded(run: string): string {
  const bytes = run
    .slice(1)
    .split("%")
    .map((hex) => Number.parseInt(hex, 16));
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** The headers themselves when no name or value holds the secret; a redacted copy otherwise. */
export function redactHeaders(headers: Headers, redact: Redact): Headers {
  // One look at every name and value (no header holds a line break, so none is found across two).
  const lines: string[] = [];
  for (const [name, value] of headers) lines.push(name, value);
  const all = lines.join("\n");
  if (redact(all) === all) return headers;
  const copy = new Headers();
  for (const [name, value] of headers)
    copy.append(redact(name) === name ? name : "x-redacted", redact(value));
  return copy;
}

/**
 * An error body with the secret taken out. A JSON body (after the white space `String.trim` removes, as
 * the SDK's own reading does) is read, each of its strings redacted on its own (so that a string that
 * spells the secret is withheld and the rest of the body kept: `id`, `name`, `temporary`), and written
 * again; other text is redacted whole. Anything still spelling the secret (a key, text that is not JSON)
 * withholds the body. Only the first `ERROR_BODY_KEPT` characters are kept.
 */
export function redactBody(text: string, redact: Redact): string {
  const kept = text.length > ERROR_BODY_KEPT ? `${text.slice(0, ERROR_BODY_KEPT)}…` : text;
  let result = kept;
  try {
    const trimmed = kept.trim();
    if (trimmed.startsWith("{") || trimmed.startsWith("[") || trimmed.startsWith('"')) {
      let changed = false;
      const rewritten = JSON.stringify(JSON.parse(trimmed), (_key, value: unknown) => {
        if (typeof value !== "string") return value;
        const shown = redact(value);
        if (shown !== value) changed = true;
        return shown;
      });
      if (changed) result = rewritten;
    }
  } catch {
    // not JSON, or nested past the stack: redacted as text
  }
  return redact(result, WITHHELD_BODY);
}

/** How much of an error body is kept: enough for any error the API writes, and bounded work to redact it. */
const ERROR_BODY_KEPT = 1024 * 1024;

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
