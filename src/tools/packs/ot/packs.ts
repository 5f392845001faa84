/** `ot.packs`: list packs (docs/specs/002-ot-tools.md, "Pack Discovery"). */
import { z } from '../../../shared/zod.ts';
import type { PackInfo, ToolRegistry } from '../../ToolRegistry.ts';
import { firstLine, info, matches, otTool, pattern, type InfoLevel } from './common.ts';
import type { ResolvedDeps } from './env.ts';

/** `local` or `proxy` (the min level drops the server name; it is the pack's own name anyway). */
export const sourceKind = (p: PackInfo): 'local' | 'proxy' => (p.source === 'local' ? 'local' : 'proxy');

/** The reference's full pack text: `# <pack> pack`, the instructions, then `## Tools` with one line per tool. */
export function packText(registry: ToolRegistry, pack: PackInfo): string {
  const lines = [`# ${pack.name} pack`, ''];
  if (pack.instructions) lines.push(pack.instructions.trim(), '');
  if (pack.source !== 'local') lines.push(`Source: ${pack.source}`, '');
  lines.push('## Tools', '');
  if (!pack.tools.length) lines.push('(no tools)');
  for (const name of pack.tools) lines.push(`- **${name}**: ${firstLine(registry.get(name)?.description)}`);
  return lines.join('\n');
}

export function listPacks(registry: ToolRegistry, opts: { pattern?: string; info?: InfoLevel } = {}): unknown {
  const level = opts.info ?? 'min';
  const packs = registry.packs().filter((p) => matches(opts.pattern ?? '', p.name));
  if (level === 'list') return packs.map((p) => p.name);
  if (level === 'min') return packs.map((p) => ({ name: p.name, source: sourceKind(p), tool_count: p.tools.length }));
  if (!packs.length) return `No packs match '${opts.pattern ?? ''}'. Browse them with ot.packs(info="list").`;
  return packs.map((p) => packText(registry, p)).join('\n\n');
}

export function packsTool(deps: ResolvedDeps) {
  return otTool({
    name: 'packs',
    description:
      'List tool packs (groups of tools such as tabs, llm, ot). pattern filters by a case-insensitive substring of the pack name; info="list" gives names, "min" (default) {name, source, tool_count}, "full" the pack\'s instructions and its tools.',
    parameters: z.object({ pattern, info }),
    examples: ['ot.packs()', 'ot.packs(pattern="tabs", info="full")'],
    returns: 'Pack names, {name, source, tool_count} entries (source local or proxy), or text for info="full".',
    run: (args) => listPacks(deps.registry(), args),
  });
}
