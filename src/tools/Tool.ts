/**
 * The shape every tool has, whether it extends BaseTool or is a plain "raw" object made with `defineTool`. The
 * registry, the interceptor and the model client only ever see this interface.
 */
import type { z } from '../shared/zod.ts';
import type { ToolContext } from './context.ts';
import type { ToolFlow } from './guard/flow.ts';
import type { CallTarget, TargetElement } from '../shared/callTarget.ts';

/**
 * What a call says it touches, before Otto looks anything up (src/tools/callTarget.ts resolves it): the tab, a URL it
 * loads, and (lazily: only a call that needs approval is described) the element it names.
 */
export interface TargetSpec {
  tabId?: number | undefined;
  url?: string | undefined;
  element?: (() => Promise<TargetElement | undefined>) | undefined;
}

/** Any zod object schema: tool parameters are always a named-argument object. */
export type ParamsSchema = z.ZodObject;

/**
 * Conveniences a tool already provides itself, so the interceptor does not double them
 * (docs/specs/003-tool-interceptor.md, 5.1):
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

export interface ToolSpec<S extends ParamsSchema = ParamsSchema, R = unknown> {
  /** The pack (namespace) the tool belongs to: `dom`, `tabs`, `ot`, an MCP server's name. No dots. */
  readonly pack: string;
  /** The function name inside the pack: `click`. May be anything an MCP server brings (dots, spaces, unicode). */
  readonly name: string;
  readonly description: string;
  /** Arguments schema: used both for the API's JSON Schema and for validation. */
  readonly parameters: S;
  /** True when the tool only reads; everything else is destructive and may need approval. */
  readonly readOnly: boolean;
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
  readonly conveniences?: Conveniences;
  /**
   * For tools whose destructiveness depends on the arguments (typing into a password field, closing a tab). May be
   * async when it has to look at the page (the dom pack asks the content script what a ref is); the agent awaits it.
   */
  // Written as a method type on purpose: method parameters are bivariant, so a tool with specific arguments can still
  // be held as an AnyTool (an optional property of function type would be checked contravariantly).
  readonly isDestructive?: {
    hook(args: z.output<S>, ctx: ToolContext, target?: CallTarget): boolean | Promise<boolean>;
  }['hook'];
  /**
   * What the call acts on (see TargetSpec). Without it: the `tab_id` argument when given, else nothing — a tool that
   * acts on the run's tab or loads URLs declares it, so approvals judge the real target, not the run's tab.
   */
  readonly target?: { hook(args: z.output<S>, ctx: ToolContext): TargetSpec | Promise<TargetSpec> }['hook'];
  execute(args: z.output<S>, ctx: ToolContext): Promise<R> | R;
}

/** A tool of any parameter and result type, as the registry and interceptor hold it. */
export type AnyTool = ToolSpec<ParamsSchema, unknown>;

/**
 * A plain-object tool with no conveniences of its own: the interceptor gives it all of them. (An interface, not an
 * `Omit<>`: mapped types would turn `execute` into a property and lose the method bivariance that lets a tool with
 * specific arguments be held as an AnyTool.)
 */
export interface RawTool<S extends ParamsSchema = ParamsSchema, R = unknown> extends ToolSpec<S, R> {
  readonly conveniences?: undefined;
}

export function qualifiedNameOf(tool: Pick<ToolSpec, 'pack' | 'name'>): string {
  return `${tool.pack}.${tool.name}`;
}

/**
 * Whether this particular call is destructive: the tool's own hook when it has one, else `!readOnly`. Await it: a
 * hook may answer asynchronously.
 */
export function isDestructiveCall<S extends ParamsSchema>(
  tool: ToolSpec<S, unknown>,
  args: z.output<S>,
  ctx: ToolContext,
  target?: CallTarget,
): boolean | Promise<boolean> {
  return tool.isDestructive ? tool.isDestructive(args, ctx, target) : !tool.readOnly;
}
