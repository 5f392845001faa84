/**
 * Which tabs a call reads or acts on (#27), found before it runs so that a tab outside Otto's group can be asked for:
 *  - a tool with a `tab_id` parameter targets that tab, or the run's tab when the argument is left out;
 *  - `ot.run` (code mode) targets what its program's calls target, as far as the program says so in literals
 *    (`dom.text(tab_id=12)`); an id known only while running is checked by the tool host's gate when that call runs;
 *  - `ot.call` targets what the tool it names targets.
 * Tools without `tab_id` (tabs.list, tabs.open, web.*, llm.*) target no tab: tabs.list filters itself.
 */
import type { OttoConfig } from '../config/schema.ts';
import { commandSource, parse, resolveAlias, type Expr, type Program, type SnippetMap } from '../command/index.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import type { AnyTool } from '../tools/Tool.ts';
import { CALL_TOOL, CODE_TOOL } from '../tools/packs/ot/index.ts';

export interface CallTargets {
  /** Tabs named by id. */
  ids: number[];
  /** True when some call acts on the run's own tab (no `tab_id` given). */
  runTab: boolean;
}

/** Whether a tool's parameters have `tab_id` (the dom and tabs packs' tools that act on a tab). */
export function takesTab(tool: AnyTool): boolean {
  const shape = (tool.parameters as { shape?: Record<string, unknown> }).shape;
  return !!shape && Object.hasOwn(shape, 'tab_id');
}

/** The tab a single tool call targets: its `tab_id`, else the run's tab; undefined when it targets none. */
export function tabOfCall(tool: AnyTool, args: unknown, runTabId: number | undefined): number | undefined {
  if (!takesTab(tool)) return undefined;
  const id = (args as { tab_id?: unknown } | undefined)?.tab_id;
  return typeof id === 'number' ? id : runTabId;
}

export function callTargets(
  registry: ToolRegistry,
  config: Pick<OttoConfig, 'snippets' | 'aliases'>,
  qualifiedName: string,
  args: unknown,
): CallTargets {
  const out: CallTargets = { ids: [], runTab: false };
  const tool = registry.get(qualifiedName);
  if (!tool) return out;
  if (qualifiedName === CODE_TOOL) {
    const code = (args as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') programTargets(registry, config, code, out);
    return out;
  }
  // ot.call targets what the tool it runs targets (#14).
  if (qualifiedName === CALL_TOOL) {
    const a = args as { tool?: unknown; args?: unknown } | undefined;
    const inner = typeof a?.tool === 'string' ? (registry.resolve(a.tool) ?? registry.fromApiName(a.tool)) : undefined;
    if (inner) addCall(inner, a?.args ?? {}, out);
    return out;
  }
  addCall(tool, args, out);
  return out;
}

function addCall(tool: AnyTool, args: unknown, out: CallTargets): void {
  if (!takesTab(tool)) return;
  const id = (args as { tab_id?: unknown } | undefined)?.tab_id;
  if (typeof id === 'number') {
    if (!out.ids.includes(id)) out.ids.push(id);
  } else if (id === undefined) out.runTab = true;
}

function programTargets(
  registry: ToolRegistry,
  config: Pick<OttoConfig, 'snippets' | 'aliases'>,
  code: string,
  out: CallTargets,
): void {
  let program: Program;
  try {
    program = parse(commandSource(code, config.snippets as SnippetMap).source);
  } catch {
    return; // a program that does not parse runs nothing
  }
  const stack: Expr[] = program.statements.map((s) => (s.kind === 'assign' ? s.value : s.expr));
  while (stack.length) {
    const e = stack.pop()!;
    if (e.kind === 'list') stack.push(...e.items);
    else if (e.kind === 'dict') for (const entry of e.entries) stack.push(entry.value);
    if (e.kind !== 'call') continue;
    for (const a of e.args) stack.push(a.value);
    let tool: AnyTool | undefined;
    try {
      tool = registry.resolve(resolveAlias(e.callee, config.aliases));
    } catch {
      continue;
    }
    if (!tool) continue;
    const tabArg = e.args.find((a) => a.name === 'tab_id');
    if (!tabArg) addCall(tool, {}, out);
    else if (tabArg.value.kind === 'number') addCall(tool, { tab_id: tabArg.value.value }, out);
  }
}
