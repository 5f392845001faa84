/**
 * Running command-language input against the real tools: `/help ...`, `$snippet k=v`, alias calls and programs, with
 * every call through `ctx.callTool` — i.e. through the interceptor, like the model's own calls. Shared by the panel's
 * command mode (src/background/commandHandlers.ts) and code mode's `ot.run`.
 *
 * - The whole program is checked before anything runs (unknown tools, variables), with config `aliases`/`snippets`.
 * - Results handed from call to call lose the interceptor's `_execution_metadata` (it is for the model's direct calls;
 *   passed on it would only leak into the next tool's input); the final value loses it too.
 * - The value of the last statement is the result, formatted by the one formatter (YAML flow / JSON per config).
 * - The characters every call produced are counted, so code mode can say how much stayed out of the model's context.
 * - Under an agent call (`ctx.journal`), each step asks the call's journal first: a step the program completed in an
 *   earlier run of the same call (it ran again after an approval) gives back its result from then instead of acting
 *   twice (agent/stepJournal.ts). A program run by a step (an `ot.run` inside the program) asks the journal that step
 *   was given, so its steps are known by their place under it.
 */
import {
  commandSource,
  enterProgram,
  joinLabels,
  Labelled,
  planOf,
  plannerError,
  plannerView,
  runCommandInput,
  type ProgramScope,
  type CommandSource,
  type SnippetMap,
  type ValueLabels,
} from '../../../command/index.ts';
import { formatOutput } from '../../../shared/outputFormat.ts';
import { type ToolContext, readsOnly } from '../../Tool.ts';
import type { JournalStep, ProgramJournal } from '../../../shared/programJournal.ts';
import type { ToolRegistry } from '../../ToolRegistry.ts';

export interface ProgramOutcome {
  /** The last statement's value (metadata stripped). */
  value: unknown;
  /** That value formatted for the reader (strings as they are). */
  output: string;
  /** Tool calls made. */
  calls: number;
  /** Characters of every call's result, as text. */
  callChars: number;
  command: CommandSource;
  durationMs: number;
}

/** A result without the interceptor's `_execution_metadata` (a shallow copy when it had one). */
export function stripMetadata(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('_execution_metadata' in value))
    return value;
  const { _execution_metadata: _m, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** How many characters a value costs as text (what the model would have read). */
export function textLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === undefined) return 0;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return String(value).length;
  }
}

export interface RunTextOptions {
  registry: ToolRegistry;
  /** Default: `ctx.callTool`. */
  call?: (name: string, args: Record<string, unknown>) => Promise<unknown>;
  /** Default: `ctx.signal`. */
  signal?: AbortSignal;
  /** Prefix for error messages (e.g. `ot.run`). */
  label?: string;
  /**
   * Plan first (#42 part 2): the outermost program's value and errors reach the model only as the planner may see
   * them (command/plannerView.ts). Programs inside it return their values to it as they are.
   */
  planFirst?: boolean;
}

/** Runs command input; throws CommandError (with line and column) for any failure. */
/**
 * Where a context without `withProgram` (tests, hand-built contexts) keeps its scope: keyed by the run's signal,
 * which every nested call shares.
 */
const scopesBySignal = new WeakMap<AbortSignal, ProgramScope>();

/**
 * The journal for programs started by the step a program is running now, by the program's scope. A program's steps
 * run one at a time, so a program started inside it belongs to that step. Kept here rather than in the context: the
 * scope reaches a nested program whichever way its context was made (the worker's, or a test's by its signal).
 */
const stepJournals = new WeakMap<ProgramScope, ProgramJournal>();

/** What started this program, for the nesting message: `$loop`, `ot.run`, `command`. */
function programName(text: string, ctx: ToolContext, label: string | undefined): string {
  try {
    const source = commandSource(text, ctx.config.snippets as SnippetMap);
    if (source.kind === 'snippet') return label ? `${label}: $${source.snippet ?? ''}` : `$${source.snippet ?? ''}`;
  } catch {
    // A bad invocation fails when it runs, with its own message.
  }
  return label ?? 'command';
}

export async function runCommandText(
  text: string,
  outerCtx: ToolContext,
  opts: RunTextOptions,
): Promise<ProgramOutcome> {
  const started = performance.now();
  // One level deeper than the program that started this one (if any); throws past the nesting limit.
  const outer = outerCtx.program ?? scopesBySignal.get(outerCtx.signal);
  const scope = enterProgram(outer, programName(text, outerCtx, opts.label));
  const ctx = outerCtx.withProgram ? outerCtx.withProgram(scope) : outerCtx;
  if (!outerCtx.withProgram) scopesBySignal.set(outerCtx.signal, scope);
  // The outermost program asks the call's journal; a program inside it, the journal of the step that started it.
  const journal = outer ? stepJournals.get(outer) : outerCtx.journal;
  try {
    const planFirst = !outer && opts.planFirst === true;
    return await runScoped(text, ctx, { ...opts, planFirst }, scope, started, journal);
  } finally {
    if (!outerCtx.withProgram) {
      if (outer) scopesBySignal.set(outerCtx.signal, outer);
      else scopesBySignal.delete(outerCtx.signal);
    }
  }
}

/** Tells the journal a step failed (it is not running any more), and passes the error on. */
const failed =
  (step: Extract<JournalStep, { kept: false }> | undefined) =>
  (error: unknown): never => {
    step?.failed();
    throw error;
  };

async function runScoped(
  text: string,
  ctx: ToolContext,
  opts: RunTextOptions,
  scope: ProgramScope,
  started: number,
  journal: ProgramJournal | undefined,
): Promise<ProgramOutcome> {
  const call = opts.call ?? ((name: string, args: Record<string, unknown>) => ctx.callTool(name, args));
  let callChars = 0;
  // Under the data-flow guard (code mode), each call gets a guard of its own that knows the exact labels of its
  // arguments; what the call read comes back as its value's labels. Literals carry the labels of the model's
  // context when it wrote the program (the run's origin set): it may have copied anything it had read.
  const flow = opts.call ? undefined : ctx.flow;
  let read: ValueLabels = [];
  // The journal keeps an action's result whatever its size; a read's only up to a limit.
  const readOnly = (name: string) => {
    const tool = opts.registry.resolve(name);
    return !!tool && readsOnly(tool);
  };
  const running = runCommandInput(text, {
    call: async (name, args, pos, labels) => {
      // A step the program completed in an earlier run of this call gives back its result and is not run again.
      const acts = !readOnly(name);
      // A step that may act is written as running before it runs (a worker that dies during it leaves it named).
      const step = journal ? await journal.step(name, args, pos.line, !acts) : undefined;
      if (step?.kept) {
        callChars += textLength(step.value);
        if (!flow) return step.value;
        read = joinLabels(read, step.labels);
        return new Labelled(step.value, step.labels);
      }
      if (step) stepJournals.set(scope, step.inner);
      else stepJournals.delete(scope);
      if (!flow || !ctx.withFlow) {
        const value = stripMetadata(await call(name, args).catch(failed(step)));
        callChars += textLength(value);
        await step?.record(value, [], !acts);
        return value;
      }
      const guard = flow.child(labels);
      try {
        const value = stripMetadata(await ctx.withFlow(guard).callTool(name, args).catch(failed(step)));
        callChars += textLength(value);
        await step?.record(value, guard.collected, !acts);
        return new Labelled(value, guard.collected);
      } finally {
        read = joinLabels(read, guard.collected);
      }
    },
    ...(flow ? { literalLabels: flow.policy.origins } : {}),
    isKnownCallable: (name) => opts.registry.has(name),
    aliases: ctx.config.aliases,
    snippets: ctx.config.snippets as SnippetMap,
    signal: opts.signal ?? ctx.signal,
    budget: scope.budget,
    ...(opts.label ? { label: opts.label } : {}),
  });
  let result: Awaited<typeof running>;
  try {
    result = await running;
  } catch (error) {
    // An error message can quote anything the failed program read.
    flow?.report(read);
    throw opts.planFirst ? plannerError(error) : error;
  }
  // Only the last statement's value reaches the model: its labels are the output's.
  flow?.report(result.labels);
  const value = stripMetadata(result.value);
  return {
    value,
    output: opts.planFirst
      ? plannerView(value, { strings: planOf(text).strings })
      : formatOutput(value, ctx.config.output.format),
    calls: result.calls,
    callChars,
    command: result.command,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
}
