/**
 * Long walks in slices that give the page its main thread back. A walk is a generator that calls `slicer.due()`
 * every few nodes and yields when its slice is spent; `runSliced` resumes it after the page has had a turn
 * (a MessageChannel task), so page scripts, input and animation frames
 * keep running. (`scheduler.yield()` is not used: its continuations outrank rendering, and a probe in the page saw no
 * animation frame for the whole walk.) A walk superseded by a newer one in the same lane is abandoned, and one that reaches its deadline is
 * told so (it stops doing per-element work and returns what it has).
 */

/** Well under the 50 ms Chrome reports as a long task. */
export const SLICE_MS = 12;

export class Superseded extends Error {
  constructor(what: string) {
    super(`This ${what} was superseded by a newer one and abandoned.`);
    this.name = 'Superseded';
  }
}

export class Slicer {
  /** When the current slice ends (Infinity: run to the end without yielding). */
  end = Infinity;
  /** Set once the deadline has passed: the walk should stop its per-element work and finish. */
  overtime = false;
  private ticks = 0;

  constructor(readonly deadline = Infinity) {}

  /** True every so often when the slice is spent (a cheap counter first: `performance.now()` is not free). */
  due(): boolean {
    if ((++this.ticks & 15) !== 0 || this.end === Infinity) return false;
    const now = performance.now();
    if (now >= this.deadline) this.overtime = true;
    return now >= this.end;
  }
}

/** One turn of the event loop for the page: its tasks, input and (when due) a frame run before we continue. */
export function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(0);
  });
}

/** Runs a walk to the end in one go (unit tests, the bench's synchronous path). */
export function runSync<T>(walk: Generator<void, T, void>): T {
  for (;;) {
    const r = walk.next();
    if (r.done) return r.value;
  }
}

const lanes = new Map<string, number>();

/**
 * Runs a walk in slices of `sliceMs`. A later call in the same `lane` abandons this one (it throws Superseded at its
 * next slice boundary). Past `slicer.deadline` the walk sees `overtime` and is expected to wind down.
 */
export async function runSliced<T>(
  walk: Generator<void, T, void>,
  slicer: Slicer,
  opts: { lane?: string; what?: string; sliceMs?: number } = {},
): Promise<T> {
  const sliceMs = opts.sliceMs ?? SLICE_MS;
  const lane = opts.lane;
  const ticket = lane ? (lanes.get(lane) ?? 0) + 1 : 0;
  if (lane) lanes.set(lane, ticket);
  try {
    for (;;) {
      slicer.end = performance.now() + sliceMs;
      const r = walk.next();
      if (r.done) return r.value;
      await yieldToPage();
      if (lane && lanes.get(lane) !== ticket) {
        walk.return(undefined as T);
        throw new Superseded(opts.what ?? lane);
      }
    }
  } finally {
    slicer.end = Infinity;
  }
}

/**
 * Resolves once the page has rendered a frame (the task after its next animation frame), or after `fallbackMs`
 * where no frame comes (a background tab). An action that wrote to the page waits for this before reading geometry
 * again, so the layout its write made due is done by the browser's own rendering step, not forced inside Otto's
 * task (#24: `fill_form` on a 10,000-row table forced the whole table's layout once per field, 1 s of CPU in one task).
 */
export function afterNextFrame(fallbackMs = 100): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, fallbackMs);
    requestAnimationFrame(() => {
      clearTimeout(t);
      setTimeout(resolve, 0);
    });
  });
}
