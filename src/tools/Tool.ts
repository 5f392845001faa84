/**
 * The one tool contract (`BaseTool`, issue #15 step 4) and what a call receives (`ToolContext`). Every tool — Otto's
 * packs, MCP proxies, a test's stand-in — is a plain object of this shape made with `defineTool` (defineTool.ts). The
 * registry, the interceptor, approvals, the data-flow guard and the model client only ever see this interface.
 *
 * A tool takes a context, and a context carries the registry of tools and the call's data-flow guard, so the types
 * refer to each other: they live in this one file, and the context names the registry and the guard by the shapes
 * declared here (`ToolLookup`, `CallFlow`), which `ToolRegistry` and `FlowGuard` implement (#45: no import circle).
 */
import type { z } from '../shared/zod.ts';
import type { ToolFlow } from './guard/flow.ts';
import type { Labels } from './guard/labels.ts';
import type { Blocked, FlowPair } from './guard/rule.ts';
import type { CallTarget, TargetElement } from '../shared/callTarget.ts';
import type { OttoConfig } from '../config/schema.ts';
import type { ConfigStatus } from '../config/status.ts';
import type { Logger } from '../shared/log.ts';
import type { ProgramJournal } from '../shared/programJournal.ts';
import type { ProgramScope } from '../command/budget.ts';

/**
 * What a call says it touches, before Otto looks anything up (src/tools/resolveCallTarget.ts resolves it): the tab, a
 * URL it loads, and (lazily: only a call that needs approval is described) the element it names.
 */
export interface TargetSpec {
  tabId?: number | undefined;
  url?: string | undefined;
  element?: (() => Promise<TargetElement | undefined>) | undefined;
}

/** Any zod object schema: tool parameters are always a named-argument object. */
export type ParamsSchema = z.ZodObject;

/**
 * What a call does — one word instead of the old `readOnly` flag plus `isDestructive: () => false` hooks:
 *
 *   reads    only reads (the page, a URL, Otto's own state). Consecutive reading calls run together; a call never
 *            asks on its own. Where a request goes (web.fetch's URL) is the data-flow guard's question (`flow.sink`).
 *   changes  changes the page, the browser or Otto's state (a click, a new tab, a saved snippet). Routine: asks only
 *            when `needsApproval` says so for this call (a submit, a password field, another tab, closing a tab).
 *   sends    hands its arguments to a party outside the browser that acts on them unseen (an MCP server's tool that
 *            does not say it only reads): every call asks unless `needsApproval` says otherwise.
 *
 * Where a call can send data (a page it types into, a URL it loads) is declared once, in `flow.sink`; `effect` does
 * not repeat it.
 */
export type ToolEffect = 'reads' | 'changes' | 'sends';

/** Whether a call asks the user when its tool gives no `needsApproval`. */
const ASKS_BY_DEFAULT: Readonly<Record<ToolEffect, boolean>> = { reads: false, changes: false, sends: true };

/**
 * Conveniences a tool already provides itself, so the interceptor does not double them (docs/specs/003-tool-interceptor.md, 5.1). Otto's packs
 * declare none; a tool author may (a tool that validates or times itself):
 * - validation: the tool checks its own arguments; the interceptor passes them through unparsed.
 * - logging: the tool writes its own start/finish lines; the interceptor writes none.
 * - metadata: the tool attaches its own `_execution_metadata`; the interceptor adds none.
 * - timing: the tool measures itself and reports `_execution_metadata.duration_ms`; the interceptor keeps that value
 *   when it merges metadata. (The interceptor still times every call for statistics — one clock read.)
 */
export interface Conveniences {
  readonly validation?: boolean;
  readonly logging?: boolean;
  readonly metadata?: boolean;
  readonly timing?: boolean;
}

/** Whether one call needs the user's approval: a constant, or a hook that looks at the call. */
export type ApprovalRule<S extends ParamsSchema> =
  | boolean
  // Written as a method type on purpose: method parameters are bivariant, so a tool with specific arguments can still
  // be held as an AnyTool (an optional property of function type would be checked contravariantly).
  | { hook(args: z.output<S>, ctx: ToolContext, target?: CallTarget): boolean | Promise<boolean> }['hook'];

export interface BaseTool<S extends ParamsSchema = ParamsSchema, R = unknown> {
  /** The pack (namespace) the tool belongs to: `dom`, `tabs`, `ot`, an MCP server's name. No dots. */
  readonly pack: string;
  /** The function name inside the pack: `click`. May be anything an MCP server brings (dots, spaces, unicode). */
  readonly name: string;
  readonly description: string;
  /** Arguments schema: used both for the API's JSON Schema and for validation. */
  readonly parameters: S;
  /** What a call does (see ToolEffect). */
  readonly effect: ToolEffect;
  /**
   * Refines the effect's default approval per call, for tools whose consequences depend on the arguments or the
   * target (typing into a password field, a click that submits, another tab than the run's). May be async when it has
   * to look at the page (the dom pack asks the content script what a ref is); the agent awaits it.
   */
  readonly needsApproval?: ApprovalRule<S>;
  /**
   * Where its output's content comes from and where a call can send data (guard/flow.ts). Otto's own tools all
   * declare it (a test enumerates them); a tool that does not is treated as reading an unknown source and sending
   * anywhere, so it asks whenever the run has read anything.
   */
  readonly flow?: ToolFlow;
  /**
   * Labels of data a call sends besides what is in the model's context (guard/labels.ts): files.upload sends a
   * stored file's bytes, which carry the origin they were downloaded from (#19). The guard adds them to the labels
   * it judges the call's sinks with.
   */
  readonly carries?: { hook(args: z.output<S>): Promise<readonly string[]> | readonly string[] }['hook'];
  /** Example calls in the command language (`dom.click(ref='e12')`), shown by ot.help. */
  readonly examples?: readonly string[];
  /** What the result looks like, in a sentence. */
  readonly returns?: string;
  /** Ask the API for strict schema adherence (the schema must then meet OpenAI's strict-mode rules). */
  readonly strict?: boolean;
  /**
   * A JSON Schema to send the model instead of one derived from `parameters` — for proxy tools whose server already
   * describes its arguments. Validation still uses `parameters`.
   */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** What the tool does itself, so the interceptor skips it (see Conveniences). */
  readonly conveniences?: Conveniences;
  /**
   * What the call acts on (see TargetSpec). Without it: the `tab_id` argument when given, else nothing — a tool that
   * acts on the run's tab or loads URLs declares it, so approvals judge the real target, not the run's tab.
   */
  readonly target?: { hook(args: z.output<S>, ctx: ToolContext): TargetSpec | Promise<TargetSpec> }['hook'];
  execute(args: z.output<S>, ctx: ToolContext): Promise<R> | R;
}

/** A tool of any parameter and result type, as the registry and interceptor hold it. */
export type AnyTool = BaseTool<ParamsSchema, unknown>;

export function qualifiedNameOf(tool: Pick<BaseTool, 'pack' | 'name'>): string {
  return `${tool.pack}.${tool.name}`;
}

/** True when the tool only reads (scheduling, ot.help's "Read-only.", MCP annotations). */
export function readsOnly(tool: Pick<BaseTool, 'effect'>): boolean {
  return tool.effect === 'reads';
}

/** The answer that needs no look at the call (no hook), else undefined: spares a host the lookups a hook needs. */
export function fixedApproval(tool: Pick<AnyTool, 'effect' | 'needsApproval'>): boolean | undefined {
  const rule = tool.needsApproval;
  return typeof rule === 'function' ? undefined : (rule ?? ASKS_BY_DEFAULT[tool.effect]);
}

/**
 * Whether this particular call needs the user's approval: the tool's `needsApproval` when it has one, else its
 * effect's default. Await it: a hook may answer asynchronously.
 */
export function callNeedsApproval<S extends ParamsSchema>(
  tool: BaseTool<S, unknown>,
  args: z.output<S>,
  ctx: ToolContext,
  target?: CallTarget,
): boolean | Promise<boolean> {
  const rule = tool.needsApproval;
  if (typeof rule === 'function') return rule(args, ctx, target);
  return rule ?? ASKS_BY_DEFAULT[tool.effect];
}

/**
 * The tools a call runs among, as the tool SDK reads them through `ctx.registry` (`sdk(ctx)`, `getPack`,
 * `checkDeps`). `ToolRegistry` (ToolRegistry.ts) is the one implementation.
 */
export interface ToolLookup {
  /** The tool of this qualified name (`dom.click`). */
  get(qualified: string): AnyTool | undefined;
  /** The tool a name, alias or API name stands for. */
  resolve(name: string): AnyTool | undefined;
  list(): AnyTool[];
  /** A pack's qualified tool names, undefined when there is no such pack. */
  pack(name: string): { readonly tools: readonly string[] } | undefined;
}

/**
 * The data-flow guard of one call, as the interceptor and the tools use it through `ctx.flow`. `FlowGuard`
 * (guard/guard.ts) is the one implementation.
 */
export interface CallFlow {
  /** What the run had read when the call was made: `origins` is the run's origin set. */
  readonly policy: { readonly origins: Labels };
  /** The labels of what the call (and the calls it made) read. */
  readonly collected: Labels;
  /** A guard for one call of a program, with the exact labels of its arguments. */
  child(argLabels: Labels): CallFlow;
  /** Adds labels to what this call read (a tool that knows its output's labels reports them). */
  report(labels: Labels): void;
  /** Before the tool runs: throws when the call may not send what it could carry where it goes; else its labels. */
  check(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext): Promise<Labels>;
  /** After the call: labels its output with where its content came from. */
  record(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext, before?: Labels): Promise<void>;
  /** Every flow the call would need the user's approval for, at most `max`; empty: it may run. */
  refusals(tool: AnyTool, args: Record<string, unknown>, tabId: number | undefined, max?: number): Promise<Blocked[]>;
  /** The user approved `pairs` for the call with exactly this arguments object. */
  allowOnce(args: object, pairs: readonly FlowPair[]): void;
}

/**
 * What a tool receives besides its arguments. The agent loop (or the command line, a snippet, the SDK) builds one per
 * call; tools reach the page, secrets and other tools only through it, which keeps them testable without a browser.
 */
export interface ToolContext {
  /** Aborted when the user stops the run or the call times out; long-running tools must honour it. */
  readonly signal: AbortSignal;
  /** The validated config in force for this run (read-only). */
  readonly config: Readonly<OttoConfig>;
  /**
   * The stored config's state. `invalid`: `config` is the built-in defaults and a tool must send nothing that
   * depends on the user's settings (llm.transform refuses); ot.config and ot.health report it. Absent in tests.
   */
  readonly configStatus?: ConfigStatus;
  /** Looks up a secret by name (`OPENAI_API_KEY`, a header token, ...); undefined when it is not set. */
  readonly getSecret: (name: string) => string | undefined;
  readonly logger: Logger;
  /** The tab the run acts on, when there is one. */
  readonly tabId?: number;
  /**
   * The window new tabs open in: a scheduled run's background window (#46), which is never focused. Absent: Chrome's
   * default (the last focused window), and tools may bring a window to the front.
   */
  readonly windowId?: number;
  /** That tab's origin (`https://example.com`), for per-site approvals. */
  readonly origin?: string;
  /** Looks up a tab's URL and title (default: chrome.tabs.get); injectable for tests. */
  readonly tabInfo?: (tabId: number) => Promise<{ url?: string; title?: string } | undefined>;
  /**
   * The tabs a run may reach (#27): Otto's tab group. Absent outside a run (the user's own commands in the panel see
   * every tab) and in unit tests.
   */
  readonly tabScope?: {
    /** The tabs in reach, and how many others are open. */
    visibleTabs(): Promise<{ tabs: chrome.tabs.Tab[]; others: number }>;
    /** A tab the run opened joins its group. */
    join(tabId: number): Promise<unknown>;
  };
  /**
   * Calls another tool by qualified name, alias or API name — through the interceptor, like every call — with the
   * same context. Nested calls are how `ot.*` helpers, snippets and the SDK compose tools.
   */
  readonly callTool: (name: string, args?: Record<string, unknown>) => Promise<unknown>;
  /**
   * The registry this call runs under: where the tool SDK (`sdk(ctx)`, `getPack`, `checkDeps`) finds packs and tools.
   * The worker's contexts carry it; a unit test gives one when its tool uses the SDK.
   */
  readonly registry?: ToolLookup;
  /**
   * The data-flow guard of this call (guard/guard.ts), when the call comes from a run the guard watches (the
   * model's calls, code mode). The interceptor checks and labels every call through it; nested calls share it.
   */
  readonly flow?: CallFlow;
  /** The same context with another guard, its `callTool` bound to it (code mode: one guard per program call). */
  readonly withFlow?: (flow: CallFlow) => ToolContext;
  /**
   * The command-language program this call runs in (a snippet, `ot.run`, a command): how deeply programs are nested
   * and the run's shared step budget (command/budget.ts). Absent outside a program.
   */
  readonly program?: ProgramScope;
  /** The same context inside `scope`, its `callTool` (and `withFlow`) keeping it, so nested programs see it. */
  readonly withProgram?: (scope: ProgramScope) => ToolContext;
  /**
   * The steps an earlier run of this call's program completed (code mode, kept by the agent with the call): the
   * program runs again from the start after an approval, and a step done before is not done twice.
   */
  readonly journal?: ProgramJournal;
}
