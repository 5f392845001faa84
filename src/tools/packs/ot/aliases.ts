/**
 * `ot.aliases`: list aliases from config (docs/specs/002-ot-tools.md, "Alias Introspection"). Pattern matches name or
 * target.
 */
import { z } from '../../../shared/zod.ts';
import { info, matches, otTool, pattern, type InfoLevel } from './common.ts';

export function listAliases(
  aliases: Readonly<Record<string, string>>,
  opts: { pattern?: string; info?: InfoLevel } = {},
): unknown {
  const level = opts.info ?? 'min';
  const names = Object.keys(aliases)
    .sort()
    .filter((a) => matches(opts.pattern ?? '', a, aliases[a]));
  if (level === 'list') return names;
  if (level === 'full') return names.map((name) => ({ name, target: aliases[name] }));
  if (!names.length)
    return Object.keys(aliases).length ? `No aliases match '${opts.pattern}'.` : 'No aliases configured.';
  return names.map((a) => `${a} -> ${aliases[a]}`).join('\n');
}

export function aliasesTool() {
  return otTool({
    name: 'aliases',
    description:
      'List aliases (short names for tools, from config `aliases`). pattern matches alias name or target (case-insensitive substring); info="list" gives names, "min" (default) `alias -> target` lines, "full" {name, target}.',
    parameters: z.object({ pattern, info }),
    examples: ['ot.aliases()', 'ot.aliases(pattern="fetch", info="full")'],
    returns: '`alias -> target` lines, names, or {name, target} entries.',
    run: (args, ctx) => listAliases(ctx.config.aliases, args),
  });
}
