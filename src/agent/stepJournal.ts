/**
 * The steps a call's program completed (code mode), kept with the call (`PendingCall.stepJournal`). A program the
 * data-flow guard stops at a step (the page changed after the step's own yes) pauses for a card on `ot.run` and,
 * after a yes, runs again from the start. Without this, its earlier steps would act again: a second click, a second
 * submit. With it, a step that completed in the earlier run gives back its result from then and is not run.
 *
 * A step is known by its place in the run (0: the program's first call) and a digest of its tool and arguments. The
 * run that follows is the same program over the same values (earlier steps' results come from here), so it asks for
 * the same steps in the same order. If a step's tool or arguments differ (the program took another path), that step
 * runs, and nothing kept after it is used: what came after was computed on another path.
 *
 * Every completed step is kept, reads included — a later action's arguments were computed from them, and a fresh
 * read could change those arguments and make the action run again — except a read whose result is over
 * KEEP_READ_MAX_CHARS characters, or that would take the call's records past KEEP_TOTAL_MAX_CHARS: it runs again. An
 * action's result is always kept.
 *
 * The records ride on the run's next write (`stage`): the pause for the card is one, so a worker that restarts while
 * the card waits finds them. A worker that dies while the program runs leaves the call `running`, which is never run
 * again (toolPhase.ts), so a record that did not reach the store is never needed.
 */
import type { StepRecord } from '../storage/runRecords.ts';
import type { RunSession } from './session.ts';
import type { JournalStep, ProgramJournal } from './toolHost.ts';

/** A read whose result is longer than this (as JSON) is not kept: it runs again (a snapshot is ~40,000). */
export const KEEP_READ_MAX_CHARS = 100_000;
/**
 * Nor is a read that would take the call's records past this: every write of the run while the program goes on
 * (an inline question, the keep-alive's) carries them.
 */
export const KEEP_TOTAL_MAX_CHARS = 1_000_000;

/** What one run of the call made of the journal: the steps it took from it, and where it left it. */
export interface JournalUse {
  /** Steps given back instead of run, in order. */
  reused: { step: number; name: string; line: number }[];
  /** The first step whose tool or arguments differed from the earlier run's (it ran, and all after it). */
  diverged?: { step: number; name: string; line: number };
}

/** SHA-256 (hex) of a step's tool and arguments as JSON. */
export async function stepKey(name: string, args: Record<string, unknown>): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([name, args]));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function recordsOf(session: RunSession, callId: string): StepRecord[] {
  return session.state.pendingCalls.find((c) => c.callId === callId)?.stepJournal ?? [];
}

function keptChars(session: RunSession, callId: string): number {
  let n = 0;
  for (const r of recordsOf(session, callId)) n += r.value?.length ?? 0;
  return n;
}

/** Replaces the call's records (on the next write). Records are replaced, never changed in place: snapshots share them. */
function stageRecords(session: RunSession, callId: string, change: (records: StepRecord[]) => StepRecord[]): void {
  session.stage((s) => {
    const pc = s.pendingCalls.find((c) => c.callId === callId);
    if (pc) pc.stepJournal = change(pc.stepJournal ?? []);
  });
}

/** The journal of one run of a call: what the interpreter asks before each step, and what that run made of it. */
export function stepJournal(session: RunSession, callId: string): ProgramJournal & { use: JournalUse } {
  const use: JournalUse = { reused: [] };
  return {
    use,
    async step(index, name, args, line): Promise<JournalStep> {
      const key = await stepKey(name, args);
      const earlier = recordsOf(session, callId).find((r) => r.step === index);
      if (earlier && earlier.key === key) {
        let value: unknown;
        try {
          value = earlier.value === undefined ? undefined : JSON.parse(earlier.value);
        } catch {
          // Running it again could act twice: stop the program instead.
          throw new Error(`the result ${name} gave in the program's earlier run cannot be read; it was not run again`);
        }
        use.reused.push({ step: index, name, line });
        return { kept: true, value, labels: earlier.labels };
      }
      if (earlier) {
        use.diverged ??= { step: index, name, line };
        stageRecords(session, callId, (rs) => rs.filter((r) => r.step < index));
      }
      return {
        kept: false,
        record(result, labels, readOnly) {
          let value: string | undefined;
          try {
            value = JSON.stringify(result);
          } catch {
            return; // not JSON (a cycle): nothing to give back, so it runs again
          }
          const size = value?.length ?? 0;
          if (readOnly && (size > KEEP_READ_MAX_CHARS || size + keptChars(session, callId) > KEEP_TOTAL_MAX_CHARS))
            return;
          const record: StepRecord = {
            step: index,
            key,
            name,
            line,
            ...(value !== undefined ? { value } : {}),
            labels: [...labels],
          };
          stageRecords(session, callId, (rs) => [...rs.filter((r) => r.step < index), record]);
        },
      };
    },
  };
}

/** `1–3`, `1, 2 and 4`: step numbers as the model reads them (1-based). */
function stepNumbers(steps: readonly number[]): string {
  const n = steps.map((s) => s + 1);
  if (n.length > 1 && n.every((x, i) => i === 0 || x === n[i - 1]! + 1)) return `${n[0]}–${n.at(-1)}`;
  return n.length === 1 ? `${n[0]}` : `${n.slice(0, -1).join(', ')} and ${n.at(-1)}`;
}

/** At most this many steps are named one by one. */
const NAMED_STEPS = 6;

/**
 * What the model reads about it, before the program's output: which steps were not run again (they had completed
 * before the approval), and where the program took another path. Undefined when the journal played no part.
 */
export function journalNote(use: JournalUse): string | undefined {
  const lines: string[] = [];
  const r = use.reused;
  if (r.length) {
    const named = r
      .slice(0, NAMED_STEPS)
      .map((s) => `${s.name} on line ${s.line}`)
      .join(', ');
    const more = r.length > NAMED_STEPS ? `, … ${r.length - NAMED_STEPS} more` : '';
    const one = r.length === 1;
    lines.push(
      `[${one ? 'Step' : 'Steps'} ${stepNumbers(r.map((s) => s.step))} of this program (${named}${more}) ${one ? 'was' : 'were'} not run again: ` +
        `${one ? 'it' : 'they'} had completed in its earlier run, before the approval, and ${one ? 'its result' : 'their results'} from then ${one ? 'was' : 'were'} used.]`,
    );
  }
  const d = use.diverged;
  if (d)
    lines.push(
      `[Step ${d.step + 1} (${d.name} on line ${d.line}) differed from the earlier run, so it and the steps after it ran: nothing of that run was used for them.]`,
    );
  return lines.length ? lines.join('\n') : undefined;
}
