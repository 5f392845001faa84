/**
 * Approvals asked in the middle of a running tool (issue #31): a code-mode program (`ot.run`) or a tool that calls
 * others (`web.fetch_many`) reaches a call that needs the user; the program waits, in memory, for the answer and then
 * continues or stops. Unlike a top-level call's approval, the paused program cannot be persisted: if the worker dies
 * while waiting, the enclosing call is reported as interrupted (its effect unknown), like any call cut short.
 */
import { AbortedError } from './timing.ts';

/** `task` (#42): allowed, and the task's scope widened with what the card named. */
export type InlineAnswer = { allowed: true; scope: 'once' | 'site' | 'task' } | { allowed: false };

interface Waiter {
  callId: string;
  resolve(answer: InlineAnswer): void;
}

export class InlineApprovals {
  readonly #waiting = new Map<string, Waiter>();

  /** Waits for the user's answer to `callId` (rejects with AbortedError when the run is stopped). */
  wait(conversationId: string, callId: string, signal: AbortSignal): Promise<InlineAnswer> {
    if (signal.aborted) return Promise.reject(new AbortedError());
    return new Promise<InlineAnswer>((resolve, reject) => {
      const onAbort = () => {
        if (this.#waiting.get(conversationId)?.callId === callId) this.#waiting.delete(conversationId);
        reject(new AbortedError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(conversationId, {
        callId,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
    });
  }

  /** Whether `callId` is the approval a running program of this conversation waits for. */
  isWaiting(conversationId: string, callId: string): boolean {
    return this.#waiting.get(conversationId)?.callId === callId;
  }

  /** Delivers the answer; false when nothing waits for it. */
  answer(conversationId: string, callId: string, answer: InlineAnswer): boolean {
    const w = this.#waiting.get(conversationId);
    if (!w || w.callId !== callId) return false;
    this.#waiting.delete(conversationId);
    w.resolve(answer);
    return true;
  }
}
