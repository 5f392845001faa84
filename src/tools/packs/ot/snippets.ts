/**
 * `ot.snippets`: list snippets from config (docs/specs/002-ot-tools.md, "Snippet Introspection"). Pattern matches name
 * or description.
 */
import { z } from '../../../shared/zod.ts';
import { toFlowYaml } from '../../../shared/outputFormat.ts';
import { CommandError, snippetExample, type SnippetDefinition, type SnippetMap } from '../../../command/index.ts';
import { info, matches, otTool, pattern, type InfoLevel } from './common.ts';

const PLAIN = /^[A-Za-z0-9_(][A-Za-z0-9_ .,()/'+-]*$/;

/** A YAML scalar: plain when that is unambiguous, else double-quoted. */
function scalar(text: string): string {
  return PLAIN.test(text) && !/^(true|false|null|yes|no|on|off|~|[-+]?[0-9.]+)$/i.test(text) && !text.endsWith(' ')
    ? text
    : JSON.stringify(text);
}

function paramLine(
  name: string,
  p: { default?: unknown; description?: string; required?: boolean; optional?: boolean },
): string {
  const parts: string[] = [];
  if (p.default !== undefined && p.default !== null)
    parts.push(`default: ${typeof p.default === 'string' ? JSON.stringify(p.default) : toFlowYaml(p.default)}`);
  if (p.required) parts.push('required: true');
  if (p.optional) parts.push('optional: true');
  if (p.description) parts.push(`description: ${JSON.stringify(p.description)}`);
  return `  ${name}: {${parts.join(', ')}}`;
}

/**
 * The spec's snippet definition format: name, description, params (flow maps), the body as a literal block, then an
 * example invocation (every parameter without a default given as `<param>`) and its expansion.
 */
export function snippetText(name: string, def: SnippetDefinition): string {
  const lines = [`name: ${name}`, `description: ${scalar(def.description || '(no description)')}`];
  const params = Object.entries(def.params ?? {});
  if (!params.length) lines.push('params: {}');
  else {
    lines.push('params:');
    for (const [p, spec] of params) lines.push(paramLine(p, spec));
  }
  lines.push('body: |');
  for (const l of def.body.replace(/\n+$/, '').split('\n')) lines.push(l ? `  ${l}` : '');
  lines.push('');
  try {
    const ex = snippetExample(name, def);
    const hasDefaults = params.some(([, p]) => p.default !== undefined && p.default !== null);
    lines.push(hasDefaults ? '# Example with defaults:' : '# Example:', `# ${ex.invocation}`, '# Expands to:');
    lines.push(ex.expansion.replace(/\n+$/, ''));
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    lines.push(`# This snippet cannot be expanded: ${error.message}`);
  }
  return lines.join('\n');
}

export function listSnippets(snippets: SnippetMap, opts: { pattern?: string; info?: InfoLevel } = {}): unknown {
  const level = opts.info ?? 'min';
  const names = Object.keys(snippets)
    .sort()
    .filter((n) => matches(opts.pattern ?? '', n, snippets[n]?.description));
  if (level === 'list') return names;
  if (!names.length)
    return Object.keys(snippets).length ? `No snippets match '${opts.pattern}'.` : 'No snippets configured.';
  if (level === 'min') return names.map((n) => `${n}: ${snippets[n]?.description || '(no description)'}`).join('\n');
  return names.map((n) => snippetText(n, snippets[n]!)).join('\n\n');
}

export function snippetsTool() {
  return otTool({
    name: 'snippets',
    description:
      'List snippets (named, parameterised command programs from config `snippets`, run as `$name key=value`). pattern matches name or description (case-insensitive substring); info="list" gives names, "min" (default) `name: description` lines, "full" the definition with an example invocation and its expansion.',
    parameters: z.object({ pattern, info }),
    examples: ['ot.snippets()', 'ot.snippets(pattern="research", info="full")'],
    returns: '`name: description` lines, names, or full definitions.',
    run: (args, ctx) => listSnippets(ctx.config.snippets, args),
  });
}
