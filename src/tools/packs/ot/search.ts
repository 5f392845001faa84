/**
 * The fuzzy index behind `ot.help` and the panel's help browser: every tool, pack, snippet and alias, with the
 * distinct words of their names and descriptions searched by fuse.js. Typos are tolerated (`tabz` finds `tabs`,
 * `frirecrawl` finds `firecrawl`, `scaffoldl` finds `scaffold`, `fecth` finds `fetch`); results come back grouped by kind, best score first.
 * (Bitap over every whole description cost ~50 ms at 2,000 tools; over the vocabulary it takes a few —
 * bench/help.bench.ts.) The index is built once per set of tools and config maps and reused while they stay the same.
 */
// The basic build: plain fuzzy patterns only (no extended or logical query syntax), 7 KB smaller.
import Fuse from 'fuse.js/basic';
import type { AnyTool } from '../../Tool.ts';
import type { ToolRegistry } from '../../ToolRegistry.ts';
import type { SnippetMap } from '../../../command/index.ts';
import { brief, firstLine } from './common.ts';
import { SYNONYM_QUALITY, SYNONYM_STEP, synonymTools } from './synonyms.ts';

export type HelpKind = 'tool' | 'pack' | 'snippet' | 'alias';
export const KIND_ORDER: readonly HelpKind[] = ['tool', 'pack', 'snippet', 'alias'];

export interface HelpItem {
  kind: HelpKind;
  /** `tabs.list`, `tabs`, `brv_research` (without `$`), `ws`. */
  name: string;
  /** First line of the description; for aliases, the target. */
  text: string;
  /** Packs: their tool count. */
  toolCount?: number;
  /** Aliases: the target. */
  target?: string;
}

export interface HelpHit extends HelpItem {
  /** fuse.js score: 0 = perfect, 1 = no match. */
  score: number;
}

/** Matches scoring worse than this (0 = perfect, 1 = nothing) are dropped. */
export const HELP_THRESHOLD = 0.4;
/** How well a query word with two adjacent letters swapped (`fecth`) matches the word it means. */
const SWAP_QUALITY = 0.9;
/** A word found in a description counts this much of the same word found in a name. */
const DESCRIPTION_WEIGHT = 0.85;

interface Index {
  tools: readonly AnyTool[];
  aliases: Readonly<Record<string, string>>;
  snippets: SnippetMap;
  packKey: string;
  items: HelpItem[];
  /** Lower-case names, for whole-query substring matches. */
  lowerNames: string[];
  /** fuse.js over the vocabulary: every distinct word of every name and description. */
  vocabulary: Fuse<string>;
  /** The same words, for exact lookups of a query word with two letters swapped. */
  words: Set<string>;
  /** word → items whose name contains it / whose description contains it. */
  inNames: Map<string, number[]>;
  inTexts: Map<string, number[]>;
  /** Qualified tool name → its item, for synonyms (synonyms.ts). */
  toolItems: Map<string, number>;
}

const indexes = new WeakMap<ToolRegistry, Index>();

function sameTools(a: readonly AnyTool[], b: readonly AnyTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function packKeyOf(registry: ToolRegistry): string {
  return registry
    .packs()
    .map((p) => `${p.name}\u0000${p.instructions ?? ''}`)
    .join('\u0001');
}

/** Words a question is made of that say nothing about which tool it needs ("a picture of the page"). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are at be by can do does for from how i in is it me my of on or the this to what when where which with'.split(
    ' ',
  ),
);

/** Lower-case words of two or more letters/digits (`web_search` → web, search). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2);
}

/** The searchable items, and for each the full text its words are indexed from (items show a brief text). */
export function helpItems(
  registry: ToolRegistry,
  aliases: Readonly<Record<string, string>>,
  snippets: SnippetMap,
): { items: HelpItem[]; texts: string[] } {
  const items: HelpItem[] = [];
  const texts: string[] = [];
  const add = (item: HelpItem, text: string): void => {
    items.push(item);
    texts.push(text);
  };
  for (const tool of registry.list())
    add({ kind: 'tool', name: `${tool.pack}.${tool.name}`, text: brief(tool.description, 200) }, tool.description);
  for (const pack of registry.packs())
    add(
      { kind: 'pack', name: pack.name, text: brief(pack.instructions, 200), toolCount: pack.tools.length },
      pack.instructions ?? '',
    );
  for (const [name, def] of Object.entries(snippets))
    add({ kind: 'snippet', name, text: firstLine(def.description) }, def.description ?? '');
  for (const [name, target] of Object.entries(aliases)) add({ kind: 'alias', name, text: target, target }, target);
  return { items, texts };
}

/** The word with each pair of adjacent, different letters swapped: `fecth` → efcth, fceth, fetch, fecht. */
export function swaps(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < word.length; i++)
    if (word[i] !== word[i + 1]) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  return out;
}

function post(map: Map<string, number[]>, word: string, item: number): void {
  const postings = map.get(word);
  if (!postings) map.set(word, [item]);
  else if (postings[postings.length - 1] !== item) postings.push(item);
}

function buildIndex(
  registry: ToolRegistry,
  tools: readonly AnyTool[],
  aliases: Readonly<Record<string, string>>,
  snippets: SnippetMap,
): Index {
  const { items, texts } = helpItems(registry, aliases, snippets);
  const inNames = new Map<string, number[]>();
  const inTexts = new Map<string, number[]>();
  items.forEach((item, i) => {
    for (const w of words(item.name)) post(inNames, w, i);
    for (const w of words(texts[i]!)) post(inTexts, w, i);
  });
  const vocabularyWords = new Set([...inNames.keys(), ...inTexts.keys()]);
  const vocabulary = new Fuse([...vocabularyWords], {
    includeScore: true,
    threshold: HELP_THRESHOLD,
    ignoreLocation: true,
  });
  return {
    tools,
    aliases,
    snippets,
    packKey: packKeyOf(registry),
    items,
    lowerNames: items.map((i) => i.name.toLowerCase()),
    vocabulary,
    words: vocabularyWords,
    inNames,
    inTexts,
    toolItems: new Map(items.flatMap((item, i) => (item.kind === 'tool' ? [[item.name, i] as const] : []))),
  };
}

/** The cached index for these tools and config maps (rebuilt when any of them changed). */
function indexFor(registry: ToolRegistry, aliases: Readonly<Record<string, string>>, snippets: SnippetMap): Index {
  const tools = registry.list();
  let index = indexes.get(registry);
  if (
    !index ||
    index.aliases !== aliases ||
    index.snippets !== snippets ||
    !sameTools(index.tools, tools) ||
    index.packKey !== packKeyOf(registry)
  ) {
    index = buildIndex(registry, tools, aliases, snippets);
    indexes.set(registry, index);
  }
  return index;
}

/**
 * Fuzzy search. Each query word is looked up with fuse.js (bitap: typos, prefixes, substrings) in the vocabulary of
 * all names and descriptions; an item scores by how well each query word matched one of its words (name words count
 * fully, description words at DESCRIPTION_WEIGHT, a synonym of its name at SYNONYM_QUALITY), averaged over the
 * query's words — so "web fetch", "fetch web" and "wbe fetch" all find `web.fetch`, and `frirecrawl` finds
 * `firecrawl`. An item that matches only some words of the query well is a hit too, ranked below the ones that match
 * more: "console errors network requests" finds dom.console and dom.network. A name containing the whole query scores
 * (near) 0. Searching the vocabulary instead of every description keeps 2,000 tools within a few milliseconds.
 * Hits come back grouped by kind (tools, packs, snippets, aliases), each group best score first.
 */
export function searchHelp(
  registry: ToolRegistry,
  aliases: Readonly<Record<string, string>>,
  snippets: SnippetMap,
  query: string,
  limit = 200,
): HelpHit[] {
  const q = query.trim();
  if (!q) return [];
  const index = indexFor(registry, aliases, snippets);
  const scores = new Map<number, number>();

  const lower = q.toLowerCase();
  index.lowerNames.forEach((name, i) => {
    if (name === lower) scores.set(i, 0);
    else if (lower.length >= 2 && name.includes(lower)) scores.set(i, 0.01);
  });

  const all = [...new Set(words(q))];
  const meaningful = all.filter((w) => !STOP_WORDS.has(w));
  const qWords = meaningful.length ? meaningful : all;
  const quality = new Map<number, Float64Array>();
  const credit = (postings: number[] | undefined, k: number, g: number): void => {
    if (!postings) return;
    for (const i of postings) {
      let row = quality.get(i);
      if (!row) quality.set(i, (row = new Float64Array(qWords.length)));
      if (g > row[k]!) row[k] = g;
    }
  };
  qWords.forEach((qw, k) => {
    for (const hit of index.vocabulary.search(qw)) {
      const g = 1 - (hit.score ?? 0);
      credit(index.inNames.get(hit.item), k, g);
      credit(index.inTexts.get(hit.item), k, g * DESCRIPTION_WEIGHT);
    }
    // Bitap counts two swapped letters as two errors, too many for a short word; a swap is one slip of the fingers.
    for (const w of swaps(qw)) {
      if (!index.words.has(w)) continue;
      credit(index.inNames.get(w), k, SWAP_QUALITY);
      credit(index.inTexts.get(w), k, SWAP_QUALITY * DESCRIPTION_WEIGHT);
    }
    // The words people use for a tool whose name and description say it otherwise: "errors" → dom.console.
    // The first tool a synonym names is the one it means most: each next one counts a little less.
    synonymTools(qw).forEach((name, rank) => {
      const item = index.toolItems.get(name);
      if (item !== undefined) credit([item], k, SYNONYM_QUALITY - rank * SYNONYM_STEP);
    });
  });
  for (const [i, row] of quality) {
    let sum = 0;
    let best = 0;
    for (const g of row) {
      sum += g;
      best = Math.max(best, g);
    }
    const score = 1 - sum / row.length;
    // Several words: an item that matches one of them well is a hit too, ranked by how much of the query it covers.
    if (score > HELP_THRESHOLD && best < 1 - HELP_THRESHOLD) continue;
    const had = scores.get(i);
    if (had === undefined || score < had) scores.set(i, score);
  }

  const hits: HelpHit[] = [];
  for (const [i, score] of scores) hits.push({ ...index.items[i]!, score: Math.round(score * 1000) / 1000 });
  hits.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.score - b.score || (a.name < b.name ? -1 : 1),
  );
  if (hits.length <= limit) return hits;
  // Keep the best `limit` overall, still grouped.
  const best = new Set([...hits].sort((a, b) => a.score - b.score).slice(0, limit));
  return hits.filter((h) => best.has(h));
}

/** Drops the cached index of `registry` (ot.reload); the others go with their registry. */
export function clearHelpCache(registry?: ToolRegistry): void {
  if (registry) indexes.delete(registry);
}
