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

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;
const TRAILING = /[.,;:!?*_~]+$/;

/** The http(s) URLs of a text, as written (trailing punctuation dropped). */
export function urlsIn(text: string): string[] {
  return [...new Set((text.match(URL_IN_TEXT) ?? []).map((u) => u.replace(TRAILING, '')))];
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

const IP = /^[\d.]+$|^\[/;
const WORD_SPLIT = /[^\p{L}\p{N}@._+-]+/u;

/** The pieces of a URL that can carry a value (decoded), each also split into words. */
export function urlPieces(url: URL): string[] {
  const parts: string[] = [];
  const host = url.hostname.split('.');
  if (!IP.test(url.hostname)) parts.push(...host.slice(0, -2));
  parts.push(...url.pathname.split('/').map(decode));
  for (const [k, v] of url.searchParams) parts.push(k, v);
  if (url.hash) parts.push(decode(url.hash.slice(1)));
  const out = new Set<string>();
  for (const p of parts) {
    out.add(p);
    for (const w of p.split(WORD_SPLIT)) for (const run of joinedRuns(w)) out.add(run);
  }
  return [...out].filter(isValueLike);
}

const JOINERS = /[-_.+@]/g;
const MAX_RUN_TOKENS = 12;

/** Every run of whole tokens of a word split at `-_.+@` (`x-acct-7731` → `x-acct`, `acct-7731`, `7731`, ...). */
function joinedRuns(word: string): string[] {
  const starts = [0];
  const ends: number[] = [];
  for (const m of word.matchAll(JOINERS)) {
    ends.push(m.index);
    starts.push(m.index + 1);
  }
  ends.push(word.length);
  if (starts.length > MAX_RUN_TOKENS) return [word];
  const runs: string[] = [];
  for (let i = 0; i < starts.length; i++)
    for (let j = i; j < ends.length; j++) if (ends[j]! > starts[i]!) runs.push(word.slice(starts[i], ends[j]));
  return runs;
}

/** Long enough, and not a plain short word: a number, a code, an address. */
function isValueLike(s: string): boolean {
  return (s.length >= 4 && /\d/.test(s)) || s.length >= 10;
}

const MAX_VALUE = 60;
const shorten = (s: string) => (s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s);

interface Found {
  values: string[];
  from: Set<string>;
}

/** The values of `url` read from sites other than its own, in outputs that do not show the URL itself. */
function foreignValues(url: URL, forms: readonly string[], corpus: LinkCorpus, userText: string): Found {
  const found: Found = { values: [], from: new Set() };
  // Each piece as the URL has it, and in lower case to compare.
  const pieces = urlPieces(url)
    .map((p) => [p, p.toLowerCase()] as const)
    .filter(([, low]) => !userText.includes(low));
  if (!pieces.length) return found;
  for (const out of corpus.outputs) {
    const foreign = out.labels.filter((l) => l !== url.origin);
    if (!foreign.length || forms.some((f) => out.text.includes(f))) continue;
    const text = out.lower ?? out.text.toLowerCase();
    const hits = pieces.filter(([, low]) => text.includes(low)).map(([p]) => p);
    if (!hits.length) continue;
    for (const l of foreign) found.from.add(l);
    for (const h of hits) if (!found.values.includes(h)) found.values.push(h);
  }
  // The longest pieces say it: drop a word found inside a longer value found too.
  found.values = found.values.filter((v) => !found.values.some((o) => o !== v && o.includes(v)));
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

/** The verdict on every http(s) URL in a message's text. */
export function judgeAnswerLinks(text: string, corpus: LinkCorpus): AnswerLink[] {
  const out: AnswerLink[] = [];
  for (const raw of urlsIn(text)) {
    const link = judgeLink(raw, corpus);
    if (link && !out.some((l) => l.url === link.url)) out.push(link);
  }
  return out;
}
