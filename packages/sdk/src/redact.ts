/**
 * Taking the client secret out of everything the SDK hands back: text, headers, error bodies and
 * errors with their causes. The secret itself is held only by closures (core.ts's and `secretRedactor`'s).
 */

/**
 * Removes the client secret from text: each occurrence of one of its written forms becomes
 * `[redacted]`; text that spells it otherwise (escapes, percent-encoding) becomes `withheld` whole.
 * The texts of one answer (its address, reason phrase, headers and error body) share one `budget` of
 * decoding work.
 */
export type Redact = (text: string, withheld?: string, budget?: DecodingBudget) => string;

/** Decoding work left to spend on one piece of what a server wrote (characters read by the steps). */
export interface DecodingBudget {
  left: number;
}

const REDACTED = "[redacted]";

/** What an error body becomes when it spells the secret in a form the SDK cannot take out in place. */
export const WITHHELD_BODY = "[the body was withheld: it held the client secret]";

/**
 * The redactor of one secret. Its written forms (raw; JSON-escaped once or twice, as when a body echoes
 * a body; URL-encoded; its UTF-8 bytes read as Latin-1, as a header echoing it arrives; as a host name)
 * are replaced in any letter case (a host and a header name come back lower-cased). What is left is
 * then read as a reader might undo it: as it is (letters case-folded), and after every sequence of up
 * to `DECODING_ROUNDS` steps that each undo JSON escapes or percent-encoding; if any reading spells the
 * secret, or the text could still be undone after that, the whole text is withheld.
 */
export function secretRedactor(secret: string): Redact {
  const escaped = jsonEscaped(secret);
  // Base64 of the secret as written, lower- or upper-cased (the base64 of one is not a letter case of
  // another's), each as it is and as JSON writes it (a JWT's claims are JSON; PHP writes `/` as `\/`).
  const encoded = [...new Set([secret, secret.toLowerCase(), secret.toUpperCase()])]
    .flatMap((cased) => [cased, jsonEscaped(cased), jsonEscaped(cased).replaceAll("/", "\\/")])
    .flatMap(base64Forms);
  const forms = [secret, escaped, jsonEscaped(escaped), encodeURIComponent(secret)];
  forms.push(String.fromCharCode(...new TextEncoder().encode(secret)), ...hostForm(secret), ...encoded);
  // Longest first, so that a longer form is replaced whole rather than through a shorter one inside it.
  const unique = [...new Set(forms)].filter((form) => form !== "").sort((a, b) => b.length - a.length);
  const pattern = new RegExp(
    unique.map((form) => form.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")).join("|"),
    "gi",
  );
  const spellings = [secret, ...encoded].map(fold);
  const spells = (text: string) => {
    const folded = fold(text);
    return spellings.some((spelling) => folded.includes(spelling));
  };
  return (text, withheld = REDACTED, budget = decodingBudget()) => {
    const replaced = text.replace(pattern, REDACTED);
    if (spells(replaced)) return withheld;
    if (!/[\\%]|&#/.test(replaced)) return replaced;
    return spelledWhenUndone(replaced, spells, budget) ? withheld : replaced;
  };
}

/**
 * Bearer tokens shorter than this are left in text: taking out a token of a few letters would take
 * them out of words too (`tok` of `token`).
 */
const SHORTEST_TOKEN_TAKEN_OUT = 8;

/**
 * Text without the bearer token a call sent: a server may echo it (`token … expired`), and a live
 * token in a log line is a credential. A token is the server's own text, echoed as written: it is
 * taken out as written.
 */
export function withoutToken(text: string, token: string | undefined): string {
  return token === undefined || token.length < SHORTEST_TOKEN_TAKEN_OUT
    ? text
    : text.replaceAll(token, REDACTED);
}

/** `redact`, also taking out the bearer `token` (`withoutToken`). */
export function withTokenRedacted(redact: Redact, token: string | undefined): Redact {
  return token === undefined
    ? redact
    : (text, withheld, budget) => redact(withoutToken(text, token), withheld, budget);
}

/** Text as it stands inside a JSON string. */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * Letters folded as Unicode folds case: `ſ` is `s`, the Kelvin sign `k`, `ı` `i`, `ẞ` and `ß` `ss`
 * (lower-casing alone misses some; `ẞ` upper-cases to itself, so it is lower-cased first).
 */
function fold(text: string): string {
  return text.toLowerCase().toUpperCase().toLowerCase();
}

/**
 * The secret's base64 and base64url spellings (a JWT's claims, a Basic header), at each of the three
 * places it can start among the encoded bytes: only the characters made of the secret's bits alone,
 * which any encoding of text holding it contains. None for a secret too short to tell (under 8).
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const shifted = new Uint8Array(offset + bytes.length);
    shifted.set(bytes, offset);
    const encoded = btoa(String.fromCharCode(...shifted));
    // Character i holds bits 6i to 6i+6: those before the secret's first bit, or past its last, go.
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * shifted.length) / 6));
    if (core.length >= 8) forms.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return forms;
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
 * The steps a reader may take: undo JSON escapes (left to right, so that `\\u0041` is a backslash and
 * `u0041`), undo percent-encoding (runs of `%XX` as UTF-8, and JavaScript's `%uXXXX`; or each `%XX`
 * as a Latin-1 letter), or undo JavaScript's other escapes and HTML's character references.
 */
const STEPS: ReadonlyArray<(text: string) => string> = [
  (text) => text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, jsonUndone),
  (text) => text.replace(/((?:%[0-9a-fA-F]{2})+)|%u([0-9a-fA-F]{4})/g, percentUndone),
  // As JavaScript's `unescape` reads it: each `%XX` one Latin-1 letter (`%DF` is ß, which folds to ss).
  (text) => text.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => letterOf(hex)),
  // JavaScript's `\xNN` and `\u{…}`, and HTML's numeric character references (`&#99;`, `&#x63;`).
  (text) =>
    text.replace(
      /\\x([0-9a-fA-F]{2})|\\u\{0*([0-9a-fA-F]{1,6})\}|&#[xX]0*([0-9a-fA-F]{1,6});?|&#0*([0-9]{1,7});?/g,
      codeUndone,
    ),
];

function codeUndone(match: string, ...hexOrDecimal: (string | undefined)[]): string {
  const [byte, braced, entityHex, entityDecimal] = hexOrDecimal;
  const hex = byte ?? braced ?? entityHex;
  const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(entityDecimal);
  return code <= 0x10ffff ? String.fromCodePoint(code) : match;
}

/** The UTF-16 letter a hexadecimal code names (`\u0041`, `%u0041`, `%41`). */
function letterOf(hex: string): string {
  return String.fromCharCode(Number.parseInt(hex, 16));
}

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
  if (hex !== undefined) return letterOf(hex);
  return SIMPLE_ESCAPES[simple ?? ""] ?? simple ?? "";
}

function percentUndone(_match: string, run?: string, wide?: string): string {
  return run !== undefined ? percentDecoded(run) : letterOf(wide ?? "");
}

/** How many steps a reading takes at most: text that could be undone further is withheld. */
const DECODING_ROUNDS = 8;
/** How many different readings one round may hold: text built to branch further is withheld. */
const READINGS_PER_ROUND = 32;
/**
 * How many characters the steps may read in all, for one answer (its address, reason phrase, headers
 * and error body's strings together): honest text takes a round or two, and text built to keep every
 * round full (each step over escapes) blocks for some 150 ns a character on a CI machine, 0.15 s for
 * the whole budget; past this it is withheld.
 */
const DECODING_WORK = 1024 * 1024;

/** A budget of decoding work for one piece of what a server wrote. */
export function decodingBudget(): DecodingBudget {
  return { left: DECODING_WORK };
}

/**
 * Whether some sequence of steps spells the secret (or the budget runs out first). Each round takes
 * every reading one step further each way; readings that are the same text are one (most text has
 * one kind of escape, or none).
 */
function spelledWhenUndone(text: string, spells: (text: string) => boolean, budget: DecodingBudget): boolean {
  let readings = new Set([text]);
  for (let round = 0; round <= DECODING_ROUNDS; round++) {
    const next = new Set<string>();
    for (const reading of readings) {
      budget.left -= reading.length * STEPS.length;
      if (budget.left < 0) return true;
      for (const step of STEPS) {
        const undone = step(reading);
        if (undone !== reading) next.add(undone);
      }
    }
    if (next.size === 0) return false;
    // One step past the last round still changes it: deeper than any honest text is encoded.
    if (round === DECODING_ROUNDS || next.size > READINGS_PER_ROUND) return true;
    for (const reading of next) if (spells(reading)) return true;
    readings = next;
  }
  return true;
}

/** Percent-encoded bytes as UTF-8 text, a byte that is not UTF-8 read as U+FFFD (the rest kept). */
function percentDecoded(run: string): string {
  try {
    return decodeURIComponent(run); // the same text for valid UTF-8, and fast
  } catch {
    const bytes = run
      .slice(1)
      .split("%")
      .map((hex) => Number.parseInt(hex, 16));
    return new TextDecoder().decode(Uint8Array.from(bytes));
  }
}

/** The headers themselves when no name or value holds the secret; a redacted copy otherwise. */
export function redactHeaders(headers: Headers, redact: Redact, budget = decodingBudget()): Headers {
  // One look at every name and value (no header holds a line break, so none is found across two).
  const lines: string[] = [];
  for (const [name, value] of headers) lines.push(name, value);
  const all = lines.join("\n");
  if (redact(all, undefined, budget) === all) return headers;
  const copy = new Headers();
  for (const [name, value] of headers)
    copy.append(
      redact(name, undefined, budget) === name ? name : "x-redacted",
      redact(value, undefined, budget),
    );
  return copy;
}

/**
 * An error body with the secret taken out. A JSON body (after the white space `String.trim` removes, as
 * the SDK's own reading does) is read, each of its strings redacted on its own (so that a string that
 * spells the secret is withheld and the rest of the body kept: `id`, `name`, `temporary`), and written
 * again; a key or a number that spells it withholds the body. A body that holds it only where
 * JSON.parse does not look (a member repeated under one name) is handed on as written again. Other
 * text is redacted whole, and withheld if it still spells it. A body longer than `ERROR_BODY_KEPT` is not kept (its length is
 * said, or that it was not read to the end: `undefined`). `budget` is the answer's (see `Redact`): a
 * body that uses it up is withheld whole.
 */
export function redactBody(text: string | undefined, redact: Redact, budget = decodingBudget()): string {
  // Not cut: a cut could end inside a spelling of the secret, leaving all of it but what comes after.
  if (text === undefined) return `[the body was not kept: more than ${ERROR_BODY_READ_BYTES} bytes]`;
  if (text.length > ERROR_BODY_KEPT)
    return `[the body was not kept: ${text.length} characters, more than 64 KiB]`;
  const parsed = parsedJson(text);
  if (parsed === NOT_JSON) return redact(text, WITHHELD_BODY, budget);
  let changed = false;
  let spelled = false;
  let rewritten: string;
  try {
    // JSON.parse has undone the text's own escapes: each string is read as it is, not the whole text again.
    rewritten = JSON.stringify(parsed, (key, value: unknown) => {
      if (key !== "" && redact(key, undefined, budget) !== key) spelled = true;
      if (typeof value === "number" && redact(String(value), undefined, budget) !== String(value))
        spelled = true;
      if (typeof value !== "string") return value;
      const shown = redact(value, undefined, budget);
      if (shown !== value) changed = true;
      return shown;
    });
  } catch {
    // Nested deeper than writing it again can go (JSON.parse goes deeper): read as text, as other bodies are.
    return redact(text, WITHHELD_BODY, budget);
  }
  if (spelled || budget.left < 0) return WITHHELD_BODY;
  if (changed) return rewritten;
  // What JSON.parse dropped is still in the text: a member repeated under one name (the last kept),
  // digits past a number's precision. Read whole, it is written again from what was parsed.
  return redact(text, undefined, budget) === text ? text : rewritten;
}

const NOT_JSON = Symbol("not JSON");

/** A body that is JSON, parsed; `NOT_JSON` for anything else (or nested past the stack). */
function parsedJson(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("[") || trimmed.startsWith('"'))) return NOT_JSON;
  try {
    return JSON.parse(trimmed);
  } catch {
    return NOT_JSON;
  }
}

/**
 * The largest error body kept: far more than any error the API writes, and bounded work to redact it
 * (a body built of escapes to be undone every way costs milliseconds, not seconds).
 */
const ERROR_BODY_KEPT = 64 * 1024;

/** The most of an error body read: more bytes than that hold more than `ERROR_BODY_KEPT` characters (UTF-8 spends at most 3 bytes on one). */
export const ERROR_BODY_READ_BYTES = 3 * ERROR_BODY_KEPT;

/**
 * The error itself when nothing a log line shows of it holds the secret; a redacted copy otherwise, or
 * when that cannot be read whole (see `shownText`).
 */
export function redactError(error: unknown, redact: Redact): unknown {
  const text = shownText(error);
  return text !== undefined && redact(text) === text ? error : redactedCopy(error, redact);
}

/** The most text `shownText` gathers: an error with more (a whole body in a field) is copied, not read. */
const SHOWN_TEXT_KEPT = 64 * 1024;
/** How deep `shownText` follows fields: `util.inspect` shows 2 levels by default; deeper is copied. */
const SHOWN_DEPTH = 16;

/**
 * What `util.inspect` or `JSON.stringify` can show of a value, as text: each object once, its own
 * enumerable fields (symbol keys included), a Map's and a Set's entries, and of an Error its message,
 * stack, name, cause and an AggregateError's errors. Undefined when that cannot be read in full (a
 * getter or Proxy that throws, more than `SHOWN_TEXT_KEPT` characters, fields deeper than
 * `SHOWN_DEPTH`): the caller then treats it as holding the secret. Bytes (a Buffer) are left out:
 * a log line shows them as hex, no form of the secret.
 */
function shownText(root: unknown): string | undefined {
  const parts: string[] = [];
  let length = 0;
  const seen = new WeakSet<object>();
  const add = (text: string) => {
    parts.push(text);
    length += text.length;
    if (length > SHOWN_TEXT_KEPT) throw new RangeError("too much to read");
  };
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== "object" && typeof value !== "function") {
      add(String(value)); // a string, a number, a symbol...
      return;
    }
    if (value === null || seen.has(value) || ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
      return;
    if (depth > SHOWN_DEPTH) throw new RangeError("too deep to read");
    seen.add(value);
    if (value instanceof Error) {
      for (const text of [value.message, value.stack, value.name]) visit(text, depth);
      visit(value.cause, depth + 1);
      visit((value as { errors?: unknown }).errors, depth + 1);
    }
    if (value instanceof Map) for (const [key, entry] of value) visit([key, entry], depth + 1);
    if (value instanceof Set) for (const entry of value) visit(entry, depth + 1);
    for (const key of Reflect.ownKeys(value)) {
      if (!Object.prototype.propertyIsEnumerable.call(value, key)) continue;
      add(String(key));
      visit((value as Record<PropertyKey, unknown>)[key], depth + 1);
    }
  };
  try {
    visit(root, 0);
  } catch {
    return undefined;
  }
  return parts.join("\n");
}

/**
 * A value as text: an Error's message, anything else as `String` writes it. A value `String` refuses
 * (an object without a prototype, a Proxy whose traps throw) is named by its type instead.
 */
export function textOf(value: unknown): string {
  try {
    return value instanceof Error ? String(value.message) : String(value);
  } catch {
    return `(${typeof value} that cannot be written as text)`;
  }
}

/** An error and its causes, outermost first, at most 8 deep (a chain may loop). */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let link = error; link !== undefined && link !== null && chain.length < 8; ) {
    chain.push(link);
    try {
      link = (link as { cause?: unknown }).cause;
    } catch {
      break; // a Proxy whose trap throws
    }
  }
  return chain;
}

/**
 * A copy of an error and its causes (at most `depth` deep) with the secret removed from every message
 * and stack, codes kept and nothing else of the original: for a cause that holds text of the server's.
 */
export function redactedCopy(error: unknown, redact: Redact, depth = 8): unknown {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) {
    return error === undefined ? undefined : redact(textOf(error));
  }
  const source = error as Error & { code?: unknown; cause?: unknown };
  const cause =
    depth > 0 && source.cause !== undefined ? redactedCopy(source.cause, redact, depth - 1) : undefined;
  // An object that is not an Error and has no message (a cause of a caller's, `{ got: ... }`) is shown by its fields.
  const message =
    error instanceof Error || typeof source.message === "string" ? textOf(source.message) : fieldsText(error);
  const copy = new Error(redact(message), cause === undefined ? undefined : { cause });
  // A name and a code are text too: a custom fetch may put a server's words there.
  copy.name = redact(textOf(source.name ?? "Error"));
  // The original's stack (where it was thrown), not the copy's.
  if (typeof source.stack === "string") copy.stack = redact(source.stack);
  if (typeof source.code === "string") Object.assign(copy, { code: redact(source.code) });
  return copy;
}

/**
 * A value's fields as JSON (an object met again written `"[seen]"`, a BigInt as its digits), or as
 * `String` writes it when they cannot be read; past `SHOWN_TEXT_KEPT` characters, their length only.
 */
function fieldsText(value: unknown): string {
  const seen = new WeakSet<object>();
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (_key, field: unknown) => {
      if (typeof field === "bigint") return String(field);
      if (typeof field !== "object" || field === null) return field;
      if (seen.has(field)) return "[seen]";
      seen.add(field);
      return field;
    });
  } catch {
    return textOf(value);
  }
  if (json === undefined) return textOf(value);
  return json.length > SHOWN_TEXT_KEPT ? `(an object whose fields run to ${json.length} characters)` : json;
}
