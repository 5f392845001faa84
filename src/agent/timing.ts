/**
 * Timers, abort helpers and the keep-alive, injectable so tests control time.
 */

import { raceAbort as raceSignal } from '../shared/raceAbort.ts';
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

type Handle = ReturnType<typeof globalThis.setTimeout>;

export const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as Handle),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as Handle),
};

/** Thrown inside the loop when the user stopped the run. */
export class AbortedError extends Error {
  constructor() {
    super('aborted by the user');
    this.name = 'AbortedError';
  }
}

/** Settles like `promise`, or rejects with AbortedError as soon as `signal` aborts (a tool ignoring its signal cannot hold the run). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return raceSignal(promise, signal, () => new AbortedError());
}

/**
 * Iterates `source`, stopping with AbortedError the moment `signal` aborts, even if the source ignores it. One abort
 * listener for the whole iteration (not one per item: a stream has many, and listeners are not free).
 */
export async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (signal.aborted) throw new AbortedError();
  const it = source[Symbol.asyncIterator]();
  let aborted = false;
  let rejectPending: ((err: unknown) => void) | undefined;
  const onAbort = () => {
    aborted = true;
    rejectPending?.(new AbortedError());
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (aborted) throw new AbortedError();
      const r = await new Promise<IteratorResult<T>>((resolve, reject) => {
        rejectPending = reject;
        it.next().then(resolve, reject);
      });
      rejectPending = undefined;
      if (r.done) return;
      yield r.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Tell the source we are done (it may be mid-request); never wait for it.
    void Promise.resolve()
      .then(() => it.return?.())
      .catch(() => undefined);
  }
}

/**
 * A signal that aborts when `parent` aborts or after `timeoutMs` (0 = never). `timedOut` tells which.
 */
export function childSignal(parent: AbortSignal, timeoutMs: number, timers: Timers) {
  const controller = new AbortController();
  let timedOut = false;
  const onParent = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onParent, { once: true });
  const arm = () =>
    timeoutMs > 0
      ? timers.setTimeout(() => {
          timedOut = true;
          controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
  let handle = arm();
  let paused = 0;
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    /** Stops the clock while the user is asked (an approval inside a program); `resume` restarts it in full. */
    pause() {
      if (paused++ === 0 && handle !== undefined) {
        timers.clearTimeout(handle);
        handle = undefined;
      }
    },
    resume() {
      if (paused > 0 && --paused === 0 && !controller.signal.aborted) handle = arm();
    },
    dispose() {
      parent.removeEventListener('abort', onParent);
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = undefined;
      paused = -Infinity; // a late resume must not re-arm
    },
  };
}

/**
 * Keeps the service worker alive while runs are active: calls a cheap extension API every `intervalMs` (Chrome
 * resets the 30 s idle timer on extension API calls) and stops when no run is active.
 */
export class KeepAlive {
  #handle: unknown;
  readonly #ping: () => unknown;
  readonly #intervalMs: number;
  readonly #timers: Timers;
  readonly #onTick: (() => void) | undefined;

  constructor(opts: { ping: () => unknown; intervalMs: number; timers: Timers; onTick?: () => void }) {
    this.#ping = opts.ping;
    this.#intervalMs = opts.intervalMs;
    this.#timers = opts.timers;
    this.#onTick = opts.onTick;
  }

  get running(): boolean {
    return this.#handle !== undefined;
  }

  /** Starts or stops according to the number of active runs. */
  update(activeRuns: number): void {
    if (activeRuns > 0 && this.#handle === undefined) {
      this.#handle = this.#timers.setInterval(() => this.#tick(), this.#intervalMs);
    } else if (activeRuns === 0 && this.#handle !== undefined) {
      this.#timers.clearInterval(this.#handle);
      this.#handle = undefined;
    }
  }

  #tick(): void {
    void Promise.resolve()
      .then(() => this.#ping())
      .catch(() => undefined);
    try {
      this.#onTick?.();
    } catch {
      // A heartbeat failure must not stop the keep-alive.
    }
  }
}

/** The default keep-alive ping: a cheap extension API call. */
export function defaultKeepAlivePing(): Promise<unknown> {
  const c = (globalThis as { chrome?: typeof chrome }).chrome;
  return c?.runtime?.getPlatformInfo ? c.runtime.getPlatformInfo() : Promise.resolve(undefined);
}
