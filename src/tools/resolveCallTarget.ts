/**
 * Resolving what a call really touches (issue #31) — one place, reused by every guard that needs the call's target
 * (approvals and their allowances, the "leaving the site" rule, the approval card, data-flow and tab-scope checks):
 *
 *   tab      the tab it acts on: the tool's own answer (`target` hook), else its `tab_id` argument; with the tab's URL,
 *            origin, title and whether it is the run's own tab;
 *   url      a URL it loads or fetches, and whether that is on the user's own network (urlPolicy.ts);
 *   element  the element it names, as Otto sees it (role, accessible name, a link's destination, a form's action) —
 *            only looked up on request (`describe: true`), i.e. for a call that needs the user's approval;
 *   origin   the site it acts on: the destination's for a call that loads a URL, else the tab's.
 *
 * Lookups that fail leave the field out: a tab that is gone, a ref that is stale, a page that cannot be read. The
 * call then fails the same way when it runs.
 */
import type { CallTarget, TargetTab } from '../shared/callTarget.ts';
import { webOrigin } from '../shared/origin.ts';
import { type ToolContext, readsOnly, type AnyTool, type TargetSpec } from './Tool.ts';
import { localDestination } from './urlPolicy.ts';

async function defaultTabInfo(tabId: number): Promise<{ url?: string; title?: string } | undefined> {
  if (typeof chrome === 'undefined' || !chrome.tabs?.get) return undefined;
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab) return undefined;
  const url = tab.url || tab.pendingUrl;
  return { ...(url ? { url } : {}), ...(tab.title ? { title: tab.title } : {}) };
}

/** The tab's facts, or undefined when it does not exist. */
export async function describeTargetTab(
  tabId: number,
  ctx: Pick<ToolContext, 'tabId' | 'tabInfo'>,
): Promise<TargetTab | undefined> {
  const info = await (ctx.tabInfo ?? defaultTabInfo)(tabId).catch(() => undefined);
  if (!info) return undefined;
  const origin = webOrigin(info.url);
  return {
    id: tabId,
    ...(info.url ? { url: info.url } : {}),
    ...(origin ? { origin } : {}),
    ...(info.title ? { title: info.title } : {}),
    isRunTab: ctx.tabId === tabId,
  };
}

function defaultSpec(args: Record<string, unknown>): TargetSpec {
  return typeof args.tab_id === 'number' ? { tabId: args.tab_id } : {};
}

/** Whether resolving the target can matter for this tool (a read-only tool without hooks touches nothing we judge). */
export function hasTarget(tool: AnyTool, args: unknown): boolean {
  if (tool.target || typeof tool.needsApproval === 'function') return true;
  return (
    !readsOnly(tool) ||
    (!!args && typeof args === 'object' && typeof (args as { tab_id?: unknown }).tab_id === 'number')
  );
}

export interface ResolveOptions {
  /** Look up the element too (costs a round trip to the page): for a call that needs approval. */
  describe?: boolean;
}

/** Resolves `tool`'s target for validated `args`. Never throws: what cannot be looked up is left out. */
export async function resolveCallTarget(
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  opts: ResolveOptions = {},
): Promise<CallTarget> {
  let spec: TargetSpec;
  try {
    spec = tool.target ? await tool.target(args, ctx) : defaultSpec(args);
  } catch {
    spec = defaultSpec(args);
  }
  const out: CallTarget = {};
  if (spec.tabId !== undefined) {
    const tab = await describeTargetTab(spec.tabId, ctx);
    if (tab) out.tab = tab;
  }
  if (spec.url) {
    try {
      const u = new URL(spec.url.trim());
      out.url = u.href;
      const local = localDestination(u, ctx.config.approvals.local_hosts ?? []);
      if (local) out.localNetwork = local;
    } catch {
      out.url = spec.url; // not a URL: the tool refuses it when it runs
    }
  }
  if (opts.describe && spec.element) {
    const el = await spec.element().catch(() => undefined);
    if (el) out.element = el;
  }
  const origin = out.url ? webOrigin(out.url) : out.tab?.origin;
  if (origin) out.origin = origin;
  return out;
}

/** Adds the element description to a target resolved without it. */
export async function describeElementOf(
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  target: CallTarget,
): Promise<CallTarget> {
  if (!tool.target || target.element) return target;
  try {
    const spec = await tool.target(args, ctx);
    const el = spec.element ? await spec.element().catch(() => undefined) : undefined;
    return el ? { ...target, element: el } : target;
  } catch {
    return target;
  }
}
