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

/** The token request in flight, and who still waits for it. */
interface PendingToken {
  promise: Promise<string>;
  /** Aborts the request: its attempts, their sockets and its backoff. */
  controller: AbortController;
  /** Callers waiting that may still give up (those with a signal). */
  waiting: number;
  /** A caller without a signal waits: the request goes on whoever else gives up. */
  kept: boolean;
}

/**
 * `issue(signal)` makes a token request that ends when `signal` aborts. Concurrent callers share one;
 * once every caller waiting for it has given up (each by its own signal), it is aborted: it would
 * otherwise go on through its deadline and retries (some 90 s against a server that never answers),
 * holding a socket and the process open for a token nobody waits for.
 */
export function createTokenSource(issue: (signal: AbortSignal) => Promise<IssuedToken>): TokenSource {
  let token: string | undefined;
  let renewAt = 0;
  let pending: PendingToken | undefined;
  const fresh = () => (token !== undefined && Date.now() < renewAt ? token : undefined);

  function startRequest(): PendingToken {
    const controller = new AbortController();
    const promise: Promise<string> = issue(controller.signal)
      .then((issued) => {
        token = issued.token;
        renewAt = Date.now() + issued.lifetimeMs - renewalMargin(issued.lifetimeMs);
        return issued.token;
      })
      .finally(() => {
        if (pending?.promise === promise) pending = undefined;
      });
    promise.catch(() => {}); // an abandoned request's failure reaches nobody
    return { promise, controller, waiting: 0, kept: false };
  }

  /** The shared request for a caller whose `signal` may give up on it (aborting it if it was the last). */
  function waitFor(request: PendingToken, signal: AbortSignal): Promise<string> {
    request.waiting += 1;
    return new Promise<string>((resolve, reject) => {
      const giveUp = () => {
        reject(signal.reason);
        request.waiting -= 1;
        if (request.waiting > 0 || request.kept) return;
        if (pending === request) pending = undefined; // the next caller starts a request of its own
        request.controller.abort(
          new DOMException("Every caller waiting for the token gave up.", "AbortError"),
        );
      };
      signal.addEventListener("abort", giveUp, { once: true });
      request.promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", giveUp));
    });
  }

  return {
    fresh,
    get(signal) {
      const cached = fresh();
      if (cached !== undefined) return Promise.resolve(cached);
      // A caller that has already given up starts no token request.
      if (signal?.aborted) return Promise.reject(signal.reason);
      pending ??= startRequest();
      if (signal) return waitFor(pending, signal);
      pending.kept = true;
      return pending.promise;
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
