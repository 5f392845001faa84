/**
 * Reading a whole tab: each frame's content script sends its outline tree, and the worker stitches each child
 * frame's tree into its parent's `frame` node (matching a child to its <iframe> by its index in the parent's
 * `window.frames`, or by URL), renders the tab once and applies the caller's character budget to the rendered lines.
 * Also search (find, query) across frames, visible text and the article reader.
 */
import {
  DescribeReply,
  FindReply,
  QueryReply,
  REF_RE,
  PageHtml,
  ReadReply,
  SnapshotReply,
  TextReply,
  type ContentRequest,
  type FrameSlot,
} from '../shared/contentMessages.ts';
import type { OutlineNode } from '../shared/outlineNode.ts';
import { renderOutline } from '../shared/outline.ts';
import { truncateOutline } from '../shared/outlineBudget.ts';
import { wrapUntrusted } from '../shared/untrusted.ts';
import {
  ensureContentScript,
  ensureReader,
  frameOfRef,
  PAGE_ERROR,
  PageError,
  prefixFor,
  requestContent,
  requestForRef,
} from './contentRouter.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export const DEFAULT_SNAPSHOT_CHARS = 40_000;
const MAX_FRAME_DEPTH = 6;
const MAX_FRAMES = 60;

interface FrameInfo {
  frameId: number;
  parentFrameId: number;
  url: string;
}

async function framesOf(tabId: number): Promise<FrameInfo[]> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? [];
  return frames.map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url }));
}

const isRef = (s: string): boolean => REF_RE.test(s.trim());

export interface SnapshotOptions {
  /** A ref (routed to its frame) or a CSS selector (in `frameId`, default the top frame). */
  root?: string;
  /** Budget for the stitched outline (default 40,000 characters). */
  maxChars?: number;
  /** Stitch child frames in (default true). */
  frames?: boolean;
  frameId?: number;
}

export interface PageSnapshot {
  url: string;
  title: string;
  /** The stitched outline, truncated to the budget (with a note saying what was cut). */
  text: string;
  refs: number;
  newRefs: number;
  frames: number;
  truncated: boolean;
  note?: string;
  scroll: { y: number; height: number; viewport: number };
  ms: number;
  /** Since when the top frame's click listeners are known (content/listeners.ts). */
  listeners?: 'load' | 'late' | 'none';
}

interface Stitched {
  /** The frame's tree with its child frames' trees inside their `frame` nodes. */
  nodes: OutlineNode[];
  refs: number;
  newRefs: number;
  frames: number;
  /** What the frames' walks left out (budget, time, above the viewport). */
  notes: string[];
}

/** How long a frame's walk may take: it returns what it has before the worker's 30 s request timeout. */
export const SNAPSHOT_TIME_MS = 20_000;

interface FrameRequest {
  root?: string;
  maxChars: number;
  /** When the whole snapshot must be done (Date.now()), so nested frames get what is left. */
  until: number;
}

async function snapshotFrame(tabId: number, frameId: number, fr: FrameRequest): Promise<SnapshotReply> {
  const timeMs = Math.max(500, Math.min(SNAPSHOT_TIME_MS, fr.until - Date.now()));
  const req: ContentRequest = {
    type: 'dom.snapshot',
    prefix: prefixFor(frameId),
    maxChars: fr.maxChars,
    timeMs,
    ...(fr.root ? { root: fr.root } : {}),
  };
  return SnapshotReply.parse(await requestContent(tabId, frameId, req));
}

function sameUrl(a: string, b: string): boolean {
  if (!a || !b) return false;
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.origin === y.origin && x.pathname === y.pathname && x.search === y.search;
  } catch {
    return a === b;
  }
}

async function stitch(
  tabId: number,
  reply: SnapshotReply,
  frameId: number,
  all: FrameInfo[],
  depth: number,
  budget: { frames: number },
  fr: FrameRequest,
): Promise<Stitched> {
  const out: Stitched = {
    nodes: reply.tree,
    refs: reply.refs,
    newRefs: reply.newRefs,
    frames: 0,
    notes: (reply.notes ?? []).map((n) => (frameId ? `Frame ${frameId}: ${n}` : n)),
  };
  if (!reply.frames.length) return out;
  const children = all.filter((f) => f.parentFrameId === frameId);
  type Child = { info: FrameInfo; reply?: SnapshotReply; error?: string };
  const results: Child[] = await Promise.all(
    children.map(async (info): Promise<Child> => {
      if (depth >= MAX_FRAME_DEPTH || budget.frames <= 0) return { info, error: 'frame nesting too deep' };
      budget.frames--;
      try {
        return { info, reply: await snapshotFrame(tabId, info.frameId, { maxChars: fr.maxChars, until: fr.until }) };
      } catch (e) {
        return { info, error: errorMessage(e) };
      }
    }),
  );
  const used = new Set<Child>();
  const match = (slot: FrameSlot): Child | undefined => {
    const byIndex =
      slot.index >= 0 ? results.find((c) => !used.has(c) && c.reply?.frameIndex === slot.index) : undefined;
    const byUrl =
      byIndex ??
      results.find(
        (c) => !used.has(c) && (sameUrl(c.reply?.url ?? c.info.url, slot.src) || sameUrl(c.info.url, slot.src)),
      );
    if (byUrl) used.add(byUrl);
    return byUrl;
  };
  // In document order, as the slots were numbered and matched.
  for (const node of frameNodes(out.nodes)) {
    const slot = node.frame === undefined ? undefined : reply.frames[node.frame];
    const child = slot ? match(slot) : undefined;
    if (!child?.reply) {
      const why = child?.error
        ? `content unavailable: ${child.error.slice(0, 160)}`
        : 'content unavailable (the frame has no readable document)';
      node.children = [{ kind: 'text', text: `(${why})`, children: [] }];
      continue;
    }
    const inner = await stitch(tabId, child.reply, child.info.frameId, all, depth + 1, budget, fr);
    out.notes.push(...inner.notes);
    out.refs += inner.refs;
    out.newRefs += inner.newRefs;
    out.frames += 1 + inner.frames;
    node.children = inner.nodes;
  }
  return out;
}

function frameNodes(nodes: OutlineNode[], out: OutlineNode[] = []): OutlineNode[] {
  for (const n of nodes) {
    if (n.kind === 'frame') out.push(n);
    else frameNodes(n.children, out);
  }
  return out;
}

/** The outline of a tab (all frames stitched in), within a character budget. */
export async function snapshotPage(tabId: number, opts: SnapshotOptions = {}): Promise<PageSnapshot> {
  const t0 = performance.now();
  const frameId = opts.root && isRef(opts.root) ? frameOfRef(opts.root) : (opts.frameId ?? 0);
  const maxChars = opts.maxChars ?? DEFAULT_SNAPSHOT_CHARS;
  const fr: FrameRequest = {
    maxChars,
    until: Date.now() + SNAPSHOT_TIME_MS,
    ...(opts.root ? { root: opts.root } : {}),
  };
  const [reply, all] = await Promise.all([
    snapshotFrame(tabId, frameId, fr),
    opts.frames === false ? Promise.resolve([]) : framesOf(tabId),
  ]);
  const stitched = await stitch(tabId, reply, frameId, all, 0, { frames: MAX_FRAMES }, { maxChars, until: fr.until });
  // The walks' notes (what they left out) go after the outline; the truncation keeps room for them in the budget.
  const walkNote = stitched.notes.length ? `[${stitched.notes.join(' ')}]` : '';
  const nodes: OutlineNode[] = stitched.nodes.length
    ? stitched.nodes
    : [{ kind: 'text', text: '(nothing visible)', children: [] }];
  const t = truncateOutline(renderOutline(nodes), maxChars, walkNote.length ? walkNote.length + 1 : 0);
  const notes = [t.note, walkNote].filter(Boolean);
  const result: PageSnapshot = {
    url: reply.url,
    title: reply.title,
    text: walkNote ? `${t.text}\n${walkNote}` : t.text,
    refs: stitched.refs,
    newRefs: stitched.newRefs,
    frames: stitched.frames,
    truncated: notes.length > 0,
    scroll: reply.scroll,
    ms: Math.round(performance.now() - t0),
  };
  if (reply.listeners) result.listeners = reply.listeners;
  if (notes.length) result.note = notes.join(' ');
  return result;
}

/**
 * What the snapshot says when the page's click listeners are not all known (content/listenerRegistry.ts): the
 * registry came after the page loaded (`late`: it cannot see the past), or there is none (`none`: Otto reads pages
 * outside a run without putting anything in their world). A load during a run gets it before the page's scripts
 * (page/pageDevCapture.ts). Controls are still found by what the page shows (cursors, hover rules, tabindex, handler
 * attributes), and dom.find gives any text's element a ref, so the note points there and never at loading the page
 * again: that would lose what the user did on it (#43).
 */
export const LISTENERS_NOTE = {
  late: '; listeners the page added before Otto came are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom.find its text to get a ref for its element',
  none: "; the page's script listeners are unseen, so a control that shows no other sign (cursor, tabindex, role) has no ref: dom.find its text to get a ref for its element",
} as const;

/** The snapshot as the model should see it: a line of facts, then the page-derived outline inside a boundary. */
export function formatSnapshot(s: PageSnapshot): string {
  const more = s.scroll.height > s.scroll.y + s.scroll.viewport + 2 ? ', more below' : '';
  const facts =
    `${s.refs} refs${s.newRefs ? ` (${s.newRefs} new since the last snapshot, marked [new])` : ''}` +
    `${s.frames ? `, ${s.frames} frame${s.frames === 1 ? '' : 's'} included` : ''}; scrolled to ${s.scroll.y} of ${s.scroll.height}px${more}` +
    `${s.truncated ? '; TRUNCATED (see the note at the end)' : ''}` +
    (s.listeners === 'late' || s.listeners === 'none' ? LISTENERS_NOTE[s.listeners] : '') +
    '.';
  return `Page snapshot — ${facts}\n${wrapUntrusted(`title: ${s.title}\nurl: ${s.url}\n${s.text}`)}`;
}

export interface FindOptions {
  text?: string;
  role?: string;
  name?: string;
  limit?: number;
}

export interface PageFind {
  matches: FindReply['matches'];
  total: number;
  /** Text matches in hidden elements, all frames together. */
  hidden?: { count: number; where: string[] };
  /** Frames that could not be searched, with why. */
  skipped: string[];
  /** Frames searched only in part (the search budget or time ran out), with how much (page-derived text inside). */
  notes?: string[];
}

/** Searches every frame's outline by text, role or name. */
export async function findInPage(tabId: number, opts: FindOptions): Promise<PageFind> {
  if (!opts.text && !opts.role && !opts.name) throw new PageError('Say what to find: text, role or name.');
  const limit = opts.limit ?? 20;
  await ensureContentScript(tabId);
  const frames = await framesOf(tabId);
  const ids = frames.length ? frames.map((f) => f.frameId) : [0];
  const skipped: string[] = [];
  const replies = await Promise.all(
    ids.map(async (frameId) => {
      try {
        const req: ContentRequest = { type: 'dom.find', prefix: prefixFor(frameId), limit, timeMs: SNAPSHOT_TIME_MS };
        if (opts.text) req.text = opts.text;
        if (opts.role) req.role = opts.role;
        if (opts.name) req.name = opts.name;
        return FindReply.parse(await requestContent(tabId, frameId, req));
      } catch (e) {
        if (frameId === 0) throw e;
        skipped.push(`frame ${frameId}: ${errorMessage(e).slice(0, 120)}`);
        return { matches: [], total: 0 };
      }
    }),
  );
  const notes = replies.flatMap((r, i) => (r.note ? [ids[i] ? `Frame ${ids[i]}: ${r.note}` : r.note] : []));
  const out: PageFind = {
    matches: replies.flatMap((r) => r.matches).slice(0, limit),
    total: replies.reduce((n, r) => n + r.total, 0),
    skipped,
  };
  if (notes.length) out.notes = notes;
  const hiddenCount = replies.reduce((n, r) => n + (('hidden' in r && r.hidden?.count) || 0), 0);
  if (hiddenCount)
    out.hidden = {
      count: hiddenCount,
      where: replies.flatMap((r) => ('hidden' in r && r.hidden?.where) || []).slice(0, 4),
    };
  return out;
}

/** The element a ref or selector (top frame) names, as the approval card describes it (issue #31). */
export async function describeInPage(
  tabId: number,
  target: { ref?: string; selector?: string },
  /** Also ask whether the element matches this selector (`matches` in the reply). */
  matches?: string,
): Promise<DescribeReply> {
  const also = matches ? { matches } : {};
  if (target.ref)
    return DescribeReply.parse(
      await requestForRef(tabId, target.ref, { type: 'dom.describe', ref: target.ref, ...also }, { inject: false }),
    );
  const req: ContentRequest = {
    type: 'dom.describe',
    prefix: '',
    ...(target.selector ? { selector: target.selector } : {}),
    ...also,
  };
  // A selector may be the first call on a tab: inject like the action would (a ref implies a live content script).
  return DescribeReply.parse(await requestContent(tabId, 0, req));
}

/** CSS selector → matching elements with refs, in every frame (or one). */
export async function queryPage(
  tabId: number,
  selector: string,
  opts: { limit?: number; frameId?: number } = {},
): Promise<QueryReply> {
  const limit = opts.limit ?? 50;
  if (opts.frameId === undefined) await ensureContentScript(tabId);
  const ids = opts.frameId !== undefined ? [opts.frameId] : (await framesOf(tabId)).map((f) => f.frameId);
  const replies = await Promise.all(
    (ids.length ? ids : [0]).map(async (frameId) => {
      try {
        return QueryReply.parse(
          await requestContent(tabId, frameId, {
            type: 'dom.query',
            prefix: prefixFor(frameId),
            selector,
            limit,
            timeMs: SNAPSHOT_TIME_MS,
          }),
        );
      } catch (e) {
        if (frameId === 0 || opts.frameId !== undefined) throw e;
        return { matches: [], total: 0 };
      }
    }),
  );
  return {
    matches: replies.flatMap((r) => r.matches).slice(0, limit),
    total: replies.reduce((n, r) => n + r.total, 0),
    ...(replies.some((r) => r.partial) ? { partial: true as const } : {}),
    ...firstCountedUpTo(replies),
    ...firstSearchedUpTo(replies),
  };
}

/** The first frame (in frame order) whose count its element budget stopped names where. */
function firstCountedUpTo(replies: QueryReply[]): { countedUpTo?: string } {
  const at = replies.find((r) => r.countedUpTo)?.countedUpTo;
  return at ? { countedUpTo: at } : {};
}

/** Likewise for the search budget (#24 few-match walks): that frame's elements searched and where it stopped. */
function firstSearchedUpTo(replies: QueryReply[]): Pick<QueryReply, 'searched' | 'searchedUpTo' | 'byId'> {
  const r = replies.find((x) => x.searchedUpTo);
  return r ? { searched: r.searched, searchedUpTo: r.searchedUpTo, ...(r.byId ? { byId: true as const } : {}) } : {};
}

/** Visible text of a ref, a selector (top frame unless frameId) or the page. */
export async function pageText(
  tabId: number,
  opts: { ref?: string; selector?: string; maxChars?: number; frameId?: number } = {},
): Promise<TextReply> {
  const req: ContentRequest = { type: 'dom.text', maxChars: opts.maxChars ?? 20_000, timeMs: SNAPSHOT_TIME_MS };
  if (opts.ref) return TextReply.parse(await requestForRef(tabId, opts.ref, { ...req, ref: opts.ref }));
  const frameId = opts.frameId ?? 0;
  return TextReply.parse(
    await requestContent(tabId, frameId, {
      ...req,
      prefix: prefixFor(frameId),
      ...(opts.selector ? { selector: opts.selector } : {}),
    }),
  );
}

/**
 * Reads the article off the page's thread (#24): the tool pack's offscreen reader on the page's HTML. Null: the page
 * has no article, and gives its visible text instead.
 */
export type OffPageReader = (page: PageHtml, maxChars: number) => Promise<ReadReply | null>;

/**
 * The main article as Markdown (Readability), loading the reader into the frame on first use. With `offPage`, a page
 * too big to run the reader in one task of its own sends its HTML, read there instead.
 */
export async function readPage(
  tabId: number,
  opts: { maxChars?: number; frameId?: number; offPage?: OffPageReader } = {},
): Promise<ReadReply> {
  const frameId = opts.frameId ?? 0;
  const maxChars = opts.maxChars ?? 50_000;
  const req: ContentRequest = { type: 'dom.read', maxChars, ...(opts.offPage ? { offPage: true } : {}) };
  let raw: unknown;
  try {
    raw = await requestContent(tabId, frameId, req);
  } catch (e) {
    if (!(e instanceof PageError) || e.code !== PAGE_ERROR.readerMissing) throw e;
    await ensureReader(tabId, frameId);
    raw = await requestContent(tabId, frameId, req);
  }
  const html = PageHtml.safeParse(raw);
  if (!html.success || !opts.offPage) return ReadReply.parse(raw);
  const article = await opts.offPage(html.data, maxChars);
  return article ?? ReadReply.parse(await requestContent(tabId, frameId, { ...req, textOnly: true }));
}
