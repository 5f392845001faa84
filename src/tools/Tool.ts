/**
 * The one tool contract (`BaseTool`, issue #15 step 4). Every tool — Otto's packs, MCP proxies, a test's stand-in —
 * is a plain object of this shape made with `defineTool` (defineTool.ts). The registry, the interceptor, approvals,
 * the data-flow guard and the model client only ever see this interface.
 */
import type { z } from '../shared/zod.ts';
import type { ToolContext } from './context.ts';
import type { ToolFlow } from './guard/flow.ts';
import type { CallTarget, TargetElement } from '../shared/callTarget.ts';

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
