/** Access tokens: one shared request at a time, renewed shortly before expiry. */

export interface IssuedToken {
  token: string;
  lifetimeMs: number;
}

export interface TokenSource {
  /** The cached token while it is fresh, without waiting: most calls need no more. */
  fresh(): string | undefined;
  /** A fresh token (the cached one while fresh); concurrent callers share one token request. */
  get(signal?: AbortSignal): Promise<string>;
  /** Drops `used` if it is still the cached token (after a 401). */
  invalidate(used: string): void;
}

/** Renew a minute before expiry, or at 90% of the lifetime for short-lived tokens. */
function renewalMargin(lifetimeMs: number): number {
  return Math.min(60_000, lifetimeMs / 10);
}

export function createTokenSource(issue: () => Promise<IssuedToken>): TokenSource {
  let token: string | undefined;
  let renewAt = 0;
  let pending: Promise<string> | undefined;
  const fresh = () => (token !== undefined && Date.now() < renewAt ? token : undefined);
  return {
    fresh,
    get(signal) {
      const cached = fresh();
      if (cached !== undefined) return Promise.resolve(cached);
      // A caller that has already given up starts no token request.
      if (signal?.aborted) return Promise.reject(signal.reason);
      pending ??= issue()
        .then((issued) => {
          token = issued.token;
          renewAt = Date.now() + issued.lifetimeMs - renewalMargin(issued.lifetimeMs);
          return issued.token;
        })
        .finally(() => {
          pending = undefined;
        });
      return signal ? untilAborted(pending, signal) : pending;
    },
    invalidate(used) {
      if (token === used) token = undefined;
    },
  };
}

/** Reads either documented token response: {access_token, token_type, expires_in} or {token, expires_in}. */
export function readTokenResponse(body: unknown): IssuedToken | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const token = typeof record.access_token === "string" ? record.access_token : record.token;
  // An integer, or (leniently) one written as a string of digits: not "", " " or "0x10", which Number() reads.
  const written = record.expires_in;
  const expiresIn = typeof written === "string" && /^\d+$/.test(written) ? Number(written) : written;
  // Sent as `Bearer <token>`: visible ASCII only (a NUL, a space or a non-ASCII letter would fail every call).
  if (typeof token !== "string" || !/^[\x21-\x7e]+$/.test(token)) return undefined;
  if (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || expiresIn < 0) return undefined;
  return { token, lifetimeMs: expiresIn * 1000 };
}

/** Waits for the shared `promise`, or rejects early with the abort reason of this caller's `signal`. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
