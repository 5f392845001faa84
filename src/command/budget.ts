/**
 * Limits on one run (issue 34). The language has no loops, but a snippet or an `ot.run` program can start itself
 * (`$loop` whose body is `ot.run(code="$loop")`), so a run is bounded two ways:
 * - nesting: programs inside programs (snippet → ot.run → snippet …) at most `MAX_NESTING` deep;
 * - steps: at most `MAX_CALLS` tool calls in one run, nested programs included (a body that starts itself twice
 *   doubles at every level).
 * And a run never holds the worker: every `YIELD_EVERY_MS` of work it yields to the event loop, so the panel's
 * Cancel (and every other request) is handled while it runs.
 */
import { CommandError } from './commandErrors.ts';

export const MAX_NESTING = 8;
export const MAX_CALLS = 10_000;
export const YIELD_EVERY_MS = 8;

/** Shared by a run and every program nested in it. */
export interface RunBudget {
  calls: number;
  readonly maxCalls: number;
  lastYield: number;
}

/** One level of nesting: how deep, the budget shared with the whole run, and what started each level. */
export interface ProgramScope {
  readonly depth: number;
  readonly budget: RunBudget;
  /** `$loop`, `ot.run`, … from the outermost program in. */
  readonly chain: readonly string[];
}

export function newBudget(maxCalls = MAX_CALLS): RunBudget {
  return { calls: 0, maxCalls, lastYield: now() };
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

/** The scope of a program started inside `outer` (or the first one); throws when that is one level too many. */
export function enterProgram(outer: ProgramScope | undefined, what: string, maxNesting = MAX_NESTING): ProgramScope {
  const chain = [...(outer?.chain ?? []), what];
  if (chain.length > maxNesting) {
    const shown = chain.slice(0, 4).join(' → ');
    throw new CommandError(
      `stopped: programs nested more than ${maxNesting} deep (${shown} → …). A snippet or ot.run program that starts itself never ends: remove the call that starts it again.`,
      { kind: 'limit' },
    );
  }
  return { depth: chain.length, budget: outer?.budget ?? newBudget(), chain };
}

/** Counts one tool call; throws when the run has made `maxCalls` already. */
export function spendCall(budget: RunBudget): void {
  budget.calls++;
  if (budget.calls > budget.maxCalls) {
    throw new CommandError(
      `stopped after ${budget.maxCalls.toLocaleString('en-US')} tool calls in one run (nested snippets and ot.run programs included). Does a snippet or program start itself? Remove that call, or split the work into smaller runs.`,
      { kind: 'limit' },
    );
  }
}

/** A macrotask turn: lets the worker handle messages (Cancel) between steps of a long run. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Yields when the run has held the event loop for `YIELD_EVERY_MS` or more since it last did. */
export async function maybeYield(budget: RunBudget): Promise<void> {
  if (now() - budget.lastYield < YIELD_EVERY_MS) return;
  await yieldToEventLoop();
  budget.lastYield = now();
}
