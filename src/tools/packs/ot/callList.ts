/**
 * The tools `ot.call` can run that the request does not define (#43 part 1: no request spent on discovery). Tools
 * mode appends this list to ot.call's description (background/codeMode.ts), so every tool of Otto's packs is known
 * from the first request: one line per page-task tool — `dom.drag(ref|selector?, to_ref?, dx?, dy?, …): drag onto
 * an element or by dx/dy: reorder, move, resize`. Otto's own housekeeping tools (ot.stats, ot.config, …) are left to
 * ot.help's overview: no page task needs them. The parameter names
 * come from each tool's schema (so they follow its changes); the words after the dash from BRIEFS.
 *
 * An optional `tab_id` is left out of each line (every page tool takes it; the header says so), and a tool that takes both a
 * `ref` and a `selector` shows them as one `ref|selector?`.
 */
import type { AnyTool } from '../../Tool.ts';
import type { ToolRegistry } from '../../ToolRegistry.ts';
import { isSent, type ToolSetMode } from '../../toolSet.ts';
import { BRIEFS } from './briefs.ts';
import { CALL_TOOL } from './call.ts';
import { brief } from './common.ts';
import { CODE_TOOL } from './run.ts';
import { toolDoc } from './signature.ts';

/** Packs whose tools a task on pages, tabs, files or the web may need: each gets a signature line. */
export const PAGE_TASK_PACKS: ReadonlySet<string> = new Set(['dom', 'tabs', 'files', 'web', 'llm']);

export const CALL_LIST_HEADER =
  'Not in your list; run as ot.call(tool="dom.drag", args={...}). Page tools also take tab_id; ot.help(query="dom.drag") explains one:';

/** A parameter only saved snippets use (`.meta({ snippetOnly: true })`): its definition leaves it out, so its line does. */
function snippetOnly(tool: AnyTool, name: string): boolean {
  const shape = (tool.parameters as { shape?: Record<string, { meta?: () => unknown }> }).shape;
  const meta = shape?.[name]?.meta?.() as { snippetOnly?: unknown } | undefined;
  return meta?.snippetOnly === true;
}

/** `dom.hover(ref|selector?, role?, name?, label?)`: the parameter names a call may use, `?` when optional. */
export function callSignature(qualified: string, tool: AnyTool): string {
  // toolDoc is cached per tool (tools are immutable): the lines cost nothing after the first request.
  const params = toolDoc(tool, 'local').params.filter(
    (p) => (p.name !== 'tab_id' || p.required) && !snippetOnly(tool, p.name),
  );
  const names = new Set(params.map((p) => p.name));
  const parts: string[] = [];
  for (const p of params) {
    if (p.name === 'selector' && names.has('ref')) continue;
    const name = p.name === 'ref' && names.has('selector') ? 'ref|selector' : p.name;
    parts.push(p.required ? name : `${name}?`);
  }
  return `${qualified}(${parts.join(', ')})`;
}

/** The line of one tool: its call signature and what it is for. */
export function callLine(qualified: string, tool: AnyTool): string {
  const what = BRIEFS[qualified] ?? brief(tool.description, 60).replace(/[.:]$/, '');
  return `${callSignature(qualified, tool)}: ${what}`;
}

/** The tools of Otto's packs not sent under `toolSet`, as ot.call's description lists them ('' when none). */
export function callList(registry: ToolRegistry, toolSet: ToolSetMode): string {
  const lines: string[] = [];
  for (const tool of registry.list()) {
    const qualified = `${tool.pack}.${tool.name}`;
    if (qualified === CODE_TOOL || qualified === CALL_TOOL || isSent(qualified, tool.pack, toolSet)) continue;
    if (PAGE_TASK_PACKS.has(tool.pack)) lines.push(callLine(qualified, tool));
  }
  return lines.length ? `${CALL_LIST_HEADER}\n${lines.join('\n')}` : '';
}
