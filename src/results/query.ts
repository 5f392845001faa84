/**
 * `ot.result` query logic (docs/specs/002-ot-tools.md "Query Stored Results" + the reference's later additions),
 * independent of where the lines live: a `LineSource` gives ranges of lines and a front-to-back scan;
 * src/storage/results.ts provides one over IndexedDB chunks, tests use `arraySource`.
 *
 * Modes (all offsets 1-indexed, as Claude's Read tool):
 *   page     lines offset … offset+limit-1 of the stored result.
 *   tail     the last `tail` lines (of the result, or of the matches when searching); overrides offset/limit.
 *   search   regex, case-insensitive; offset/limit apply to the matching lines, `matches` is their count and
 *            `total_lines` stays the stored result's line count (the spec's meaning; the reference reported the match
 *            count there); `line_numbers` gives each returned line's position in the result.
 *   fuzzy    fuse.js over every line (bounded, see FUZZY_*), lines above the threshold best first; `scores` (0 = exact).
 *   context  with a search: `context` lines before and after each returned match, grep style — `42:match`,
 *            `41-context`, `--` between separate groups (regex: in line order, touching groups merged, every
 *            matching line marked; fuzzy: one group per hit, best first). Offset/limit and `returned` then count
 *            matches, not lines.
 * Every reply has `progress` ("lines A-B of N (P%)") and `next_query` (the exact call for the next page, or null).
 * A page is also cut to PAGE_MAX_CHARS characters (`note` says so; `returned`, `has_more` and `next_query` follow the
 * cut), so even 1,000 lines of 2,000 characters never flood the model's context.
 */
// The basic build: plain fuzzy patterns only (no extended or logical query syntax), 7 KB smaller.
import Fuse from 'fuse.js/basic';
import { errorMessage } from '../shared/errorMessage.ts';
import type { LineSource } from './lineSource.ts';
import { scanMatches } from './regexScan.ts';

/** Largest page; a bigger `limit` is clamped (the reply's `limit` says so) to keep one page within context. */
export const MAX_LIMIT = 1000;
/** A page's lines are cut to about this many characters (at least one line is always returned). */
export const PAGE_MAX_CHARS = 40_000;
/** Largest `context`. */
export const MAX_CONTEXT = 50;
/** Fuzzy search scans at most this many lines... */
export const FUZZY_MAX_LINES = 200_000;
/** ...and stops at the first batch boundary after this many milliseconds (then reports `truncated`). */
export const FUZZY_TIME_BUDGET_MS = 1_000;
/** Lines handed to fuse.js at once; the time budget is checked between batches. */
export const FUZZY_BATCH = 5_000;
/** fuse.js threshold: 0 = exact, 1 = anything. Lines whose match is worse are dropped. */
export const FUZZY_THRESHOLD = 0.4;

export type ResultErrorCode =
  'invalid_offset' | 'invalid_limit' | 'invalid_argument' | 'invalid_pattern' | 'not_found' | 'expired';

/** A query that cannot be answered; `message` is the exact text of the spec / reference. */
export class ResultQueryError extends Error {
  constructor(
    readonly code: ResultErrorCode,
    message: string,
  ) {
    super(message);
    this.name = code === 'not_found' || code === 'expired' ? 'ResultNotFoundError' : 'ValueError';
  }
}

export interface QueryParams {
  /** 1-indexed first line (or match); default 1. */
  offset?: number;
  /** Lines (or matches) per page; default 100, clamped to MAX_LIMIT. */
  limit?: number;
  /** Regex (case-insensitive), or fuzzy text with `fuzzy`; "" = no search. */
  search?: string;
  fuzzy?: boolean;
  /** The last N lines / matches. */
  tail?: number;
  /** Lines of context around each match (needs `search`). */
  context?: number;
}

export interface NormalizedQuery {
  offset: number;
  limit: number;
  search: string;
  fuzzy: boolean;
  tail: number | undefined;
  context: number;
  regex: RegExp | undefined;
}

export interface ResultPage {
  handle: string;
  /** Lines in the stored result (docs/specs/002-ot-tools.md, "Query response format"), searching or not. */
  total_lines: number;
  /** Searching: how many lines match — what offset, has_more and progress count. */
  matches?: number;
  /** Lines returned (matches, in context mode). */
  returned: number;
  /** 1-indexed position of the first returned line among the lines paged (all lines, or the matches). */
  offset: number;
  /** The page size used (after clamping). */
  limit: number;
  has_more: boolean;
  progress: string;
  next_query: string | null;
  search?: string;
  fuzzy?: boolean;
  tail?: number;
  context?: number;
  /** Fuzzy only: lines examined, and whether the bound stopped the scan before the end. */
  fuzzy_scanned_lines?: number;
  truncated?: boolean;
  note?: string;
  lines: string[];
  /** Search/fuzzy without context: 1-indexed line of each returned line in the stored result. */
  line_numbers?: number[];
  /** Fuzzy only: fuse.js score of each returned line (0 = perfect), ascending. */
  scores?: number[];
}

/** A LineSource over lines in memory (tests, small results). */
export function arraySource(lines: readonly string[], batch = 1000): LineSource {
  return {
    totalLines: lines.length,
    read: (from, to) => Promise.resolve(lines.slice(Math.max(0, from), Math.max(0, to))),
    scan: (visit) => {
      for (let i = 0; i < lines.length; i += batch) if (visit(i, lines.slice(i, i + batch)) === false) break;
      return Promise.resolve();
    },
    scanText: (visit) => {
      for (let i = 0; i < lines.length; i += batch) if (visit(i, lines.slice(i, i + batch).join('\n')) === false) break;
      return Promise.resolve();
    },
  };
}

function checkInteger(name: string, value: number): void {
  if (!Number.isInteger(value))
    throw new ResultQueryError('invalid_argument', `${name} must be an integer, got ${value}`);
}

/** The regex of a search, or the exact `Invalid search pattern: <reason>` error. */
export function compileSearch(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    const message = errorMessage(error);
    // V8: "Invalid regular expression: /(/i: Unterminated group" → "Unterminated group".
    const reason = message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    throw new ResultQueryError('invalid_pattern', `Invalid search pattern: ${reason}`);
  }
}

/** Defaults and validation, in the reference's order: offset, limit, then our additions, then the pattern. */
export function normalizeQuery(params: QueryParams = {}): NormalizedQuery {
  const offset = params.offset ?? 1;
  const limit = params.limit ?? 100;
  checkInteger('offset', offset);
  if (offset < 1) throw new ResultQueryError('invalid_offset', `offset must be >= 1 (1-indexed), got ${offset}`);
  checkInteger('limit', limit);
  if (limit < 1) throw new ResultQueryError('invalid_limit', `limit must be >= 1, got ${limit}`);
  const search = params.search ?? '';
  const fuzzy = params.fuzzy ?? false;
  const tail = params.tail ?? undefined;
  if (tail !== undefined) {
    checkInteger('tail', tail);
    if (tail < 1) throw new ResultQueryError('invalid_argument', `tail must be >= 1, got ${tail}`);
  }
  const context = params.context ?? 0;
  checkInteger('context', context);
  if (context < 0) throw new ResultQueryError('invalid_argument', `context must be >= 0, got ${context}`);
  if (context > 0 && !search)
    throw new ResultQueryError('invalid_argument', 'context needs a search pattern (it shows lines around each match)');
  const regex = search && !fuzzy ? compileSearch(search) : undefined;
  return {
    offset,
    limit: Math.min(limit, MAX_LIMIT),
    search,
    fuzzy: fuzzy && search !== '',
    tail: tail === undefined ? undefined : Math.min(tail, MAX_LIMIT),
    context: Math.min(context, MAX_CONTEXT),
    regex,
  };
}

/** A Python/command-language single-quoted string literal. */
export function quoteArg(text: string): string {
  let out = "'";
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (c === '\\') out += '\\\\';
    else if (c === "'") out += "\\'";
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return `${out}'`;
}

/** The exact `ot.result(...)` call for a page. */
export function resultCall(
  handle: string,
  args: { offset: number; limit: number; search?: string; fuzzy?: boolean; context?: number },
): string {
  let call = `ot.result(handle=${quoteArg(handle)}, offset=${args.offset}, limit=${args.limit}`;
  if (args.search) call += `, search=${quoteArg(args.search)}`;
  if (args.search && args.fuzzy) call += ', fuzzy=True';
  if (args.search && args.context) call += `, context=${args.context}`;
  return `${call})`;
}

/** "lines A-B of N (P%)" — P is how far B is through N, rounded down so 100% means the end. */
export function progressText(offset: number, returned: number, total: number, unit = 'lines'): string {
  if (total === 0) return `no ${unit}`;
  if (returned === 0) return `no ${unit} at offset ${offset}: ${total} in total`;
  const last = offset + returned - 1;
  return `${unit} ${offset}-${last} of ${total} (${Math.floor((last * 100) / total)}%)`;
}

interface Hit {
  /** 0-based line index in the stored result. */
  index: number;
  text: string;
  score?: number;
}

interface FuzzyOutcome {
  hits: Hit[];
  scanned: number;
  truncated: boolean;
}

export interface FuzzyBounds {
  maxLines?: number;
  budgetMs?: number;
  batch?: number;
  threshold?: number;
  clock?: () => number;
}

/** Fuzzy search over a source, bounded by FUZZY_MAX_LINES and FUZZY_TIME_BUDGET_MS; best score first, then line. */
export async function fuzzySearch(
  source: LineSource,
  pattern: string,
  bounds: FuzzyBounds = {},
): Promise<FuzzyOutcome> {
  const maxLines = bounds.maxLines ?? FUZZY_MAX_LINES;
  const budget = bounds.budgetMs ?? FUZZY_TIME_BUDGET_MS;
  const batchSize = bounds.batch ?? FUZZY_BATCH;
  const clock = bounds.clock ?? (() => performance.now());
  const options = {
    includeScore: true,
    ignoreLocation: true,
    threshold: bounds.threshold ?? FUZZY_THRESHOLD,
    shouldSort: false,
  };
  const started = clock();
  const hits: Hit[] = [];
  let scanned = 0;
  let truncated = false;
  let pending: string[] = [];
  let pendingStart = 0;
  const flush = (): void => {
    if (!pending.length) return;
    for (const r of new Fuse(pending, options).search(pattern))
      hits.push({ index: pendingStart + r.refIndex, text: r.item, score: r.score ?? 0 });
    scanned += pending.length;
    pending = [];
  };
  await source.scan((start, lines) => {
    let i = 0;
    while (i < lines.length) {
      if (!pending.length) pendingStart = start + i;
      const room = Math.min(batchSize - pending.length, maxLines - scanned - pending.length);
      const take = lines.slice(i, i + room);
      pending.push(...take);
      i += take.length;
      if (pending.length >= batchSize || scanned + pending.length >= maxLines) {
        flush();
        if (scanned >= maxLines || clock() - started >= budget) {
          truncated = scanned < source.totalLines;
          return false;
        }
      }
    }
    return true;
  });
  if (!truncated) flush();
  hits.sort((a, b) => a.score! - b.score! || a.index - b.index);
  return { hits, scanned, truncated };
}

/** Groups of context lines around each hit, grep style (`n:match`, `n-context`, `--` between groups). */
async function withContext(
  source: LineSource,
  hits: readonly Hit[],
  context: number,
  regex: RegExp | undefined,
): Promise<string[]> {
  const ordered = regex !== undefined;
  // Ranges [from, to] (0-based, inclusive) around each hit; merged when ordered by line and touching.
  const groups: { from: number; to: number; matches: Set<number> }[] = [];
  for (const h of hits) {
    const from = Math.max(0, h.index - context);
    const to = Math.min(source.totalLines - 1, h.index + context);
    const last = groups[groups.length - 1];
    if (ordered && last && from <= last.to + 1) {
      last.to = Math.max(last.to, to);
      last.matches.add(h.index);
    } else groups.push({ from, to, matches: new Set([h.index]) });
  }
  const out: string[] = [];
  for (const g of groups) {
    if (out.length) out.push('--');
    const lines = await source.read(g.from, g.to + 1);
    lines.forEach((text, k) => {
      const n = g.from + k;
      // Every matching line is marked, also one outside this page (regex); fuzzy marks the page's hits.
      const match = g.matches.has(n) || (regex !== undefined && regex.test(text));
      out.push(`${n + 1}${match ? ':' : '-'}${text}`);
    });
  }
  return out;
}

export interface RunQueryOptions {
  fuzzy?: FuzzyBounds;
  /** Character budget of one page's lines (default PAGE_MAX_CHARS). */
  maxChars?: number;
}

/** How many of `texts` fit in `budget` characters (one newline each), taken from the start or the end; at least 1. */
function fitting(texts: readonly string[], budget: number, fromEnd: boolean): number {
  let used = 0;
  for (let k = 0; k < texts.length; k++) {
    used += texts[fromEnd ? texts.length - 1 - k : k]!.length + 1;
    if (used > budget) return Math.max(1, k);
  }
  return texts.length;
}

const cutNote = (budget: number): string =>
  `page cut to about ${budget} characters to stay within context; next_query continues after the last line returned`;

/** Answers one `ot.result` query over `source`. Throws ResultQueryError for invalid arguments. */
export async function runQuery(
  handle: string,
  source: LineSource,
  params: QueryParams | NormalizedQuery = {},
  opts: RunQueryOptions = {},
): Promise<ResultPage> {
  const q = 'regex' in params ? params : normalizeQuery(params);
  const stored = source.totalLines;

  const budget = opts.maxChars ?? PAGE_MAX_CHARS;
  const tailMode = q.tail !== undefined;

  if (!q.search) {
    let offset = tailMode ? Math.max(1, stored - q.tail! + 1) : q.offset;
    const limit = q.tail ?? q.limit;
    let lines = await source.read(offset - 1, Math.min(offset - 1 + limit, stored));
    const keep = fitting(lines, budget, tailMode);
    const cut = keep < lines.length;
    if (cut) {
      if (tailMode) offset += lines.length - keep;
      lines = tailMode ? lines.slice(lines.length - keep) : lines.slice(0, keep);
    }
    const result = page(handle, q, { offset, limit, total: stored, lines, tailMode });
    if (cut) result.note = cutNote(budget);
    return result;
  }

  let hits: Hit[];
  let total: number;
  let offset: number;
  let limit = q.limit;
  const extra: Partial<ResultPage> = {};
  if (q.fuzzy) {
    const f = await fuzzySearch(source, q.search, opts.fuzzy);
    total = f.hits.length;
    offset = q.tail !== undefined ? Math.max(1, total - q.tail + 1) : q.offset;
    if (q.tail !== undefined) limit = q.tail;
    hits = f.hits.slice(offset - 1, offset - 1 + limit);
    extra.fuzzy_scanned_lines = f.scanned;
    if (f.truncated) {
      extra.truncated = true;
      extra.note = `fuzzy search stopped after ${f.scanned} of ${stored} lines (bound: ${FUZZY_MAX_LINES} lines or ${FUZZY_TIME_BUDGET_MS} ms); use a regex search to cover every line`;
    }
  } else {
    const re = q.regex!;
    total = 0;
    hits = [];
    if (q.tail !== undefined) {
      // Ring buffer of the last `tail` matches.
      const ring: Hit[] = new Array<Hit>(q.tail);
      await scanMatches(source, re, (index, text) => (ring[total++ % q.tail!] = { index, text }));
      const n = Math.min(total, q.tail);
      for (let k = total - n; k < total; k++) hits.push(ring[k % q.tail]!);
      offset = Math.max(1, total - q.tail + 1);
      limit = q.tail;
    } else {
      const from = q.offset - 1;
      const to = from + q.limit;
      // Every match is counted (`matches`), so the scan goes to the end even once the page is full.
      await scanMatches(source, re, (index, text) => {
        if (total >= from && total < to) hits.push({ index, text });
        total++;
      });
      offset = q.offset;
    }
  }

  // Cut to the character budget: matches from the end in tail mode, else from the start.
  let rendered: string[] | undefined;
  let cut = false;
  const trim = (keep: number): void => {
    if (keep >= hits.length) return;
    cut = true;
    if (tailMode) {
      offset += hits.length - keep;
      hits = hits.slice(hits.length - keep);
    } else hits = hits.slice(0, keep);
  };
  if (q.context) {
    const regex = q.fuzzy ? undefined : q.regex;
    rendered = await withContext(source, hits, q.context, regex);
    let size = rendered.reduce((n, l) => n + l.length + 1, 0);
    while (size > budget && hits.length > 1) {
      trim(Math.max(1, Math.min(hits.length - 1, Math.floor((hits.length * budget) / size))));
      rendered = await withContext(source, hits, q.context, regex);
      size = rendered.reduce((n, l) => n + l.length + 1, 0);
    }
  } else {
    trim(
      fitting(
        hits.map((h) => h.text),
        budget,
        tailMode,
      ),
    );
  }

  const result = page(handle, q, {
    offset,
    limit,
    total,
    lines: hits.map((h) => h.text),
    tailMode,
    unit: q.context ? 'matches' : 'lines',
    stored,
  });
  Object.assign(result, extra);
  if (cut) result.note = result.note ? `${result.note}; ${cutNote(budget)}` : cutNote(budget);
  if (rendered) {
    result.lines = rendered;
  } else {
    result.line_numbers = hits.map((h) => h.index + 1);
    if (q.fuzzy) result.scores = hits.map((h) => Math.round(h.score! * 1000) / 1000);
  }
  // Keep `lines` and its parallel arrays last, after the short fields.
  const { lines, line_numbers, scores, ...head } = result;
  return { ...head, lines, ...(line_numbers ? { line_numbers } : {}), ...(scores ? { scores } : {}) };
}

function page(
  handle: string,
  q: NormalizedQuery,
  p: {
    offset: number;
    limit: number;
    /** What is paged: the stored lines, or the matches when `stored` is given. */
    total: number;
    lines: string[];
    tailMode: boolean;
    unit?: string;
    /** Searching: the stored result's line count. */
    stored?: number;
  },
): ResultPage {
  const returned = p.lines.length;
  const hasMore = !p.tailMode && p.offset - 1 + returned < p.total;
  const out: ResultPage = {
    handle,
    total_lines: p.stored ?? p.total,
    ...(p.stored !== undefined ? { matches: p.total } : {}),
    returned,
    offset: p.offset,
    limit: p.limit,
    has_more: hasMore,
    progress: progressText(p.offset, returned, p.total, p.unit),
    next_query: hasMore
      ? resultCall(handle, {
          offset: p.offset + returned,
          limit: p.limit,
          search: q.search,
          fuzzy: q.fuzzy,
          context: q.context,
        })
      : null,
    lines: p.lines,
  };
  if (q.search) out.search = q.search;
  if (q.fuzzy) out.fuzzy = true;
  if (q.tail !== undefined) out.tail = q.tail;
  if (q.context) out.context = q.context;
  return out;
}
