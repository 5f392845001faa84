/**
 * Links in the model's messages are sinks (issue #42 part 3). A message may hold a link or image whose URL carries
 * what the run read on another site (`[Verify](https://collector.test/v?d=<account number>)`): one click by the
 * user would send it. For each http(s) URL in a message this decides, from the run's transcript alone (pure):
 *
 *   plain    the user wrote it; or a tool output showed it verbatim (and the model had not written it into a page
 *            first) and it holds no value read from a site other than its own;
 *   carries  it holds a value read from another site (path, query, fragment, or the host's subdomains), or it was
 *            seen nowhere and the run has read something from another site.
 *
 * A value is a piece of the URL (a path segment, a query key or value, the fragment, a subdomain, a word of one, or
 * a run of a word's parts between `-_.+@`)
 * of at least 4 characters with a digit, or of at least 10, found in a tool output labelled with another site that
 * does not itself show this URL (a page that names a link also names what is in it). Matching ignores case; the
 * value is shown as the URL has it.
 */
import type { ItemRecord } from '../storage/records.ts';
import type { AnswerLink } from '../shared/answerLink.ts';
import { answerUrls } from './answerUrls.ts';
import { urlPieces } from './urlPieces.ts';
import { showLabel, showLabels } from '../shared/labelText.ts';

/** One tool output the model read, with the sites it came from. */
export interface ReadOutput {
  readonly text: string;
  readonly labels: readonly string[];
  /** `text` in lower case, made once per corpus (matching ignores case). */
  readonly lower?: string;
}

/** What the run's transcript says about where text came from. */
export interface LinkCorpus {
  /** What the user wrote. */
  readonly user: readonly string[];
  /** The tool outputs the model read. */
  readonly outputs: readonly ReadOutput[];
  /** The arguments the model wrote in its calls (JSON text). */
  readonly written: readonly string[];
}

/** Text of a message's or output's content (a string, or parts with `text`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const p of content) {
    const t = (p as { text?: unknown } | null)?.text;
    if (typeof t === 'string') texts.push(t);
  }
  return texts.join('\n');
}

export function linkCorpus(records: readonly ItemRecord[]): LinkCorpus {
  const user: string[] = [];
  const outputs: ReadOutput[] = [];
  const written: string[] = [];
  for (const { item, labels } of records) {
    if (item.type === 'message' && item.role === 'user') user.push(contentText(item.content));
    else if (item.type === 'function_call_output') {
      const text = contentText(item.output);
      outputs.push({ text, labels: labels ?? [], lower: text.toLowerCase() });
    } else if (item.type === 'function_call' && typeof item.arguments === 'string') written.push(item.arguments);
  }
  return { user, outputs, written };
}

/** The text of an assistant message item, or undefined for any other item. */
export function assistantText(item: Record<string, unknown>): string | undefined {
  if (item.type !== 'message' || item.role !== 'assistant') return undefined;
  return contentText(item.content);
}

const MAX_VALUE = 60;
const shorten = (s: string) => (s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s);

interface Found {
  values: string[];
  from: Set<string>;
}

/** For each of `lows` (sorted by length), the indexes of the shorter ones it contains. */
function shorterInside(lows: readonly string[]): number[][] {
  return lows.map((low, i) => {
    const subs: number[] = [];
    for (let j = 0; j < i; j++) if (lows[j]!.length < low.length && low.includes(lows[j]!)) subs.push(j);
    return subs;
  });
}

/** The values of `url` read from sites other than its own, in outputs that do not show the URL itself. */
function foreignValues(url: URL, forms: readonly string[], corpus: LinkCorpus, userText: string): Found {
  const found: Found = { values: [], from: new Set() };
  const hit = new Map<string, string | undefined>();
  // Each piece as decoded, and in lower case to compare.
  const pieces = urlPieces(url)
    .map((p) => [p, p.text.toLowerCase()] as const)
    .filter(([, low]) => !userText.includes(low))
    .sort(([, a], [, b]) => a.length - b.length);
  if (!pieces.length) return found;
  const inside = shorterInside(pieces.map(([, low]) => low));
  for (const out of corpus.outputs) {
    const foreign = out.labels.filter((l) => l !== url.origin);
    if (!foreign.length || forms.some((f) => out.text.includes(f))) continue;
    const text = out.lower ?? out.text.toLowerCase();
    // Shortest first: a piece holding a shorter piece the text lacks cannot be in it (a split value's runs, a word's).
    const present: boolean[] = [];
    pieces.forEach(([, low], i) => (present[i] = inside[i]!.every((j) => present[j]) && text.includes(low)));
    const hits = pieces.filter((_, i) => present[i]).map(([p]) => p);
    if (!hits.length) continue;
    for (const l of foreign) found.from.add(l);
    for (const h of hits) if (!hit.has(h.text)) hit.set(h.text, h.how);
  }
  // The longest pieces say it: drop a word found inside a longer value found too. An encoded one says how.
  const texts = [...hit.keys()];
  found.values = texts
    .filter((v) => !texts.some((o) => o !== v && o.includes(v)))
    .map((v) => (hit.get(v) ? `${v} (${hit.get(v)})` : v));
  return found;
}

/** Whether a tool output showed the URL and the model had not written it itself in a call before. */
function seenInOutput(forms: readonly string[], corpus: LinkCorpus): boolean {
  if (!corpus.outputs.some((o) => forms.some((f) => o.text.includes(f)))) return false;
  const escaped = forms.map((f) => JSON.stringify(f).slice(1, -1));
  return !corpus.written.some((w) => forms.some((f) => w.includes(f)) || escaped.some((e) => w.includes(e)));
}

/** The verdict on one URL as written in a message, or undefined when it is not an http(s) URL. */
export function judgeLink(raw: string, corpus: LinkCorpus): AnswerLink | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const forms = [...new Set([raw, url.href])];
  const plain: AnswerLink = { url: url.href, to: url.host, carries: false, from: [], values: [] };
  if (corpus.user.some((m) => forms.some((f) => m.includes(f)))) return plain;
  const userText = corpus.user.join('\n').toLowerCase();
  const found = foreignValues(url, forms, corpus, userText);
  if (found.values.length) {
    const read = [...found.from].sort();
    const from = read.map(showLabel);
    const values = found.values.map(shorten);
    const sentence = `This link sends data read from ${showLabels(read)} (${values.join(', ')}) to ${url.host}. Open it?`;
    return { ...plain, carries: true, from, values, sentence };
  }
  if (seenInOutput(forms, corpus)) return plain;
  const read = new Set(corpus.outputs.flatMap((o) => o.labels.filter((l) => l !== url.origin)));
  if (!read.size) return plain;
  const sites = [...read].sort();
  const from = sites.map(showLabel);
  const sentence = `This link was not in anything you wrote or a page showed, so it may carry data read from ${showLabels(sites)} to ${url.host}. Open it?`;
  return { ...plain, carries: true, from, values: [], sentence };
}

/** The verdict on every http(s) URL in a message's text (links, images, autolinks, references, plain URLs). */
export function judgeAnswerLinks(text: string, corpus: LinkCorpus): AnswerLink[] {
  const out: AnswerLink[] = [];
  for (const raw of answerUrls(text)) {
    const link = judgeLink(raw, corpus);
    if (link && !out.some((l) => l.url === link.url)) out.push(link);
  }
  return out;
}
