/**
 * The data-flow guard of one tool call (CaMeL-style capabilities at the tool boundary). The interceptor consults it
 * for every call whose context carries one (`ctx.flow`):
 *
 *   check   before the tool runs: where can this call send data (sinks.ts), and may the data it could carry go
 *           there (rule.ts)? If not, it throws FlowBlockedError naming the flow; nothing has run.
 *   record  after it ran (or failed): the labels of its output (sources), collected for the caller — the agent adds
 *           them to the run's origin set, the interpreter attaches them to the call's value.
 *
 * The labels of the data a call could carry are `argLabels` when the caller knows them exactly (code mode: the
 * labels of the values the program passes), else the run's origin set (the model's whole context).
 */
import { readsOnly, type AnyTool, type CallFlow, type ToolContext } from '../Tool.ts';
import { flowOf } from './flow.ts';
import { labelsOf, NO_LABELS, union, type Labels } from './labels.ts';
import { showLabel, showLabels } from '../../shared/labelText.ts';
import type { OriginResolver } from './resolver.ts';
import { judge, type Blocked, type FlowFacts, type FlowPair, type Verdict } from './rule.ts';
import { ANYWHERE, sinksOf, sourcesOf } from './sinks.ts';

/** What the guard needs from the run (the agent supplies it; plain data and functions). */
export interface FlowPolicy extends Omit<FlowFacts, 'labels'> {
  /** The run's origin set: the labels of everything that entered the model's context. */
  readonly origins: Labels;
}

/** `Data read from bank.example may be sent to evil.example` */
export function flowSentence(from: Labels, to: string): string {
  return `Data read from ${showLabels(from)} may be sent to ${to === ANYWHERE ? 'an unknown destination' : showLabel(to)}`;
}

export class FlowBlockedError extends Error {
  override readonly name = 'FlowBlockedError';
  constructor(
    readonly tool: string,
    readonly flow: Blocked,
  ) {
    super(
      `${tool} was stopped before it ran: ${flowSentence(flow.from, flow.to)} (${flow.data}). The user's approval is needed.`,
    );
  }
}

export class FlowGuard implements CallFlow {
  #collected: Labels = NO_LABELS;
  /** Pairs the user approved for one call, keyed by that call's (validated) arguments object. */
  readonly #once = new WeakMap<object, readonly FlowPair[]>();
  /**
   * The approved pairs of calls now running (between their check and their record): the calls such a call makes
   * itself (web.fetch_many's fetches, a program step's own) are part of what the user approved, not new questions.
   */
  readonly #running = new Map<object, readonly FlowPair[]>();

  constructor(
    readonly policy: FlowPolicy,
    readonly resolver: OriginResolver,
    /** Exact labels of the arguments (code mode); undefined: the run's origin set. */
    readonly argLabels?: Labels,
  ) {}

  /** The labels of the data this call could carry. */
  get labels(): Labels {
    return this.argLabels ?? this.policy.origins;
  }

  /** The labels of what the call (and the calls it made) read. */
  get collected(): Labels {
    return this.#collected;
  }

  /** A guard for one call of a program, with the exact labels of its arguments. */
  child(argLabels: Labels): FlowGuard {
    return new FlowGuard(this.policy, this.resolver, argLabels);
  }

  /** Adds labels to what this call read (a tool that knows its output's labels, like ot.run, reports them). */
  report(labels: Labels): void {
    this.#collected = union(this.#collected, labels);
  }

  /**
   * The user approved `pairs` for the call with exactly this arguments object (a program's step, asked inline with
   * the step's own action question, or by itself: one card). The check that follows for that call lets them
   * through, and so do the calls it makes while it runs; any other call, or another destination, is judged as before.
   */
  allowOnce(args: object, pairs: readonly FlowPair[]): void {
    this.#once.set(args, [...(this.#once.get(args) ?? []), ...pairs]);
  }

  /** Whether the call may run as it is (`extra`: pairs to count as approved for this verdict only). */
  async verdict(
    tool: AnyTool,
    args: Record<string, unknown>,
    tabId: number | undefined,
    extra: readonly FlowPair[] = [],
  ): Promise<Verdict> {
    const flow = flowOf(tool);
    if (flow.sink === 'none') return { ok: true };
    // What the call sends from outside the model's context (a stored file's origins) counts as well.
    const labels = tool.carries ? union(this.labels, labelsOf(await tool.carries(args))) : this.labels;
    if (!labels.length) return { ok: true };
    let sinks;
    try {
      sinks = await sinksOf(flow, tool.pack, args, tabId, this.resolver);
    } catch {
      // Where it would go cannot be told (a frame that vanished): treat it as anywhere.
      sinks = [{ to: ANYWHERE, data: JSON.stringify(args).slice(0, 300), kind: 'action' as const }];
    }
    const once = [...(this.#once.get(args) ?? []), ...[...this.#running.values()].flat(), ...extra];
    const grants = once.length ? [...(this.policy.grants ?? []), ...once] : this.policy.grants;
    return judge(sinks, { ...this.policy, labels, ...(grants ? { grants } : {}) });
  }

  /**
   * Every flow this call would need the user's approval for (one verdict names only the first refused sink; a click
   * on a link can send to the page and to the link's site), at most `max`. Empty: it may run.
   */
  async refusals(tool: AnyTool, args: Record<string, unknown>, tabId: number | undefined, max = 8): Promise<Blocked[]> {
    const out: Blocked[] = [];
    const seen: FlowPair[] = [];
    while (out.length < max) {
      const v = await this.verdict(tool, args, tabId, seen);
      if (v.ok) break;
      out.push(v);
      seen.push({ from: v.from, to: v.to });
    }
    return out;
  }

  /** Throws FlowBlockedError when the call may not run without the user's approval; returns the labels read so far. */
  async check(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext): Promise<Labels> {
    const v = await this.verdict(tool, args, ctx.tabId);
    if (!v.ok) throw new FlowBlockedError(`${tool.pack}.${tool.name}`, v);
    const approved = this.#once.get(args);
    if (approved) this.#running.set(args, approved);
    // An action can navigate or close what it reads: take the page's origins before it runs as well.
    const flow = flowOf(tool);
    if (!readsOnly(tool) && (flow.source === 'page' || flow.source === 'tabs')) return this.sources(tool, args, ctx);
    return NO_LABELS;
  }

  /** After the call (success or failure): collects the labels of its output. */
  async record(
    tool: AnyTool,
    args: Record<string, unknown>,
    ctx: ToolContext,
    before: Labels = NO_LABELS,
  ): Promise<void> {
    this.#running.delete(args);
    this.report(union(before, await this.sources(tool, args, ctx)));
  }

  private async sources(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext): Promise<Labels> {
    const name = `${tool.pack}.${tool.name}`;
    try {
      return await sourcesOf(flowOf(tool), name, tool.pack, args, ctx.tabId, this.resolver, this.labels);
    } catch {
      return [`tool:${name}`]; // unknown provenance: a label no destination matches
    }
  }
}

/** The FlowBlockedError in an error's cause chain (the interpreter wraps tool errors). */
export function blockedFlowOf(error: unknown): FlowBlockedError | undefined {
  for (let e = error, i = 0; e && i < 8; e = (e as { cause?: unknown }).cause, i++)
    if (e instanceof FlowBlockedError) return e;
  return undefined;
}
