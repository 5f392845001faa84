/**
 * A scripted model for long errands (#23): it reads N pages one after another (navigate, then snapshot each), and at
 * the end reads page 1 back through the handle its stub (or a compaction's index) names. It decides from the
 * request alone — the last item of the input — so a retried request gets the same answer, and it works the same
 * behind the fake API (e2e), a ScriptedModel (unit tests) and the bench. Asked for compaction notes, it writes them.
 */

export type ReaderAction = { call: { name: string; arguments: Record<string, unknown> } } | { text: string };

type Item = Record<string, unknown>;

export const ERRAND = (pages: number) =>
  `Read the ${pages} pages of the long fixture one after another and tell me what page 1 says.`;
export const NOTES = 'Notes: the user asked to read the fixture pages in order; pages read so far are listed below.';

/** About 10,000 characters of article text for page i (1-based), with its own marker sentence. */
export function pageText(i: number, chars = 10_000): string {
  const id = String(i).padStart(2, '0');
  const head = `Page ${id} marker: the value for page ${id} is ${1000 + i * 7}.`;
  const words = [
    'harbour',
    'ledger',
    'northern',
    'quietly',
    'season',
    'transit',
    'window',
    'yellow',
    'archive',
    'brief',
  ];
  const paras: string[] = [head];
  let n = head.length;
  let k = i;
  while (n < chars) {
    const sentence: string[] = [];
    for (let w = 0; w < 12; w++) sentence.push(words[(k = (k * 31 + 7) % 997) % words.length]!);
    const p = `${sentence.join(' ')}. Section ${paras.length} of page ${id}.`;
    paras.push(p);
    n += p.length + 1;
  }
  return paras.join('\n');
}

export function pagePath(i: number): string {
  return `/long/page-${String(i).padStart(2, '0')}.html`;
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
}

/** The next action for a request whose input is `input` (pages served at `origin` + pagePath(i)). */
export function readerAction(input: readonly Item[], pages: number, origin: string): ReaderAction {
  const last = input[input.length - 1];
  if (!last) return { text: 'Nothing to do.' };
  if (last.type === 'message' && last.role === 'user') {
    const said = text(last.content);
    if (/working notes/i.test(said)) return { text: NOTES };
    if (/^continue/i.test(said)) {
      // Go on after the highest page read so far (named by a snapshot, a stub or a compaction's index).
      const seen = [...JSON.stringify(input).matchAll(/page-(\d+)\.html/g)].map((m) => Number(m[1]));
      const next = Math.min(pages, Math.max(0, ...seen) + 1);
      return { call: { name: 'tabs__navigate', arguments: { url: origin + pagePath(next) } } };
    }
    return { call: { name: 'tabs__navigate', arguments: { url: origin + pagePath(1) } } };
  }
  if (last.type !== 'function_call_output') return { text: 'Done.' };
  const call = input.find((i) => i.type === 'function_call' && i.call_id === last.call_id);
  const name = String(call?.name ?? '');
  const out = text(last.output);
  if (name === 'tabs__navigate') return { call: { name: 'dom__snapshot', arguments: {} } };
  if (name === 'dom__snapshot') {
    const m = /page-(\d+)\.html/.exec(out);
    const i = m ? Number(m[1]) : pages;
    if (i < pages) return { call: { name: 'tabs__navigate', arguments: { url: origin + pagePath(i + 1) } } };
    const all = input
      .map((it) =>
        it.type === 'function_call_output' ? text(it.output) : it.type === 'message' ? text(it.content) : '',
      )
      .join('\n');
    // A stub (`…page-01.html) at …; read it back … handle='h'`) or a compaction's index (`page-01.html h`).
    const h = /page-01\.html\)?[^\n]*?(?:handle='|\s)([0-9a-f]{12})\b/.exec(all);
    if (!h) return { text: 'I cannot find page 1 any more.' };
    return { call: { name: 'ot__result', arguments: { handle: h[1], offset: 1, limit: 20 } } };
  }
  if (name === 'ot__result') {
    const m = /Page 01 marker: [^\n]*/.exec(out);
    return { text: m ? `Page 1 says: ${m[0]}` : `Page 1 could not be read: ${out.slice(0, 200)}` };
  }
  return { text: 'Done.' };
}
