/**
 * Superseded observations leave the request (#23). When a newer observation of the same tab exists (or the tab
 * moved to another page), an older observation's output is replaced, in what is sent only, by one line saying what
 * it was, which tab and URL, when, and the handle `ot.result` reads it back from. Images are kept for the newest
 * KEEP_IMAGES only. Which outputs are elided, and their handles, are recorded in the transcript as `otto.elision`
 * items, so every later request (and a fresh worker) shows the same stubs: the request's prefix stays byte-identical.
 */
import type { ResponseItem } from '../../models/events.ts';
import type { ItemRecord } from '../../storage/records.ts';
import { isFunctionCall, isFunctionCallOutput, partsText, type OutputPart } from '../transcript.ts';
import { OBSERVATIONS, PAGE_CHANGES, tabOf, urlIn } from './observations.ts';

/** Outputs shorter than this stay as they are: a stub would save nothing. */
export const MIN_ELIDE_CHARS = 1200;
/** Images kept in the request: the newest ones. */
export const KEEP_IMAGES = 2;

export interface ElisionEntry {
  callId: string;
  /** Qualified tool name. */
  tool: string;
  tab: string;
  url?: string;
  /** When the output was stored (ms). */
  at: number;
  chars: number;
  /** Where `ot.result` reads the full output back; absent when it could not be kept. */
  handle?: string;
  /** Origin labels of the output (data-flow guard): the stub stands for that data. */
  labels?: string[];
  /** An image output: its image is no longer attached. */
  image?: boolean;
}

export interface ElisionItem extends ResponseItem {
  type: 'otto.elision';
  entries: ElisionEntry[];
}

/** An output the request could do without, with what its stub needs to say. */
export interface Candidate {
  record: ItemRecord;
  entry: Omit<ElisionEntry, 'handle'>;
  /** The full text to keep for `ot.result`. */
  text: string;
}

export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return partsText(output as OutputPart[]);
  return JSON.stringify(output ?? null);
}

function imageCount(output: unknown): number {
  return Array.isArray(output) ? output.filter((p: { type?: unknown }) => p?.type === 'input_image').length : 0;
}

/** The elisions already recorded, by call id. */
export function recordedElisions(records: readonly ItemRecord[]): Map<string, ElisionEntry> {
  const out = new Map<string, ElisionEntry>();
  for (const r of records) {
    if (r.item.type === 'otto.elision')
      for (const e of (r.item as ElisionItem).entries ?? []) if (typeof e?.callId === 'string') out.set(e.callId, e);
  }
  return out;
}

/**
 * Outputs superseded by a newer observation of their tab (or a page change in it), and images older than the newest
 * KEEP_IMAGES, that are not elided yet. Pure: the same transcript gives the same answer.
 */
export function elisionCandidates(
  records: readonly ItemRecord[],
  qualify: (apiName: string) => string,
  from = 0,
): Candidate[] {
  const done = recordedElisions(records);
  const calls = new Map<string, { tool: string; tab: string }>();
  /** Observations of each tab not superseded yet. */
  const open = new Map<string, ItemRecord[]>();
  const superseded: ItemRecord[] = [];
  const images: ItemRecord[] = [];
  for (const r of records) {
    const item = r.item;
    if (isFunctionCall(item)) {
      calls.set(item.call_id, { tool: qualify(item.name), tab: tabOf(item.arguments) });
      continue;
    }
    if (!isFunctionCallOutput(item)) continue;
    const call = calls.get(item.call_id);
    if (!call) continue;
    if (imageCount(item.output)) images.push(r);
    const observes = OBSERVATIONS.has(call.tool);
    if (!observes && !PAGE_CHANGES.has(call.tool)) continue;
    const before = open.get(call.tab) ?? [];
    if (r.seq >= from) superseded.push(...before.filter((b) => b.seq >= from));
    open.set(call.tab, observes ? [r] : []);
  }
  const oldImages = images.slice(0, Math.max(0, images.length - KEEP_IMAGES));
  const picked = new Map<number, ItemRecord>();
  for (const r of [...superseded, ...oldImages]) picked.set(r.seq, r);
  const out: Candidate[] = [];
  for (const r of [...picked.values()].sort((a, b) => a.seq - b.seq)) {
    const item = r.item as ResponseItem & { call_id: string; output?: unknown };
    if (done.has(item.call_id)) continue;
    const text = outputText(item.output);
    const image = imageCount(item.output) > 0;
    if (!image && text.length < MIN_ELIDE_CHARS) continue;
    const call = calls.get(item.call_id)!;
    const url = urlIn(text);
    out.push({
      record: r,
      text,
      entry: {
        callId: item.call_id,
        tool: call.tool,
        tab: call.tab,
        ...(url ? { url } : {}),
        at: r.createdAt,
        chars: text.length,
        ...(r.labels?.length ? { labels: [...r.labels] } : {}),
        ...(image ? { image: true } : {}),
      },
    });
  }
  return out;
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19) + 'Z';

/** The one line the model gets instead of an elided output. Deterministic: the prefix must not change. */
export function stubText(e: ElisionEntry): string {
  const what = `${e.tool} of ${e.tab}${e.url ? ` (${e.url})` : ''} at ${clock(e.at)}, ${e.chars.toLocaleString('en-US')} chars`;
  const back = e.handle
    ? `read it back in full with ot.result(handle='${e.handle}')`
    : 'it could not be kept: call the tool again if you need it';
  const image = e.image ? '; its image is no longer attached (take a new screenshot to see the page now)' : '';
  return `[Otto: this output was replaced by a newer one and left out of the context — ${what}${image}; ${back}.]`;
}

/** The items with each recorded elision applied (other items unchanged, never mutated). */
export function applyElisions(
  items: readonly ResponseItem[],
  elided: ReadonlyMap<string, ElisionEntry>,
): ResponseItem[] {
  if (!elided.size) return [...items];
  return items.map((item) => {
    if (!isFunctionCallOutput(item)) return item;
    const e = elided.get(item.call_id);
    return e ? { ...item, output: stubText(e) } : item;
  });
}
