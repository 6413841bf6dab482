/** Following an abort signal without `AbortSignal.any`. */

const NOTHING_TO_LET_GO = () => {};

/**
 * Makes `controller` abort with `signal`'s reason once `signal` aborts (at once if it has), and returns
 * what lets go of `signal`. A listener, not `AbortSignal.any`: `any` costs some 25 µs on Node 20, and
 * Node 20 keeps its ties on a long-lived signal until that signal is gone.
 */
export function followAbort(controller: AbortController, signal: AbortSignal | null | undefined): () => void {
  if (!signal) return NOTHING_TO_LET_GO;
  const follow = () => controller.abort(signal.reason);
  if (signal.aborted) {
    follow();
    return NOTHING_TO_LET_GO;
  }
  signal.addEventListener("abort", follow, { once: true });
  return () => signal.removeEventListener("abort", follow);
}
