/** One HTTP attempt with a deadline: covers the wait for the answer and the reading of its body. */
import { CdasError } from "./errors.js";

/** The fetch the SDK calls: the standard signature (a custom fetch receives a Request and an init with `signal`). */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

const noop = () => {};

/**
 * Sends `request` once. The attempt fails with a `timeout` CdasError after `timeoutMs`, or with the
 * caller's abort reason, even when the fetch in use ignores signals. Body reads of the returned
 * response stay under the same deadline; the timer is released once the body has been read.
 */
export function attemptOnce(
  fetchImpl: FetchLike,
  request: Request,
  init: RequestInit | undefined,
  timeoutMs: number,
): Promise<Response> {
  const callerSignal = request.signal;
  if (callerSignal.aborted) return Promise.reject(callerSignal.reason);
  const controller = new AbortController();
  let fail: (reason: unknown) => void = noop;
  const interrupted = new Promise<never>((_, reject) => {
    fail = reject;
  });
  interrupted.catch(noop);
  const abort = (reason: unknown) => {
    fail(reason);
    controller.abort(reason);
  };
  const onCallerAbort = () => abort(callerSignal.reason);
  const timer = setTimeout(
    () =>
      abort(
        new CdasError(
          "timeout",
          `${request.method} ${new URL(request.url).pathname} timed out after ${timeoutMs} ms`,
        ),
      ),
    timeoutMs,
  );
  callerSignal.addEventListener("abort", onCallerAbort);
  const finish = () => {
    clearTimeout(timer);
    callerSignal.removeEventListener("abort", onCallerAbort);
  };
  let pending: Promise<Response>;
  try {
    pending = fetchImpl(
      request,
      init ? { ...init, signal: controller.signal } : { signal: controller.signal },
    );
  } catch (error) {
    finish();
    return Promise.reject(error);
  }
  return Promise.race([pending, interrupted]).then(
    (response) => {
      if (!(response instanceof Object) || typeof response.status !== "number") {
        finish();
        throw new CdasError(
          "invalid_response",
          "The fetch in use resolved to something that is not a Response",
        );
      }
      guardBody(response, interrupted, finish);
      return response;
    },
    (error) => {
      finish();
      throw error;
    },
  );
}

type BodyReader = "text" | "json" | "arrayBuffer" | "blob";
const BODY_READERS: readonly BodyReader[] = ["text", "json", "arrayBuffer", "blob"];

/** Keeps body reads under the attempt's deadline and releases the timer when they end. */
function guardBody(response: Response, interrupted: Promise<never>, finish: () => void): void {
  if (response.body === null) {
    finish();
    return;
  }
  for (const reader of BODY_READERS) {
    const original = response[reader] as () => Promise<unknown>;
    (response as unknown as Record<BodyReader, () => Promise<unknown>>)[reader] = () => {
      const read = Promise.race([original.call(response), interrupted]);
      read.then(finish, finish);
      return read;
    };
  }
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

/** Waits for `promise`, or rejects early with the abort reason of `signal`. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
