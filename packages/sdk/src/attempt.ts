/**
 * One HTTP attempt under a deadline that covers the wait for the answer and the reading of its
 * body. The deadline reaches the fetch through the `signal` of its init, as the Fetch standard
 * defines it: an aborted signal rejects the pending answer and errors a body still being read. So
 * nothing is attached to a response and nothing needs to know when its body has been read.
 *
 * Built for the hot path: attempts that start within the same quarter of the timeout share one
 * AbortController, aborted once the last of them is past its deadline (so an attempt ends between
 * `timeoutMs` and `timeoutMs` plus a quarter after it starts); one timer per such window, none per
 * request. An attempt whose request carries a caller's signal follows both signals.
 */
import { CdasError } from "./errors.js";

/**
 * The fetch the SDK calls: the standard signature. A custom fetch receives a Request and an init
 * whose `signal` carries the attempt's deadline; like every fetch, it must honour that signal.
 */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** What an attempt's promise resolves to, from the answer or from the failure. */
export interface AttemptThen {
  answer(response: Response): Response | Promise<Response>;
  failure(error: unknown): Response | Promise<Response>;
}

export type Attempt = (request: Request, then?: AttemptThen) => Promise<Response>;

/** Attempts sharing one controller at most (undici leaves a listener per request on a signal). */
const ATTEMPTS_PER_CONTROLLER = 64;

/**
 * Marks requests built by the SDK without a caller's signal: their own signal can never abort, so an
 * attempt passes the deadline's signal alone (following two signals costs more than the rest of an
 * attempt). The mark's value is the token of the bearer header the request was built with ("" for none).
 */
const SDK_BUILT = Symbol("cdas.sdkBuilt");
type MarkedRequest = Request & { [SDK_BUILT]?: string };

/** `new Request(input, init)`, marked when no caller's signal can abort it; `bearer`: the token its headers carry. */
export function sdkRequest(input: string | URL, init?: RequestInit, bearer = ""): Request {
  const request: MarkedRequest = new Request(input, init);
  if (init?.signal == null) request[SDK_BUILT] = bearer;
  return request;
}

/** The token of the bearer header the SDK built a request with ("" for none); undefined if the SDK did not build it. */
export function builtWithBearer(request: Request): string | undefined {
  return (request as MarkedRequest)[SDK_BUILT];
}

/** The reason a shared deadline aborts with; an attempt that fails with it reports its own request. */
class DeadlineReason extends CdasError {
  constructor(timeoutMs: number) {
    super("timeout", `The request timed out after ${timeoutMs} ms (its body included)`);
  }
}

/** Deadline signals, one per window of a quarter of the timeout. */
class Deadlines {
  private readonly windowMs: number;
  private controller: AbortController | undefined = undefined;
  private windowEnd = 0;
  private uses = 0;

  constructor(readonly timeoutMs: number) {
    this.windowMs = Math.min(1_000, Math.max(2, timeoutMs / 4));
  }

  /** The signal of an attempt starting now: aborted `timeoutMs` after the end of this window. */
  signal(): AbortSignal {
    const now = performance.now();
    let controller = this.controller;
    if (controller === undefined || now >= this.windowEnd || this.uses >= ATTEMPTS_PER_CONTROLLER) {
      const fresh = new AbortController();
      controller = this.controller = fresh;
      this.windowEnd = now + this.windowMs;
      this.uses = 0;
      const timer = setTimeout(
        () => fresh.abort(new DeadlineReason(this.timeoutMs)),
        this.windowMs + this.timeoutMs,
      );
      (timer as { unref?: () => void }).unref?.();
    }
    this.uses++;
    return controller.signal;
  }
}

/**
 * `attempt(request, then?)`: `then` turns the answer or the failure (network, deadline, caller's
 * abort) into the result inside the attempt's own promise, which saves the caller a promise layer.
 */
export function createAttempt(fetchImpl: FetchLike, timeoutMs: number): Attempt {
  const deadlines = new Deadlines(timeoutMs);
  return (request, then) => {
    const callerSignal = (request as MarkedRequest)[SDK_BUILT] === undefined ? request.signal : undefined;
    if (callerSignal?.aborted) return Promise.reject(callerSignal.reason);
    const deadline = deadlines.signal();
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
    const answered = (response: Response) => {
      if (typeof response !== "object" || response === null || typeof response.status !== "number") {
        return failed(
          new CdasError("invalid_response", "The fetch in use resolved to something that is not a Response"),
        );
      }
      return then ? then.answer(response) : response;
    };
    const failed = (error: unknown): Response | Promise<Response> => {
      // A fetch rejects with the signal's reason: the shared deadline's is given this request's name.
      const reason =
        error instanceof DeadlineReason
          ? new CdasError(
              "timeout",
              `${request.method} ${new URL(request.url).pathname} timed out after ${timeoutMs} ms`,
            )
          : error;
      if (then) return then.failure(reason);
      throw reason;
    };
    let pending: Promise<Response>;
    try {
      pending = Promise.resolve(fetchImpl(request, { signal }));
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(answered, failed);
  };
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
