/**
 * The steps a call's program completed (code mode), kept with the call (`PendingCall.stepJournal`). A program the
 * data-flow guard stops at a step (the page changed after the step's own yes) pauses for a card on `ot.run` and,
 * after a yes, runs again from the start. Without this, its earlier steps would act again: a second click, a second
 * submit. With it, a step that completed in the earlier run gives back its result from then and is not run.
 *
 * A step is known by its place in the run and a digest of its tool and arguments. The place is a path of step
 * indexes, one per program level: `[3]` is the outermost program's fourth call, `[3, 1]` the second call of the
 * program that step ran (an `ot.run` inside the program). The run that follows is the same program over the same
 * values (earlier steps' results come from here), so it asks for the same steps in the same order. If a step's tool
 * or arguments differ (the program took another path), that step runs, and nothing kept after it is used: what came
 * after was computed on another path.
 *
 * A nested program is journaled like the outermost one. Its enclosing step, once it completed, is kept whole and the
 * inner records are dropped (the step gives back its result, its program does not run). Until then — the step that
 * stopped the program, or a step that failed — the inner steps it completed are kept, so the re-run runs the
 * enclosing step again and its program takes them from here. An inner step's digest includes its enclosing step's,
 * so it is reused only under the same call (the same program text and arguments).
 *
 * Every completed step is kept, reads included — a later action's arguments were computed from them, and a fresh
 * read could change those arguments and make the action run again — except a read whose result is over
 * KEEP_READ_MAX_CHARS characters, or that would take the call's records past KEEP_TOTAL_MAX_CHARS: it runs again. An
 * action's result is always kept.
 *
 * When they reach the store: a step that may act (not read-only) is written as running before it runs, and its record
 * when it completes, each in a write of its own (`commit`). A read's record rides on the run's next write (`stage`):
 * the next action's start, the pause for a card, the call's end. So a worker that dies while the program runs leaves
 * the call `running` with every action it completed recorded and the one it was in named; the call is not run again
 * (toolPhase.ts), and the model is told exactly that (`interruptedOutput`).
 */
import type { PendingCall, StepPlace, StepRecord } from '../storage/runRecords.ts';
import type { RunSession } from './session.ts';
import type { JournalStep, ProgramJournal } from '../shared/programJournal.ts';

/** A read whose result is longer than this (as JSON) is not kept: it runs again (a snapshot is ~40,000). */
export const KEEP_READ_MAX_CHARS = 100_000;
/**
 * Nor is a read that would take the call's records past this: every write of the run while the program goes on
 * (an inline question, the keep-alive's) carries them.
 */
export const KEEP_TOTAL_MAX_CHARS = 1_000_000;

/** A step as the model reads about it. */
export interface JournalPlace {
  path: number[];
  name: string;
  line: number;
}

/** What one run of the call made of the journal: the steps it took from it, and where it left it. */
export interface JournalUse {
  /** Steps given back instead of run, in order. */
  reused: JournalPlace[];
  /** The first step whose tool or arguments differed from the earlier run's (it ran, and all after it). */
  diverged?: JournalPlace;
}

/**
 * SHA-256 (hex) of a step's tool and arguments as JSON; for a step of a nested program, of its enclosing step's
 * digest too (`within`).
 */
export async function stepKey(name: string, args: Record<string, unknown>, within?: string): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(within === undefined ? [name, args] : [within, name, args]));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Run order of two places: `[2] < [3] < [3, 0] < [3, 1] < [4]`. A step comes before the steps of the program it runs.
 */
export function comparePaths(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
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

/** Writes a change to the call's records now, with whatever is staged (a step that may act starts or completes). */
async function commitCall(session: RunSession, callId: string, change: (pc: PendingCall) => void): Promise<void> {
  await session.commit((s) => {
    const pc = s.pendingCalls.find((c) => c.callId === callId);
    if (pc) change(pc);
  });
}

/** `inner` is `outer` or a step of the program it runs (at any depth). */
const isUnder = (outer: readonly number[], inner: readonly number[]) =>
  outer.length <= inner.length && outer.every((n, i) => inner[i] === n);

/** The call's running steps without the one at `path` and those under it (it completed or failed). Replaced, never changed in place. */
function notRunning(pc: PendingCall, path: readonly number[]): void {
  const left = (pc.stepsRunning ?? []).filter((p) => !isUnder(path, p.path));
  if (left.length) pc.stepsRunning = left;
  else delete pc.stepsRunning;
}

/** The records that come before `path` in run order: what is left when the step at `path` runs afresh. */
const before = (path: readonly number[]) => (r: StepRecord) => comparePaths(r.path, path) < 0;

/** The journal of one run of a call: what the interpreter asks before each step, and what that run made of it. */
export function stepJournal(session: RunSession, callId: string): ProgramJournal & { use: JournalUse } {
  const use: JournalUse = { reused: [] };
  return { use, ...programJournal(session, callId, use, [], undefined) };
}

/** The journal of the program at `prefix` (`[]`: the outermost; `[3]`: the one its step 3 runs). */
function programJournal(
  session: RunSession,
  callId: string,
  use: JournalUse,
  prefix: readonly number[],
  within: string | undefined,
): ProgramJournal {
  // Steps are numbered in the order the program asks for them: two programs run by one step continue the count.
  let next = 0;
  return {
    async step(name, args, line, readOnly): Promise<JournalStep> {
      const path = [...prefix, next++];
      const key = await stepKey(name, args, within);
      const earlier = recordsOf(session, callId).find((r) => comparePaths(r.path, path) === 0);
      if (earlier && earlier.key === key) {
        let value: unknown;
        try {
          value = earlier.value === undefined ? undefined : JSON.parse(earlier.value);
        } catch {
          // Running it again could act twice: stop the program instead.
          throw new Error(`the result ${name} gave in the program's earlier run cannot be read; it was not run again`);
        }
        use.reused.push({ path, name, line });
        return { kept: true, value, labels: earlier.labels };
      }
      if (earlier) {
        use.diverged ??= { path, name, line };
        stageRecords(session, callId, (rs) => rs.filter(before(path)));
      }
      if (!readOnly) {
        // Known to have started before it acts: a worker that dies during it leaves it named, with the steps before
        // it (this write carries their staged records). Only the steps enclosing it can still be running.
        const place: StepPlace = { path, name, line };
        await commitCall(session, callId, (pc) => {
          pc.stepsRunning = [...(pc.stepsRunning ?? []).filter((p) => isUnder(p.path, path)), place];
        });
      }
      // Completed or failed: no longer running (staged: a step left named as running is only said to be uncertain).
      const done = () => {
        const running = session.state.pendingCalls.find((c) => c.callId === callId)?.stepsRunning ?? [];
        if (running.some((p) => isUnder(path, p.path)))
          session.stage((s) => s.pendingCalls.filter((c) => c.callId === callId).forEach((pc) => notRunning(pc, path)));
      };
      return {
        kept: false,
        inner: programJournal(session, callId, use, path, key),
        failed: done,
        async record(result, labels, readOnly) {
          let value: string | undefined;
          try {
            value = JSON.stringify(result);
          } catch {
            return done(); // not JSON (a cycle): nothing to give back, so it runs again
          }
          const size = value?.length ?? 0;
          if (readOnly && (size > KEEP_READ_MAX_CHARS || size + keptChars(session, callId) > KEEP_TOTAL_MAX_CHARS))
            return done();
          const record: StepRecord = {
            path,
            key,
            name,
            line,
            ...(value !== undefined ? { value } : {}),
            labels: [...labels],
          };
          // Records of the program this step ran go too: the step is given back whole from now on.
          const keep = (pc: PendingCall) => {
            pc.stepJournal = [...(pc.stepJournal ?? []).filter(before(path)), record];
            notRunning(pc, path);
          };
          // An action's record is written at once: the worker may die before the run's next write.
          if (readOnly) session.stage((s) => s.pendingCalls.filter((c) => c.callId === callId).forEach(keep));
          else await commitCall(session, callId, keep);
        },
      };
    },
  };
}

/** `3.2`: a step's place as the model reads it (1-based, one number per program level). */
function placeText(path: readonly number[]): string {
  return path.map((n) => n + 1).join('.');
}

/**
 * `1–3`, `1, 2 and 4`, `1–2 and 3.1–3.2`: steps as the model reads them. The steps of one program are a range when
 * they follow each other, else named one by one.
 */
function stepNumbers(paths: readonly (readonly number[])[]): string {
  const groups: (readonly number[])[][] = [];
  for (const p of paths) {
    const last = groups.at(-1);
    if (last && comparePaths(last[0]!.slice(0, -1), p.slice(0, -1)) === 0) last.push(p);
    else groups.push([p]);
  }
  const parts = groups.flatMap((g) => {
    const consecutive = g.every((p, i) => i === 0 || p.at(-1) === g[i - 1]!.at(-1)! + 1);
    return g.length > 1 && consecutive ? [`${placeText(g[0]!)}–${placeText(g.at(-1)!)}`] : g.map(placeText);
  });
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** `dom.click on line 2`, or for a nested program's step `dom.click on line 2 of step 3's program`. */
function where(s: JournalPlace): string {
  const of = s.path.length > 1 ? ` of step ${placeText(s.path.slice(0, -1))}'s program` : '';
  return `${s.name} on line ${s.line}${of}`;
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
    const named = r.slice(0, NAMED_STEPS).map(where).join(', ');
    const more = r.length > NAMED_STEPS ? `, … ${r.length - NAMED_STEPS} more` : '';
    const one = r.length === 1;
    lines.push(
      `[${one ? 'Step' : 'Steps'} ${stepNumbers(r.map((s) => s.path))} of this program (${named}${more}) ${one ? 'was' : 'were'} not run again: ` +
        `${one ? 'it' : 'they'} had completed in its earlier run, before the approval, and ${one ? 'its result' : 'their results'} from then ${one ? 'was' : 'were'} used.]`,
    );
  }
  const d = use.diverged;
  if (d)
    lines.push(
      `[Step ${placeText(d.path)} (${where(d)}) differed from the earlier run, so it and the steps after it ran: nothing of that run was used for them.]`,
    );
  return lines.length ? lines.join('\n') : undefined;
}

/**
 * What the model reads about a program its call was running when the worker stopped (toolPhase.ts), from what the
 * call's journal had written: the step that may act and was running (its effect unknown), the steps that completed
 * before it, and that nothing after it ran. Undefined when nothing was written (not a program, or it stopped before
 * its first action: then the plain "interrupted" error says as much as is known).
 */
export function interruptedOutput(
  name: string,
  call: Pick<PendingCall, 'stepJournal' | 'stepsRunning'>,
): string | undefined {
  const done = [...(call.stepJournal ?? [])].sort((a, b) => comparePaths(a.path, b.path));
  const running = call.stepsRunning?.at(-1);
  const last = done.at(-1);
  if (!running && !last) return undefined;
  const stopped = `Error: ${name} was interrupted while running (the extension's worker stopped)`;
  const lines = running
    ? [
        `${stopped} during step ${placeText(running.path)} of its program (${where(running)}): whether that step took effect is unknown, and the steps after it did not run.`,
      ]
    : [
        `${stopped} after step ${placeText(last!.path)} of its program: no step that acts had started since, so nothing after it took effect.`,
      ];
  if (done.length) {
    const named = done.slice(0, NAMED_STEPS).map(where).join(', ');
    const more = done.length > NAMED_STEPS ? `, … ${done.length - NAMED_STEPS} more` : '';
    const one = done.length === 1;
    lines.push(`${one ? 'Step' : 'Steps'} ${stepNumbers(done.map((r) => r.path))} (${named}${more}) had completed.`);
  } else lines.push('No step before it had completed.');
  lines.push(
    'Running the program again would run all of its steps again: check what took effect, then run only what is left.',
  );
  return lines.join('\n');
}
