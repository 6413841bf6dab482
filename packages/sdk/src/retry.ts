/** Retry policy: which failures are retried and how long to wait. */
import { errorFields, parseErrorText, parseRetryAfter } from "./errors.js";

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Statuses retried without looking at the body. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Exponential backoff with jitter: half fixed, half random, capped. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** The wait before retrying a retryable status: `Retry-After` when given (capped), backoff otherwise. */
export function statusDelay(policy: RetryPolicy, attempt: number, response: Response): number {
  const retryAfter = parseRetryAfter(response.headers.get("retry-after"), Date.now());
  return retryAfter === undefined ? backoffDelay(policy, attempt) : Math.min(retryAfter, policy.maxDelayMs);
}

/** Whether an error body says `temporary: true`. */
export function isTemporaryBody(text: string): boolean {
  if (!text.includes("temporary")) return false;
  return errorFields(parseErrorText(text).body).temporary === true;
}
