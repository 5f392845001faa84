/**
 * Test harness for the agent loop: a fake tool host (tools that succeed, fail, throw, hang until aborted, and
 * destructive ones), manual timers, a fresh IndexedDB per test, and transcript checks.
 */
import { expect } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import type { IDBPDatabase } from 'idb';
import { openOttoDB, type OttoDB } from '../../src/storage/db.ts';
import type { RunState } from '../../src/storage/runRecords.ts';
import { ConversationStore } from '../../src/storage/conversations.ts';
import { SitePermissions } from '../../src/storage/sitePermissions.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { AgentRunner, type AgentConfigView, type AgentRunnerOptions } from '../../src/agent/runner.ts';
import type { AgentEvent } from '../../src/agent/agentEvents.ts';
import type { AgentToolHost, ToolRunContext } from '../../src/agent/toolHost.ts';
import type { Timers } from '../../src/agent/timing.ts';
import { ScriptedModel, deferred, type Turn } from '../support/scriptedModel.ts';

// ---- fake tools ---------------------------------------------------------------------------------------------------

export type ToolImpl = (args: Record<string, unknown>, ctx: ToolRunContext) => Promise<unknown> | unknown;

interface FakeTool {
  readOnly: boolean;
  schema: z.ZodType;
  destructive: (args: Record<string, unknown>) => boolean;
  impl: ToolImpl;
}

export const encode = (q: string) => q.replace(/\./g, '__');
const decode = (api: string) => api.replace(/__/g, '.');

/** Rejects when the signal aborts (a tool that honours its signal). */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

export class FakeHost implements AgentToolHost {
  readonly tools = new Map<string, FakeTool>();
  /** Every execution, in start order. */
  readonly runs: { name: string; args: unknown; callId: string; signal: AbortSignal }[] = [];
  readonly log: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Set when a non-read-only tool ran at the same time as any other tool. */
  overlapWithWriter = false;
  #writers = 0;
  destructiveChecks: string[] = [];
  /** Replace to make isDestructive itself hang or fail (crash injection). */
  isDestructiveHook: ((name: string) => Promise<void> | void) | undefined;

  constructor() {
    const obj = z.object({}).passthrough();
    this.define('web.echo', {
      readOnly: true,
      schema: z.object({ text: z.string() }),
      impl: (a) => ({ echo: a.text }),
    });
    this.define('page.read', { readOnly: true, schema: obj, impl: () => 'page text' });
    this.define('ot.fail', {
      readOnly: true,
      schema: obj,
      impl: () => {
        throw new Error('boom');
      },
    });
    this.define('ot.count', {
      readOnly: true,
      schema: z.object({ n: z.number() }),
      impl: (a) => `counted ${String(a.n)}`,
    });
    this.define('dom.hang', { readOnly: true, schema: obj, impl: (_a, ctx) => untilAborted(ctx.signal) });
    this.define('dom.click', {
      readOnly: false,
      schema: z.object({ ref: z.string() }),
      destructive: () => true,
      impl: (a) => `clicked ${String(a.ref)}`,
    });
    this.define('dom.type', {
      readOnly: false,
      schema: z.object({ ref: z.string(), text: z.string(), password: z.boolean().optional() }),
      destructive: (a) => a.password === true,
      impl: (a) => `typed into ${String(a.ref)}`,
    });
  }

  define(
    name: string,
    t: { readOnly: boolean; schema: z.ZodType; impl: ToolImpl; destructive?: (a: Record<string, unknown>) => boolean },
  ): void {
    this.tools.set(name, {
      readOnly: t.readOnly,
      schema: t.schema,
      impl: t.impl,
      destructive: t.destructive ?? (() => false),
    });
  }

  /** Replaces a tool's implementation. */
  impl(name: string, impl: ToolImpl): void {
    const t = this.tools.get(name);
    if (!t) throw new Error(`no tool ${name}`);
    t.impl = impl;
  }

  /** Makes a tool wait for a gate; returns the gate's resolver and a promise of the moment it started. */
  gate(name: string): { open: () => void; started: Promise<void> } {
    const g = deferred();
    const started = deferred();
    const t = this.tools.get(name)!;
    const inner = t.impl;
    t.impl = async (a, ctx) => {
      started.resolve();
      await Promise.race([g.promise, untilAborted(ctx.signal)]);
      return inner(a, ctx);
    };
    return { open: () => g.resolve(), started: started.promise };
  }

  count(name: string): number {
    return this.runs.filter((r) => r.name === name).length;
  }

  definitions(): unknown[] {
    return [...this.tools.keys()].map((q) => ({
      type: 'function',
      function: { name: encode(q), description: q, parameters: { type: 'object', properties: {} } },
    }));
  }

  lookup(apiName: string) {
    const q = decode(apiName);
    const t = this.tools.get(q);
    return t ? { qualifiedName: q, readOnly: t.readOnly } : undefined;
  }

  closest(name: string, n = 3): string[] {
    const q = decode(name);
    return [...this.tools.keys()]
      .map((k) => ({ k, d: levenshtein(q, k) }))
      .filter((x) => x.d <= Math.max(3, Math.floor(q.length / 2)))
      .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
      .slice(0, n)
      .map((x) => x.k);
  }

  async isDestructive(qualifiedName: string, args: unknown): Promise<boolean> {
    this.destructiveChecks.push(qualifiedName);
    await this.isDestructiveHook?.(qualifiedName);
    return this.tools.get(qualifiedName)?.destructive(args as Record<string, unknown>) ?? false;
  }

  async run(qualifiedName: string, args: unknown, ctx: ToolRunContext): Promise<unknown> {
    const t = this.tools.get(qualifiedName);
    if (!t) throw new Error(`no such tool ${qualifiedName}`);
    const parsed = t.schema.safeParse(args);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new Error(`Invalid arguments for ${qualifiedName}: ${i.path.join('.')}: ${i.message}`);
    }
    this.runs.push({ name: qualifiedName, args, callId: ctx.callId, signal: ctx.signal });
    this.log.push(`start ${qualifiedName}`);
    if (this.#writers > 0 || (!t.readOnly && this.inFlight > 0)) this.overlapWithWriter = true;
    if (!t.readOnly) this.#writers++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await t.impl(parsed.data as Record<string, unknown>, ctx);
    } finally {
      this.inFlight--;
      if (!t.readOnly) this.#writers--;
      this.log.push(`end ${qualifiedName}`);
    }
  }
}

// ---- timers -------------------------------------------------------------------------------------------------------

/** Timers that fire only when the test advances them. */
export class ManualTimers implements Timers {
  now = 0;
  #next = 1;
  readonly #pending = new Map<number, { at: number; fn: () => void; every?: number }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#pending.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.#pending.delete(h as number);
  }
  setInterval(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#pending.set(id, { at: this.now + ms, fn, every: ms });
    return id;
  }
  clearInterval(h: unknown): void {
    this.#pending.delete(h as number);
  }
  get intervals(): number {
    return [...this.#pending.values()].filter((p) => p.every).length;
  }
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.#pending.entries()].filter(([, p]) => p.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, p] = due;
      this.now = p.at;
      if (p.every) p.at += p.every;
      else this.#pending.delete(id);
      p.fn();
    }
    this.now = until;
  }
}

// ---- harness ------------------------------------------------------------------------------------------------------

export function config(
  over: { agent?: Partial<AgentConfigView['agent']>; approvals?: Partial<AgentConfigView['approvals']> } = {},
): AgentConfigView {
  // tool_timeout only when a test sets it: the harness's timers drive the runner's toolTimeoutMs option otherwise.
  const { tool_timeout: _defaultToolTimeout, ...agentDefaults } = DEFAULT_CONFIG.agent;
  return {
    agent: { ...agentDefaults, ...over.agent },
    approvals: { ...DEFAULT_CONFIG.approvals, ...over.approvals },
  };
}

let dbCounter = 0;

type SetupOptions = { turns?: Turn[]; config?: AgentConfigView; origin?: string; runner?: Partial<AgentRunnerOptions> };

export class Harness {
  model: ScriptedModel;
  host = new FakeHost();
  readonly timers = new ManualTimers();
  readonly events: AgentEvent[] = [];
  pings = 0;
  cfg: AgentConfigView;
  origin: string | undefined;
  conversationId = '';
  runner: AgentRunner;
  readonly store: ConversationStore;
  readonly sites: SitePermissions;

  constructor(
    readonly database: IDBPDatabase<OttoDB>,
    private readonly opts: SetupOptions,
  ) {
    this.store = new ConversationStore(database);
    this.sites = new SitePermissions(database);
    this.model = new ScriptedModel(opts.turns ?? []);
    this.cfg = opts.config ?? config();
    this.origin = opts.origin;
    this.runner = this.newRunner();
  }

  /** A new runner on the same database: what a restarted worker builds (with the current model and host). */
  newRunner(over: Partial<AgentRunnerOptions> = {}): AgentRunner {
    return new AgentRunner({
      model: this.model,
      tools: this.host,
      store: this.store,
      sites: this.sites,
      config: () => this.cfg,
      origin: () => this.origin,
      timers: this.timers,
      now: () => this.timers.now,
      keepAlive: () => {
        this.pings++;
      },
      onEvent: (e) => this.events.push(e),
      ...this.opts.runner,
      ...over,
    });
  }

  async items(conversationId = this.conversationId): Promise<Record<string, unknown>[]> {
    return (await this.store.transcript(conversationId)).map((r) => r.item);
  }

  async state(conversationId = this.conversationId): Promise<RunState | undefined> {
    return this.store.getRun(conversationId);
  }

  eventsOf<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
  }
}

export async function setup(opts: SetupOptions = {}): Promise<Harness> {
  const database = await openOttoDB(`otto-test-${++dbCounter}-${Math.random().toString(36).slice(2)}`);
  const h = new Harness(database, opts);
  h.conversationId = (await h.store.create()).id;
  return h;
}

/** Polls (through macrotasks, so IndexedDB callbacks run) until `check` is true. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 5000,
): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

type Item = Record<string, unknown>;

/** The transcript is valid for replay: every function_call answered exactly once, after it; no item twice. */
export function expectValidTranscript(items: Item[]): void {
  const calls = items.filter((i) => i.type === 'function_call').map((i) => i.call_id as string);
  const outputs = items.filter((i) => i.type === 'function_call_output').map((i) => i.call_id as string);
  expect(new Set(calls).size, 'duplicate function_call').toBe(calls.length);
  expect(new Set(outputs).size, 'duplicate function_call_output').toBe(outputs.length);
  expect([...outputs].sort(), 'every call answered, nothing else').toEqual([...calls].sort());
  for (const id of calls) {
    const ci = items.findIndex((i) => i.type === 'function_call' && i.call_id === id);
    const oi = items.findIndex((i) => i.type === 'function_call_output' && i.call_id === id);
    expect(oi).toBeGreaterThan(ci);
  }
  const ids = items.map((i) => i.id).filter((x): x is string => typeof x === 'string');
  expect(new Set(ids).size, 'an item persisted twice').toBe(ids.length);
}

export function outputOf(items: Item[], callId: string): string | undefined {
  return items.find((i) => i.type === 'function_call_output' && i.call_id === callId)?.output as string | undefined;
}

export function userTexts(items: Item[]): string[] {
  return items
    .filter((i) => i.type === 'message' && i.role === 'user')
    .map((i) => ((i.content as { text: string }[])[0] ?? { text: '' }).text);
}
