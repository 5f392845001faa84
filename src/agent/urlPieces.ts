/**
 * The pieces of a URL that can carry a value (issue #42 part 3, agent/answerLinkCheck.ts): a subdomain, a path
 * segment, a query key or value, the fragment, each split into words and runs of a word's parts between `-_.+@`.
 *
 * A model told to hide what it carries may encode it. Recognised, within bounds (docs/decisions/answer-links.md):
 *   - percent-encoding, also twice or three times (`%2541` → `%41` → `A`);
 *   - base64 and base64url of printable text (`QUNDVC03NzMx` → `ACCT-7731`), and hex of printable ASCII;
 *   - a value written backwards (`1377-TCCA`), for pieces of at least 6 characters;
 *   - a value split across query parameters or path segments (`?a=ACCT&b=-7731`): runs of up to 6 consecutive
 *     values, joined as they stand.
 * Each such piece says how it was found (`base64`, `reversed`, `split`…), so the question can say so. Anything
 * else — a cipher, a value spelled out, split across two links — is not recognised; such a URL was seen nowhere, so it
 * still asks, naming every site read.
 */

/** A piece of a URL, decoded; `how` names the encoding it was found under (absent: as written). */
export interface UrlPiece {
  readonly text: string;
  readonly how?: string;
}

const IP = /^[\d.]+$|^\[/;
const WORD_SPLIT = /[^\p{L}\p{N}@._+-]+/u;
const JOINERS = /[-_.+@]/g;
const MAX_RUN_TOKENS = 12;
/** Bounds: pieces per URL, the length of one piece decoded, values joined for a split, percent layers. */
const MAX_PIECES = 600;
const MAX_PIECE = 2000;
const MAX_SPLIT = 6;
const PERCENT_LAYERS = 3;

/** Long enough, and not a plain short word: a number, a code, an address. */
export function isValueLike(s: string): boolean {
  return (s.length >= 4 && /\d/.test(s)) || s.length >= 10;
}

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

/** Percent-decoded until it stops changing (at most three layers). */
function percentDecoded(s: string): string {
  let out = s;
  for (let i = 0; i < PERCENT_LAYERS && /%[0-9a-f]{2}/i.test(out); i++) {
    try {
      out = decodeURIComponent(out.replace(/\+/g, ' '));
    } catch {
      break;
    }
  }
  return out;
}

/** Printable text: what a hidden value decodes to (a random token decodes to bytes that are not). */
function printable(s: string): boolean {
  return s.length > 0 && /^[\p{L}\p{N}\p{P}\p{S} ]+$/u.test(s);
}

/** The text a base64 or base64url piece encodes, when it is printable UTF-8. */
export function fromBase64(s: string): string | undefined {
  if (s.length < 8 || s.length > MAX_PIECE || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return undefined;
  const std = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (std.length % 4 === 1) return undefined;
  try {
    const bin = atob(std + '='.repeat((4 - (std.length % 4)) % 4));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    return printable(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The ASCII a hex piece encodes, when printable. */
function fromHex(s: string): string | undefined {
  if (s.length < 8 || s.length % 2 || !/^[0-9a-f]+$/i.test(s)) return undefined;
  const text = s.replace(/../g, (h) => String.fromCharCode(parseInt(h, 16)));
  return printable(text) && /[^0-9a-f]/i.test(text) ? text : undefined;
}

/** Runs of up to MAX_SPLIT consecutive values joined as they stand (a value split across parameters). */
function joinedSplits(values: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < values.length; i++)
    for (let j = i + 2; j <= Math.min(values.length, i + MAX_SPLIT); j++) out.push(values.slice(i, j).join(''));
  return out;
}

/** The pieces of a URL that can carry a value, decoded, each also split into words; bounded. */
export function urlPieces(url: URL): UrlPiece[] {
  const raw: UrlPiece[] = [];
  if (!IP.test(url.hostname)) for (const label of url.hostname.split('.').slice(0, -2)) raw.push({ text: label });
  const segments = url.pathname.split('/').map(percentDecoded);
  const values = [...url.searchParams.values()].map(percentDecoded);
  for (const s of segments) raw.push({ text: s });
  for (const [k, v] of url.searchParams) raw.push({ text: percentDecoded(k) }, { text: percentDecoded(v) });
  if (url.hash) raw.push({ text: percentDecoded(url.hash.slice(1)) });
  for (const s of joinedSplits(values.filter(Boolean))) raw.push({ text: s, how: 'split' });
  for (const s of joinedSplits(segments.filter(Boolean))) raw.push({ text: s, how: 'split' });
  return expand(raw);
}

/** Each piece, its encodings undone, and its words and runs; value-like ones only, at most MAX_PIECES. */
function expand(raw: readonly UrlPiece[]): UrlPiece[] {
  const out = new Map<string, UrlPiece>();
  const add = (text: string, how?: string) => {
    if (out.size >= MAX_PIECES || !isValueLike(text) || out.has(text)) return;
    out.set(text, how ? { text, how } : { text });
  };
  const words = (p: UrlPiece, how = p.how) => {
    add(p.text, how);
    for (const w of p.text.split(WORD_SPLIT)) for (const run of joinedRuns(w)) add(run, how);
  };
  for (const p of raw) {
    const text = p.text.slice(0, MAX_PIECE);
    words({ text, ...(p.how ? { how: p.how } : {}) });
    for (const w of [text, ...text.split(WORD_SPLIT)]) {
      const b64 = fromBase64(w);
      if (b64) words({ text: b64 }, 'base64');
      const hex = fromHex(w);
      if (hex) words({ text: hex }, 'hex');
      if (w.length >= 6) add([...w].reverse().join(''), 'reversed');
    }
  }
  return [...out.values()];
}
