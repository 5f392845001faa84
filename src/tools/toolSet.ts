/**
 * Which tools a request carries (config `agent.tool_set`). Every request pays for every definition it sends, so by
 * default Otto sends the tools page work needs and keeps the rest of its own packs reachable through discovery:
 * `ot.help` names them and `ot.call(tool=..., args={...})` runs any of them. `all` sends every tool.
 *
 * Tools of packs Otto does not ship (MCP proxy packs) are not limited here: the user connected them to be used,
 * and their own budget is decided where those packs are handled. Kept in its own module so other selections (a
 * definition budget, a tool search) can compose with it.
 */
export type ToolSetMode = 'default' | 'all';

/** Otto's own packs: the ones this selection applies to. */
export const BUILTIN_PACKS: ReadonlySet<string> = new Set(['dom', 'tabs', 'ot', 'llm', 'web', 'files']);

/**
 * Sent by default: reading and acting on the page, finding tabs, discovery and paging through large results
 * (measured: bench/modelView.bench.ts keeps the set under 12,000 characters of definitions).
 */
export const DEFAULT_TOOLS: ReadonlySet<string> = new Set([
  'dom.snapshot',
  'dom.find',
  'dom.click',
  'dom.type',
  'dom.fill_form',
  'dom.select',
  'dom.check',
  'dom.press',
  'dom.wait_for',
  'tabs.list',
  'tabs.open',
  'tabs.navigate',
  'ot.help',
  'ot.call',
  'ot.result',
]);

/** Whether a tool goes with every request under `mode`. */
export function isSent(qualified: string, pack: string, mode: ToolSetMode): boolean {
  if (mode === 'all' || !BUILTIN_PACKS.has(pack)) return true;
  return DEFAULT_TOOLS.has(qualified);
}
