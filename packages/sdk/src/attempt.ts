/**
 * One HTTP attempt under a deadline that covers the wait for the answer and the reading of its
 * body. Built for the hot path: one shared coarse timer per SDK instead of a timer per request, and
 * AbortControllers reused while they are not aborted.
 */
import { CdasError } from "./errors.js";

/** The fetch the SDK calls: the standard signature (a custom fetch receives a Request and an init with `signal`). */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

export type Attempt = (request: Request, init: RequestInit | undefined) => Promise<Response>;

interface InFlight {
  deadline: number;
  controller: AbortController;
  request: Request;
  /** Rejects whatever the caller is waiting for: the answer, then the body. */
  interrupt: (reason: unknown) => void;
  /** Called when the caller's signal aborts (the entry is its own listener). */
  handleEvent: () => void;
  settled: boolean;
  /** Set when the deadline or the caller ended the attempt (even if an answer arrived in the same tick). */
  abortedWith?: { reason: unknown };
  readers?: Partial<Record<BodyReader, () => Promise<unknown>>>;
}

const IN_FLIGHT = Symbol("cdas.inFlight");
type GuardedResponse = Response & { [IN_FLIGHT]?: InFlight };
type BodyReader = "text" | "json" | "arrayBuffer" | "blob";
/** A controller is reused for this many attempts at most (bounds the abort listeners a fetch leaves on it). */
const CONTROLLER_REUSE = 64;
const noop = () => {};
const NO_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

export function createAttempt(fetchImpl: FetchLike, timeoutMs: number): Attempt {
  const inFlight = new Set<InFlight>();
  const tickMs = Math.min(1_000, Math.max(2, timeoutMs / 4));
  let ticker: ReturnType<typeof setInterval> | undefined;
  let spare: AbortController | undefined;
  let spareUses = 0;

  const finish = (entry: InFlight) => {
    if (entry.settled) return;
    entry.settled = true;
    inFlight.delete(entry);
    entry.request.signal.removeEventListener("abort", entry);
    if (!entry.controller.signal.aborted && spareUses < CONTROLLER_REUSE) {
      spare = entry.controller;
      spareUses++;
    }
  };

  const abort = (entry: InFlight, reason: unknown) => {
    if (entry.settled) return;
    entry.abortedWith = { reason };
    finish(entry);
    entry.interrupt(reason);
    entry.controller.abort(reason);
  };

  const tick = () => {
    if (inFlight.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
      return;
    }
    const now = performance.now();
    for (const entry of inFlight) {
      if (now >= entry.deadline) {
        const { method, url } = entry.request;
        abort(
          entry,
          new CdasError("timeout", `${method} ${new URL(url).pathname} timed out after ${timeoutMs} ms`),
        );
      }
    }
  };

  /** Keeps body reads under the attempt's deadline; the attempt ends when the body has been read. */
  function guardedRead(this: GuardedResponse, reader: BodyReader): Promise<unknown> {
    const entry = this[IN_FLIGHT];
    const original = entry?.readers?.[reader] as (() => Promise<unknown>) | undefined;
    if (!entry || !original) return Promise.reject(new TypeError(`Response.${reader} is not available`));
    if (entry.settled) return original.call(this);
    return new Promise((resolve, reject) => {
      entry.interrupt = reject;
      original.call(this).then(
        (value) => {
          finish(entry);
          resolve(value);
        },
        (error) => {
          finish(entry);
          reject(error);
        },
      );
    });
  }
  const readers: Record<BodyReader, () => Promise<unknown>> = {
    text(this: GuardedResponse) {
      return guardedRead.call(this, "text");
    },
    json(this: GuardedResponse) {
      return guardedRead.call(this, "json");
    },
    arrayBuffer(this: GuardedResponse) {
      return guardedRead.call(this, "arrayBuffer");
    },
    blob(this: GuardedResponse) {
      return guardedRead.call(this, "blob");
    },
  };

  return (request, init) => {
    const callerSignal = request.signal;
    if (callerSignal.aborted) return Promise.reject(callerSignal.reason);
    let controller = spare;
    spare = undefined;
    if (controller === undefined) {
      controller = new AbortController();
      spareUses = 0;
    }
    const entry: InFlight = {
      deadline: performance.now() + timeoutMs,
      controller,
      request,
      interrupt: noop,
      handleEvent: () => abort(entry, callerSignal.reason),
      settled: false,
    };
    inFlight.add(entry);
    if (ticker === undefined) {
      ticker = setInterval(tick, tickMs);
      (ticker as { unref?: () => void }).unref?.();
    }
    callerSignal.addEventListener("abort", entry);
    const interrupted = new Promise<never>((_, reject) => {
      entry.interrupt = reject;
    });
    let pending: Promise<Response>;
    try {
      pending = fetchImpl(
        request,
        init ? { ...init, signal: controller.signal } : { signal: controller.signal },
      );
    } catch (error) {
      finish(entry);
      return Promise.reject(error);
    }
    return Promise.race([pending, interrupted]).then(
      (response: GuardedResponse) => {
        if (entry.abortedWith) throw entry.abortedWith.reason;
        if (typeof response !== "object" || response === null || typeof response.status !== "number") {
          finish(entry);
          throw new CdasError(
            "invalid_response",
            "The fetch in use resolved to something that is not a Response",
          );
        }
        // (Reading response.body here would make undici build a stream for nothing.)
        if (request.method === "HEAD" || NO_BODY_STATUSES.has(response.status)) {
          finish(entry);
        } else {
          // Same-named methods that keep the body read under the deadline; the originals stay on the entry.
          entry.readers = response[IN_FLIGHT]?.readers ?? {
            text: response.text,
            json: response.json,
            arrayBuffer: response.arrayBuffer,
            blob: response.blob,
          };
          response[IN_FLIGHT] = entry;
          Object.assign(response, readers);
        }
        return response;
      },
      (error) => {
        finish(entry);
        throw error;
      },
    );
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
