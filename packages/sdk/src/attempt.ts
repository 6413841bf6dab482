/**
 * One HTTP attempt under a deadline that covers the wait for the answer and the reading of its
 * body. Built for the hot path: one shared coarse timer per SDK instead of a timer per request,
 * AbortControllers reused while they are not aborted, and no listener on a request's signal when
 * nothing but the SDK can abort it.
 */
import { CdasError } from "./errors.js";

/** The fetch the SDK calls: the standard signature (a custom fetch receives a Request and an init with `signal`). */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** What an attempt's promise resolves to, from the answer or from the failure. */
export interface AttemptThen {
  answer(response: Response): Response | Promise<Response>;
  failure(error: unknown): Response | Promise<Response>;
}

export type Attempt = (
  request: Request,
  init: RequestInit | undefined,
  then?: AttemptThen,
) => Promise<Response>;

type BodyReader = "text" | "json" | "arrayBuffer" | "blob";
type Readers = Record<BodyReader, () => Promise<unknown>>;
const IN_FLIGHT = Symbol("cdas.inFlight");
type GuardedResponse = Response & { [IN_FLIGHT]?: InFlight };

/** A controller is reused for this many attempts at most (bounds the abort listeners a fetch leaves on it). */
const CONTROLLER_REUSE = 64;
const noop = () => {};
const NO_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/**
 * Marks requests built by the SDK without a caller's signal: their own signal can never abort, so an
 * attempt does not listen to it (a listener on a fresh signal costs more than the rest of an attempt).
 */
const UNSIGNALLED = Symbol("cdas.unsignalled");
type MarkedRequest = Request & { [UNSIGNALLED]?: true };

/** `new Request(input, init)` that marks a request no caller's signal can abort (given to openapi-fetch as `Request`). */
export const SdkRequest = function SdkRequest(input: RequestInfo | URL, init?: RequestInit): Request {
  const request: MarkedRequest = new Request(input, init);
  if (init?.signal == null && !(input instanceof Request)) request[UNSIGNALLED] = true;
  return request;
} as unknown as typeof Request;

/** One attempt in flight; it is its own listener on the caller's signal. */
class InFlight {
  settled = false;
  /** Set when the deadline or the caller ended the attempt (even if an answer arrived in the same tick). */
  abortedWith: { reason: unknown } | undefined = undefined;
  /** Rejects whatever the caller is waiting for: the answer, then the body. */
  interrupt: (reason: unknown) => void = noop;
  /** The response's own body readers, replaced on the response by guarded ones. */
  readers: Readers | undefined = undefined;
  /** Neighbours in the list of attempts in flight (oldest first). */
  previous: InFlight | undefined = undefined;
  next: InFlight | undefined = undefined;

  constructor(
    readonly deadlines: Deadlines,
    readonly request: Request,
    readonly controller: AbortController,
    readonly deadline: number,
    /** The request's signal when a caller's signal may abort it. */
    readonly callerSignal: AbortSignal | undefined,
  ) {}

  handleEvent(): void {
    this.deadlines.abort(this, this.callerSignal?.reason);
  }
}

/**
 * The attempts in flight of one SDK, checked by one shared timer (to within a quarter of the timeout).
 * They form a list in start order, which is deadline order: a tick looks only at those due.
 */
class Deadlines {
  first: InFlight | undefined = undefined;
  last: InFlight | undefined = undefined;
  readonly tickMs: number;
  ticker: ReturnType<typeof setInterval> | undefined = undefined;
  spare: AbortController | undefined = undefined;
  spareUses = 0;

  constructor(readonly timeoutMs: number) {
    this.tickMs = Math.min(1_000, Math.max(2, timeoutMs / 4));
  }

  /** `callerSignal`: the request's signal, unless nothing but the SDK can abort it. */
  start(request: Request, callerSignal: AbortSignal | undefined): InFlight {
    let controller = this.spare;
    this.spare = undefined;
    if (controller === undefined) {
      controller = new AbortController();
      this.spareUses = 0;
    }
    const entry = new InFlight(this, request, controller, performance.now() + this.timeoutMs, callerSignal);
    entry.previous = this.last;
    if (this.last) this.last.next = entry;
    else this.first = entry;
    this.last = entry;
    if (this.ticker === undefined) {
      this.ticker = setInterval(() => this.tick(), this.tickMs);
      (this.ticker as { unref?: () => void }).unref?.();
    }
    callerSignal?.addEventListener("abort", entry);
    return entry;
  }

  finish(entry: InFlight): void {
    if (entry.settled) return;
    entry.settled = true;
    const { previous, next } = entry;
    if (previous) previous.next = next;
    else this.first = next;
    if (next) next.previous = previous;
    else this.last = previous;
    entry.previous = entry.next = undefined;
    entry.callerSignal?.removeEventListener("abort", entry);
    // Only abort() aborts a controller, and it marks the entry first.
    if (entry.abortedWith === undefined && this.spareUses < CONTROLLER_REUSE) {
      this.spare = entry.controller;
      this.spareUses++;
    }
  }

  abort(entry: InFlight, reason: unknown): void {
    if (entry.settled) return;
    entry.abortedWith = { reason };
    this.finish(entry);
    entry.interrupt(reason);
    entry.controller.abort(reason);
  }

  tick(): void {
    if (this.first === undefined) {
      clearInterval(this.ticker);
      this.ticker = undefined;
      return;
    }
    const now = performance.now();
    for (let entry = this.first; entry !== undefined && now >= entry.deadline; entry = this.first) {
      const { method, url } = entry.request;
      const message = `${method} ${new URL(url).pathname} timed out after ${this.timeoutMs} ms`;
      this.abort(entry, new CdasError("timeout", message));
    }
  }
}

/** Keeps body reads under the attempt's deadline; the attempt ends when the body has been read. */
function guardedRead(response: GuardedResponse, reader: BodyReader): Promise<unknown> {
  const entry = response[IN_FLIGHT];
  const original = entry?.readers?.[reader];
  if (!entry || !original) return Promise.reject(new TypeError(`Response.${reader} is not available`));
  if (entry.abortedWith) return Promise.reject(entry.abortedWith.reason);
  if (entry.settled) return original.call(response);
  return new Promise((resolve, reject) => {
    entry.interrupt = reject;
    original.call(response).then(
      (value) => {
        entry.deadlines.finish(entry);
        resolve(value);
      },
      (error) => {
        entry.deadlines.finish(entry);
        reject(error);
      },
    );
  });
}

const guardedReaders = {} as Readers;
for (const reader of ["text", "json", "arrayBuffer", "blob"] as const) {
  guardedReaders[reader] = function (this: GuardedResponse) {
    return guardedRead(this, reader);
  };
}

/**
 * `attempt(request, init, then?)`: `then` turns the answer or the failure (network, deadline, caller's
 * abort) into the result inside the attempt's own promise, which saves the caller a promise layer.
 */
export function createAttempt(fetchImpl: FetchLike, timeoutMs: number): Attempt {
  const deadlines = new Deadlines(timeoutMs);
  return (request, init, then) => {
    const callerSignal = (request as MarkedRequest)[UNSIGNALLED] ? undefined : request.signal;
    if (callerSignal?.aborted) return Promise.reject(callerSignal.reason);
    const entry = deadlines.start(request, callerSignal);
    const signal = entry.controller.signal;
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        then ? resolve(then.failure(error)) : reject(error);
      };
      // Set before the fetch is called: a custom fetch may abort the caller's signal synchronously.
      entry.interrupt = fail;
      const answered = (response: GuardedResponse) => {
        if (entry.abortedWith) return; // abort() has failed the attempt already
        if (typeof response !== "object" || response === null || typeof response.status !== "number") {
          deadlines.finish(entry);
          return fail(
            new CdasError(
              "invalid_response",
              "The fetch in use resolved to something that is not a Response",
            ),
          );
        }
        // (Reading response.body here would make undici build a stream for nothing.)
        if (request.method === "HEAD" || NO_BODY_STATUSES.has(response.status)) {
          deadlines.finish(entry);
        } else {
          // Same-named methods that keep the body read under the deadline; the originals stay on the entry.
          entry.readers = response[IN_FLIGHT]?.readers ?? {
            text: response.text,
            json: response.json,
            arrayBuffer: response.arrayBuffer,
            blob: response.blob,
          };
          response[IN_FLIGHT] = entry;
          Object.assign(response, guardedReaders);
        }
        // From here on the deadline can only interrupt a body read.
        settled = true;
        entry.interrupt = noop;
        resolve(then ? then.answer(response) : response);
      };
      const failed = (error: unknown) => {
        deadlines.finish(entry);
        fail(error); // (a no-op after abort(), which failed it with its reason)
      };
      try {
        Promise.resolve(fetchImpl(request, init ? { ...init, signal } : { signal })).then(answered, failed);
      } catch (error) {
        failed(error);
      }
    });
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
