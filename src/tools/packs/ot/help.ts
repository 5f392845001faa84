/**
 * `ot.help` (docs/specs/002-ot-tools.md, "Unified Help"). Resolution order (the reference's): an exact tool (the query
 * has a dot), an exact pack, a `$snippet`, an exact alias, else a fuzzy search grouped by kind. Exact lookups also
 * accept a different case. Texts are Markdown: the panel renders them, and models read them well.
 *
 * Also the structured data the panel's help browser asks for (`help.index`, `help.tool`, `help.search`), built from
 * the same pieces so the two views cannot disagree.
 */
import { z } from '../../../shared/zod.ts';
import type { OttoConfig } from '../../../config/schema.ts';
import { snippetExample, type SnippetDefinition, type SnippetMap } from '../../../command/index.ts';
import type { AnyTool } from '../../Tool.ts';
import type { PackInfo, ToolRegistry } from '../../ToolRegistry.ts';
import { brief, firstLine, info, otTool, type InfoLevel } from './common.ts';
import { BUNDLED_DOC_PACKS, docUrl } from './docs.ts';
import type { ResolvedDeps } from './env.ts';
import { packText } from './packs.ts';
import type { OtEnvironment } from './runtime.ts';
import { KIND_ORDER, searchHelp, type HelpHit, type HelpKind } from './search.ts';
import { pyRepr, registeredToolDoc, type ParamDoc, type ToolDoc } from './signature.ts';
import { snippetText } from './snippets.ts';
import { isSent } from '../../toolSet.ts';
import { companionsOf } from './companions.ts';

/** What help needs to know besides the registry. */
export interface HelpSources {
  registry: ToolRegistry;
  aliases: Readonly<Record<string, string>>;
  snippets: SnippetMap;
  docsBaseUrl: string | undefined;
  env: Pick<OtEnvironment, 'extensionUrl'>;
  /** Tools not sent with each request (config `agent.tool_set`): reachable through `ot.call`. */
  unsent: ReadonlySet<string>;
}

export function helpSources(
  registry: ToolRegistry,
  config: Readonly<OttoConfig>,
  env: Pick<OtEnvironment, 'extensionUrl'>,
): HelpSources {
  return {
    registry,
    aliases: config.aliases,
    snippets: config.snippets as SnippetMap,
    docsBaseUrl: config.docs.base_url,
    env,
    unsent: new Set(
      registry
        .list()
        .filter((t) => t.name !== 'run' || t.pack !== 'ot')
        .map((t) => ({ q: `${t.pack}.${t.name}`, pack: t.pack }))
        .filter((t) => !isSent(t.q, t.pack, config.agent?.tool_set ?? 'default'))
        .map((t) => t.q),
    ),
  };
}

/** A pack's documentation URL: its bundled page when Otto ships one, else the live page — never a dead link. */
function packDocUrl(s: HelpSources, pack: string): string {
  const bundled = BUNDLED_DOC_PACKS.has(pack) && s.registry.pack(pack)?.source === 'local';
  return docUrl(pack, s.docsBaseUrl, s.env, bundled);
}

/** Groups shown per kind in a search; the rest is counted. */
export const SEARCH_GROUP_LIMIT = 10;

const HEADINGS: Record<HelpKind, string> = { tool: 'Tools', pack: 'Packs', snippet: 'Snippets', alias: 'Aliases' };

export const NO_MATCHES =
  'No matches found.\n\n' +
  'Browse what is available instead:\n' +
  '- `ot.tools()` lists every tool (`ot.tools(pattern="tab")` filters)\n' +
  '- `ot.packs()` lists the packs\n' +
  '- `ot.snippets()` lists the snippets\n' +
  '- `ot.aliases()` lists the aliases';

// ---- lookups ------------------------------------------------------------------------------------------------------

function findTool(registry: ToolRegistry, q: string): AnyTool | undefined {
  const exact = registry.get(q);
  if (exact) return exact;
  const lower = q.toLowerCase();
  const name = registry.names().find((n) => n.toLowerCase() === lower);
  return name === undefined ? undefined : registry.get(name);
}

function findPack(registry: ToolRegistry, q: string): PackInfo | undefined {
  const exact = registry.pack(q);
  if (exact) return exact;
  const lower = q.toLowerCase();
  return registry.packs().find((p) => p.name.toLowerCase() === lower);
}

function findKey(map: Readonly<Record<string, unknown>>, q: string): string | undefined {
  if (Object.hasOwn(map, q)) return q;
  const lower = q.toLowerCase();
  return Object.keys(map).find((k) => k.toLowerCase() === lower);
}

// ---- texts --------------------------------------------------------------------------------------------------------

function paramLine(p: ParamDoc): string {
  const state = p.required ? 'required' : p.hasDefault ? `default ${pyRepr(p.default)}` : 'optional';
  return `- \`${p.name}\` (${p.type}, ${state})${p.description ? `: ${p.description}` : ''}`;
}

/** The tools that go with `name` (companions.ts) that are registered here. */
function companions(s: HelpSources, name: string): string[] {
  return companionsOf(name).filter((t) => s.registry.get(t));
}

/** Tool help: `# name`, description, then Signature, Arguments, Returns, Example, Goes with, Docs (full: more). */
export function toolHelp(
  doc: ToolDoc,
  url: string,
  level: InfoLevel,
  pack?: PackInfo,
  unsent = false,
  goesWith: readonly string[] = [],
): string {
  if (level === 'list') return doc.name;
  const out = [`# ${doc.name}`, '', doc.description.trim(), '', '## Signature', '', '```', doc.signature, '```', ''];
  if (unsent)
    out.push(
      '## Calling it',
      '',
      `Not in the model's tool list by default: run it as \`ot.call(tool="${doc.name}", args={...})\` with the arguments below.`,
      '',
    );
  out.push('## Arguments', '');
  if (doc.params.length) out.push(...doc.params.map(paramLine));
  else out.push('None.');
  out.push('', '## Returns', '', doc.returns ?? 'Not documented.', '');
  const examples = level === 'full' ? doc.examples : doc.examples.slice(0, 1);
  out.push(level === 'full' && examples.length > 1 ? '## Examples' : '## Example', '', '```');
  out.push(...(examples.length ? examples : [`${doc.name}()`]), '```', '');
  if (goesWith.length) out.push('## Goes with', '', goesWith.join(', '), '');
  if (level === 'full') {
    out.push('## Source', '', doc.source, '');
    out.push(
      '## Access',
      '',
      doc.readOnly ? 'Read-only.' : 'Changes things: calls that may cause harm ask for the user’s approval.',
      '',
    );
    if (pack?.instructions) out.push(`## Pack \`${pack.name}\``, '', pack.instructions.trim(), '');
  }
  out.push('## Docs', '', url);
  return out.join('\n');
}

function packHelp(s: HelpSources, pack: PackInfo, level: InfoLevel): string {
  if (level === 'list') return pack.tools.join('\n');
  const url = packDocUrl(s, pack.name);
  if (level === 'min') return `${packText(s.registry, pack)}\n\n## Docs\n\n${url}`;
  const out = [`# ${pack.name} pack`, ''];
  if (pack.instructions) out.push(pack.instructions.trim(), '');
  out.push(`Source: ${pack.source}`, '', '## Tools', '');
  for (const name of pack.tools) {
    const doc = registeredToolDoc(s.registry, s.registry.get(name)!);
    out.push(`- \`${doc.signature}\`: ${firstLine(doc.description)}`);
  }
  out.push('', '## Docs', '', url);
  return out.join('\n');
}

function aliasHelp(s: HelpSources, alias: string, level: InfoLevel): string {
  const target = s.aliases[alias] as string;
  if (level === 'list') return alias;
  const out = [`# Alias: ${alias}`, '', `Maps to: \`${target}\``, ''];
  const tool = s.registry.resolve(alias) ?? s.registry.get(target);
  if (tool) {
    const doc = registeredToolDoc(s.registry, tool);
    out.push(
      `Use it wherever you would write \`${doc.name}\`: \`${alias}(...)\` runs \`${doc.name}(...)\` with the same keyword arguments.`,
      '',
      '```',
      doc.signature.replace(doc.name, alias),
      '```',
      '',
      `${firstLine(doc.description)} More: \`ot.help(query="${doc.name}")\`.`,
    );
    if (level === 'full') out.push('', toolHelp(doc, packDocUrl(s, tool.pack), 'min'));
  } else {
    out.push(
      `Use it like the tool: \`${alias}(...)\`. The target \`${target}\` is not available right now (is its server connected?).`,
    );
  }
  return out.join('\n');
}

function searchText(s: HelpSources, query: string, hits: HelpHit[], level: InfoLevel): string {
  if (!hits.length) return NO_MATCHES;
  const out = [`# Search results for "${query}"`];
  const shown: string[] = [];
  for (const kind of KIND_ORDER) {
    const group = hits.filter((h) => h.kind === kind);
    if (!group.length) continue;
    out.push('', `## ${HEADINGS[kind]}`, '');
    for (const h of group.slice(0, SEARCH_GROUP_LIMIT)) out.push(hitLine(s, h, level));
    if (group.length > SEARCH_GROUP_LIMIT) out.push(`- … ${group.length - SEARCH_GROUP_LIMIT} more`);
    if (kind === 'tool') shown.push(...group.slice(0, SEARCH_GROUP_LIMIT).map((h) => h.name));
  }
  out.push(...goesWithSection(s, shown, level));
  if (level !== 'list' && shown.some((name) => s.unsent.has(name)))
    out.push('', 'Tools not in your tool list run as `ot.call(tool="<name>", args={...})`.');
  return out.join('\n');
}

/** `## Goes with`: the companions of the tools a search shows that it does not show itself, each once. */
function goesWithSection(s: HelpSources, shown: readonly string[], level: InfoLevel): string[] {
  const lines: string[] = [];
  const listed = new Set(shown);
  for (const name of shown.slice(0, 3)) {
    for (const other of companions(s, name)) {
      if (listed.has(other)) continue;
      listed.add(other);
      const text = level === 'list' ? '' : `: ${brief(s.registry.get(other)!.description)}`;
      lines.push(`- ${other} (with ${name})${text}`);
    }
  }
  return lines.length ? ['', '## Goes with', '', ...lines] : [];
}

function hitLine(s: HelpSources, h: HelpHit, level: InfoLevel): string {
  const shown = h.kind === 'snippet' ? `$${h.name}` : h.name;
  if (level === 'list') return `- ${shown}`;
  switch (h.kind) {
    case 'tool': {
      if (level === 'full') {
        const doc = registeredToolDoc(s.registry, s.registry.get(h.name)!);
        return `- \`${doc.signature}\`: ${h.text}`;
      }
      return `- ${h.name}: ${h.text}`;
    }
    case 'pack': {
      const base = `- ${h.name} (${h.toolCount ?? 0} tools)`;
      return level === 'full' ? `${base}: ${packDocUrl(s, h.name)}` : base;
    }
    case 'snippet':
      return `- $${h.name}: ${h.text || '(no description)'}`;
    case 'alias':
      return `- ${h.name} -> ${h.target ?? h.text}`;
  }
}

export function overview(s: HelpSources): string {
  const packs = s.registry.packs();
  const nSnippets = Object.keys(s.snippets).length;
  const nAliases = Object.keys(s.aliases).length;
  return [
    '# Otto help',
    '',
    `${s.registry.size} tools in ${packs.length} packs (${packs.map((p) => p.name).join(', ')}), ${nSnippets} snippets, ${nAliases} aliases.`,
    '',
    '## Discover',
    '',
    '- `ot.tools()` — tools; `ot.tools(pattern="tab")` filters by name',
    '- `ot.packs()` — packs; `ot.packs(pattern="tabs", info="full")` shows a pack’s tools',
    '- `ot.snippets()` — snippets, run as `$name key=value`',
    '- `ot.aliases()` — aliases (short names for tools)',
    '- `ot.help(query="...")` — help on a tool (`tabs.list`), a pack (`tabs`), a snippet (`$name`) or an alias, or a fuzzy search (typos are fine)',
    '',
    ...(s.unsent.size
      ? [
          "## Not in the model's tool list",
          '',
          `Sent on request only (config \`agent.tool_set: default\`); run them with \`ot.call(tool="...", args={...})\`: ${[...s.unsent].join(', ')}.`,
          '',
        ]
      : []),
    '## Info levels',
    '',
    'Every discovery function takes `info`:',
    '- `info="list"` — names only',
    '- `info="min"` — names with short descriptions (the default)',
    '- `info="full"` — everything: signatures, arguments, returns, examples, source',
    '',
    '## Examples',
    '',
    '```',
    'ot.help(query="tabs.list")',
    'ot.tools(pattern="transform", info="full")',
    'tabs = tabs.list()',
    'llm.transform(input=tabs, prompt="Which tab is about cooking?")',
    '```',
    '',
    '## Tips',
    '',
    '- Calls take keyword arguments only: `pack.fn(name=value)`.',
    '- Assign results to names and pass them on; the value of the last line is the result.',
    '- In the panel, `/help <query>` is `ot.help(query="<query>")`, and commands run without the model.',
    '- Large results are stored; page through them with `ot.result(handle="...")`.',
  ].join('\n');
}

/** The text `ot.help` returns. */
export function helpText(s: HelpSources, query: string, level: InfoLevel = 'min'): string {
  const q = query.trim();
  if (!q) return overview(s);
  if (q.includes('.')) {
    const tool = findTool(s.registry, q);
    if (tool) {
      const doc = registeredToolDoc(s.registry, tool);
      return toolHelp(
        doc,
        packDocUrl(s, tool.pack),
        level,
        s.registry.pack(tool.pack),
        s.unsent.has(doc.name),
        companions(s, doc.name),
      );
    }
  }
  // A wire name (`ot__stats`), as the model calls tools.
  const wire = s.registry.fromApiName(q);
  if (wire) {
    const doc = registeredToolDoc(s.registry, wire);
    return toolHelp(
      doc,
      packDocUrl(s, wire.pack),
      level,
      s.registry.pack(wire.pack),
      s.unsent.has(doc.name),
      companions(s, doc.name),
    );
  }
  const pack = findPack(s.registry, q);
  if (pack) return packHelp(s, pack, level);
  if (q.startsWith('$')) {
    const name = findKey(s.snippets, q.slice(1));
    if (name !== undefined) return level === 'list' ? `$${name}` : snippetText(name, s.snippets[name]!);
  }
  const alias = findKey(s.aliases, q);
  if (alias !== undefined) return aliasHelp(s, alias, level);
  const term = q.startsWith('$') ? q.slice(1) : q;
  return searchText(s, q, searchHelp(s.registry, s.aliases, s.snippets, term), level);
}

export function helpTool(deps: ResolvedDeps) {
  return otTool({
    name: 'help',
    description:
      'Help on anything Otto can run. query = a tool (tabs.list), pack, $snippet or alias: its arguments and example; other words: a search (several words, synonyms, typos); none: an overview.',
    parameters: z.object({
      query: z.string().default('').describe('Tool, pack, $snippet, alias, or words to search for ("" = overview)'),
      info,
    }),
    examples: ['ot.help()', 'ot.help(query="tabs.list")', 'ot.help(query="tabz")', 'ot.help(query="web", info="list")'],
    returns:
      'Markdown text: an overview, a tool/pack/snippet/alias help page, search results grouped by kind, or "No matches found." with suggestions.',
    run: (args, ctx) => helpText(helpSources(deps.registry(), ctx.config, deps.environment), args.query, args.info),
  });
}

// ---- structured data for the panel's help browser -------------------------------------------------------------------

export interface HelpToolDetail extends ToolDoc {
  docsUrl: string;
  packInstructions?: string;
}

export function toolDetail(s: HelpSources, name: string): HelpToolDetail | undefined {
  const tool = s.registry.resolve(name) ?? findTool(s.registry, name);
  if (!tool) return undefined;
  const pack = s.registry.pack(tool.pack);
  return {
    ...registeredToolDoc(s.registry, tool),
    docsUrl: packDocUrl(s, tool.pack),
    ...(pack?.instructions ? { packInstructions: pack.instructions } : {}),
  };
}

export interface HelpIndex {
  packs: {
    name: string;
    source: string;
    instructions?: string;
    docsUrl: string;
    tools: { name: string; description: string; example?: string }[];
  }[];
  snippets: { name: string; description: string; invocation: string }[];
  aliases: { name: string; target: string }[];
}

/** `$name p=<p>` for "Try it" (every parameter without a default named), or `$name` when it cannot be expanded. */
function exampleInvocation(name: string, def: SnippetDefinition): string {
  try {
    return snippetExample(name, def).invocation;
  } catch {
    return `$${name}`;
  }
}

export function helpIndex(s: HelpSources): HelpIndex {
  return {
    packs: s.registry.packs().map((p) => ({
      name: p.name,
      source: p.source,
      ...(p.instructions ? { instructions: p.instructions } : {}),
      docsUrl: packDocUrl(s, p.name),
      tools: p.tools.map((name) => {
        const tool = s.registry.get(name)!;
        return {
          name,
          description: firstLine(tool.description),
          ...(tool.examples?.[0] ? { example: tool.examples[0] } : {}),
        };
      }),
    })),
    snippets: Object.keys(s.snippets)
      .sort()
      .map((name) => ({
        name,
        description: s.snippets[name]?.description ?? '',
        invocation: exampleInvocation(name, s.snippets[name]!),
      })),
    aliases: Object.keys(s.aliases)
      .sort()
      .map((name) => ({ name, target: s.aliases[name]! })),
  };
}
