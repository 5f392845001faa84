/**
 * A server's concurrent calls are bounded below the browser's six connections per host (one is the server's
 * notification stream, one is kept for listing, pings and cancellations), and one tool may hold at most half of
 * them, so a tool that stalls cannot starve the server's other tools. Calls beyond the bounds wait in a queue
 * (visible in the settings) for at most their timeout.
 */

export const LIMITS = { perServer: 4, perTool: 2 } as const;

interface Waiter {
  tool: string;
  start: () => void;
}

export class CallLimiter {
  private running = 0;
  private readonly byTool = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(private readonly limits: { perServer: number; perTool: number } = LIMITS) {}

  get active(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  private fits(tool: string): boolean {
    return this.running < this.limits.perServer && (this.byTool.get(tool) ?? 0) < this.limits.perTool;
  }

  private take(tool: string): () => void {
    this.running++;
    this.byTool.set(tool, (this.byTool.get(tool) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const n = (this.byTool.get(tool) ?? 1) - 1;
      if (n) this.byTool.set(tool, n);
      else this.byTool.delete(tool);
      this.pump();
    };
  }

  private pump(): void {
    for (let i = 0; i < this.queue.length;) {
      const w = this.queue[i]!;
      if (this.fits(w.tool)) {
        this.queue.splice(i, 1);
        w.start();
      } else i++;
    }
  }

  /**
   * A slot for `tool`: resolves with its release function, or rejects with `onTimeout()`'s error after `waitMs`
   * (or the signal's reason).
   */
  acquire(tool: string, waitMs: number, signal: AbortSignal | undefined, onTimeout: () => Error): Promise<() => void> {
    if (this.fits(tool) && !this.queue.length) return Promise.resolve(this.take(tool));
    return new Promise((resolve, reject) => {
      const leave = (): boolean => {
        const i = this.queue.indexOf(w);
        if (i < 0) return false;
        this.queue.splice(i, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => {
        if (leave()) reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      };
      const w: Waiter = {
        tool,
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(tool));
        },
      };
      const timer = setTimeout(() => {
        if (leave()) reject(onTimeout());
      }, waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(w);
      this.pump();
    });
  }
}
