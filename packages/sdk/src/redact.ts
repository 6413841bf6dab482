/**
 * Taking the client secret out of everything the SDK hands back: text, headers, error bodies and
 * errors with their causes. The secret itself is held only by closures (core.ts's and `secretRedactor`'s).
 */

/** Removes the client secret from text. */
export type Redact = (text: string) => string;

/**
 * Replaces the secret (raw, JSON-escaped once or twice as when a body echoes a body, URL-encoded in
 * either case) in text handed back; a JSON error body's other escapes are undone first (`redactBody`).
 */
export function secretRedactor(secret: string): Redact {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const encoded = encodeURIComponent(secret);
  const forms = [
    ...new Set([
      secret,
      escaped,
      JSON.stringify(escaped).slice(1, -1),
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    ]),
  ];
  return (text) => {
    let result = text;
    for (const form of forms) if (result.includes(form)) result = result.split(form).join("[redacted]");
    return result;
  };
}

/** The headers themselves when no value holds the secret; a redacted copy otherwise. */
export function redactHeaders(headers: Headers, redact: Redact): Headers {
  for (const [, value] of headers) {
    if (redact(value) !== value) {
      const copy = new Headers();
      for (const [name, item] of headers) copy.append(name, redact(item));
      return copy;
    }
  }
  return headers;
}

/**
 * An error body with the secret taken out. A JSON body may escape it in any of JSON's ways (`\/`,
 * `\u0026`, ...): its strings are read, redacted and the body written again.
 */
export function redactBody(text: string, redact: Redact): string {
  const shown = redact(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(shown);
  } catch {
    return shown;
  }
  let changed = false;
  const redacted = JSON.stringify(parsed, (_key, value: unknown) => {
    if (typeof value !== "string") return value;
    const clean = redact(value);
    if (clean !== value) changed = true;
    return clean;
  });
  return changed ? redacted : shown;
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
