/**
 * `ot.tools`: list tools, filtered by a case-insensitive substring of the qualified name (docs/specs/002-ot-tools.md,
 * "List Tools").
 */
import { z } from '../../../shared/zod.ts';
import type { ToolRegistry } from '../../ToolRegistry.ts';
import { firstLine, info, matches, otTool, pattern, type InfoLevel } from './common.ts';
import type { ResolvedDeps } from './env.ts';
import { registeredToolDoc } from './signature.ts';

/** The reply of ot.tools before formatting: names (`list`), `{name, description}` (`min`) or full entries. */
export function listTools(registry: ToolRegistry, opts: { pattern?: string; info?: InfoLevel } = {}): unknown[] {
  const level = opts.info ?? 'min';
  const names = registry.names().filter((n) => matches(opts.pattern ?? '', n));
  if (level === 'list') return names;
  return names.map((name) => {
    const tool = registry.get(name)!;
    if (level === 'min') return { name, description: firstLine(tool.description) };
    const doc = registeredToolDoc(registry, tool);
    const entry: Record<string, unknown> = { name, signature: doc.signature, description: doc.description };
    if (doc.args.length) entry.args = doc.args;
    if (doc.returns) entry.returns = doc.returns;
    if (doc.examples.length) entry.example = doc.examples[0];
    entry.source = doc.source;
    return entry;
  });
}

export function toolsTool(deps: ResolvedDeps) {
  return otTool({
    name: 'tools',
    description:
      'List the available tools. pattern filters by a case-insensitive substring of the name (pack.fn); info="list" gives names only, "min" (default) names and descriptions, "full" signature, arguments, returns, example and source.',
    parameters: z.object({ pattern, info }),
    examples: ['ot.tools()', 'ot.tools(pattern="tabs")', 'ot.tools(pattern="transform", info="full")'],
    returns: 'A list: names, {name, description}, or {name, signature, description, args, returns, example, source}.',
    run: (args) => listTools(deps.registry(), args),
  });
}
