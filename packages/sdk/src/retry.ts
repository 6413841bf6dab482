/** The retry policy: one decision (`shouldRetry`) and the wait before the next attempt. */
import {
  CdasConnectionError,
  CdasTimeoutError,
  errorFields,
  parseErrorText,
  retryAfterOf,
} from "./errors.js";

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** An error answer, its body read whole as text with the secret taken out. */
export interface ErrorAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  url: string;
  errorText: string;
}

/** What an attempt ended with: a 2xx answer (its body unread), an error answer, or the SDK's error. */
export type Outcome = Response | ErrorAnswer | Error;

export function isErrorAnswer(outcome: Outcome): outcome is ErrorAnswer {
  return "errorText" in outcome;
}

/** Statuses retried without looking at the body. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** What the retry decision needs to know of a call. */
export interface RetriedCall {
  method: string;
  /** The token call may be repeated whatever its method: it changes nothing on the server. */
  isTokenCall: boolean;
}

/**
 * Whether to try again after `outcome`: only calls that may be repeated (reads and the token call),
 * within `maxRetries`; network failures (not a certificate or protocol one), timeouts, 429/502/503/504 and
 * error bodies with `temporary: true`. (A 401 renews the token once first: that is not a retry.)
 */
export function shouldRetry(
  policy: RetryPolicy,
  call: RetriedCall,
  retries: number,
  outcome: Outcome,
): boolean {
  const repeatable = call.isTokenCall || call.method === "GET" || call.method === "HEAD";
  if (!repeatable || retries >= policy.maxRetries) return false;
  if (outcome instanceof Error)
    return outcome instanceof CdasConnectionError ? outcome.retryable : outcome instanceof CdasTimeoutError;
  if (RETRYABLE_STATUSES.has(outcome.status)) return true;
  return isErrorAnswer(outcome) && isTemporaryBody(outcome.errorText);
}

/** The wait before retry number `retries`: `Retry-After` when valid (capped), backoff otherwise. */
export function retryDelay(policy: RetryPolicy, retries: number, outcome: Outcome): number {
  const retryAfter = outcome instanceof Error ? undefined : retryAfterOf(outcome.headers);
  if (retryAfter !== undefined) return Math.min(retryAfter, policy.maxDelayMs);
  // Exponential backoff with jitter: half fixed, half random, capped.
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retries);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function isTemporaryBody(text: string): boolean {
  return text.includes("temporary") && errorFields(parseErrorText(text).body).temporary === true;
}

/** Waits `ms`, or rejects with the abort reason of `signal`. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
