/**
 * Which tools a request carries in full (config `agent.tool_set`). Every request pays for every definition it sends,
 * so by default Otto sends the definitions of the page work done most and lists every other tool of its packs in
 * ot.call's description, one line each with its parameters (tools/packs/ot/callList.ts): `ot.call(tool=...,
 * args={...})` runs any of them from the first request, no `ot.help` round trip needed. `all` sends every tool.
 *
 * Tools of packs Otto does not ship (MCP proxy packs) are not limited here: the user connected them to be used,
 * and their own budget is decided where those packs are handled. Kept in its own module so other selections (a
 * definition budget, a tool search) can compose with it.
 */
export type ToolSetMode = 'default' | 'all';

/** Otto's own packs: the ones this selection applies to. */
export const BUILTIN_PACKS: ReadonlySet<string> = new Set(['dom', 'tabs', 'ot', 'llm', 'web', 'files']);

/**
 * Sent in full by default: reading and acting on the page, finding and opening tabs, running the listed tools and
 * paging through large results. The fixed input of a tools-mode request stays within 13,500 characters
 * (bench/fixedInput.bench.ts reports it; test/tools/discovery.test.ts asserts it).
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
