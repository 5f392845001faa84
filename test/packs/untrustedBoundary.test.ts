/**
 * Page text stays inside the untrusted-content boundary (docs/decisions.md, "Page text stays inside the untrusted
 * boundary"): every formatter the page tools use is given a reply whose every page-derived string carries the marker
 * INJ<nn>, including the partial, countedUpTo, searchedUpTo and notes cases; no marker may stand outside a matching
 * pair of boundary tags. Action reports and snapshots (src/page/, which needs chrome) are covered by the e2e twin,
 * e2e/untrusted-boundary.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  formatDialogs,
  formatFind,
  formatQuery,
  formatRead,
  formatText,
  formatWait,
} from '../../src/tools/packs/dom/formatReplies.ts';
import { formatConsole, formatNetwork } from '../../src/tools/packs/dom/devtools.ts';
import { formatPdf } from '../../src/tools/packs/files/pdf.ts';
import type { DevLog } from '../../src/content/contentDevCapture.ts';

const BOUNDARY = /<(external-content-[0-9a-f]{8})>[\s\S]*?<\/\1>/g;
const leaks = (out: string): string[] => out.replace(BOUNDARY, '').match(/INJ\d\d/g) ?? [];

const line = (n: number) => ({ ref: `e${n}`, line: `checkbox "INJ${10 + n} Pick" [ref=e${n}]`, visible: true });
const log = (over: Partial<DevLog> = {}): DevLog => ({
  mode: 'late',
  asked: 'late',
  scriptsBefore: 0,
  startedAt: 12,
  now: 5000,
  url: 'https://shop.example/INJ01?q=INJ02#INJ03',
  console: [],
  consoleDropped: 0,
  requests: [],
  ...over,
});

describe('page text stays inside the boundary in every formatter', () => {
  const outputs: Record<string, string> = {
    'query: counted up to (budget)': formatQuery(
      { matches: [line(1), line(2)], total: 5004, partial: true, countedUpTo: 'checkbox "INJ40 Pick 5004"' },
      'tr input',
    ),
    'query: searched up to, with matches': formatQuery(
      { matches: [line(1)], total: 1, partial: true, searched: 200_000, searchedUpTo: 'cell "INJ41 Row"' },
      'p',
    ),
    'query: searched up to, by id': formatQuery(
      { matches: [line(1)], total: 1, partial: true, searched: 20, searchedUpTo: 'cell "INJ42"', byId: true },
      'p#end',
    ),
    'query: searched up to, no match': formatQuery(
      { matches: [], total: 0, partial: true, searched: 200_000, searchedUpTo: 'cell "INJ43 Row"' },
      'tr.nothing',
    ),
    'query: searched up to, no match, by id': formatQuery(
      { matches: [], total: 0, partial: true, searched: 20, searchedUpTo: 'cell "INJ44"', byId: true },
      'p#x',
    ),
    'query: hidden match': formatQuery(
      { matches: [{ ...line(3), visible: false, hidden: 'INJ45 display:none' }], total: 1 },
      '#h',
    ),
    'find: partial with notes and hidden': formatFind(
      {
        matches: [
          { ...line(1), context: 'INJ53 context' },
          { line: 'text "INJ46"', context: '', row: ['e9 button "INJ47"'] },
          { line: 'x', context: '', inside: 'e2' },
        ],
        total: 111,
        notes: ['Stopped soon after the first match, at row "INJ48 Order", so more matches may follow.'],
        hidden: { count: 2, where: ['tabpanel "INJ49" (display:none)'] },
        skipped: ['frame 3: INJ50 error'],
      },
      'text "Pick"',
    ),
    'find: none visible': formatFind(
      { matches: [], total: 0, hidden: { count: 1, where: ['dialog "INJ51"'] }, notes: ['at "INJ52"'] },
      'text "x"',
    ),
    'text: with a note': formatText({ text: 'INJ53 body', truncated: true, chars: 9, note: 'read stopped' }, 'e4'),
    read: formatRead({
      title: 'INJ54',
      byline: 'INJ55',
      siteName: 'INJ56',
      excerpt: 'INJ57',
      lang: 'INJ58',
      markdown: 'INJ59',
      readerable: false,
      truncated: false,
      chars: 5,
    }),
    'wait: met': formatWait({ met: true, elapsedMs: 20, ref: 'e3', summary: 'button "INJ60" appeared' }, 'appear'),
    'wait: not met': formatWait({ met: false, elapsedMs: 300, summary: 'last seen: "INJ61"' }, 'disappear'),
    dialogs: formatDialogs(
      {
        total: 1,
        log: [{ type: 'prompt', message: 'INJ62?', answer: 'INJ63', at: 0 }],
        armed: { message: 'INJ64', text: 'INJ65' },
      } as never,
      true,
    ),
    'console: none shown': formatConsole(log(), 50),
    'console: messages': formatConsole(
      log({ console: [{ level: 'error', text: 'INJ66', source: 'https://x/INJ67.js:3', t: 1500 }] }),
      50,
    ),
    'network: none': formatNetwork(log(), 50, true),
    'network: requests': formatNetwork(
      log({
        requests: [
          { method: 'GET', url: 'https://x/INJ68', status: 0, error: 'INJ69', type: 'fetch', ms: 3, size: 0, t: 1 },
        ],
      } as never),
      50,
      false,
    ),
    'pdf: a titled document': formatPdf('"a.pdf"', {
      numPages: 1,
      title: 'INJ87 title',
      pages: [{ n: 1, text: 'INJ88', images: false }],
    }),
  };

  it('no marker stands outside a boundary, and every crafted reply put its markers in the output', () => {
    const found = Object.entries(outputs).filter(([, out]) => leaks(out).length);
    expect(found.map(([name, out]) => `${name}: ${leaks(out).join(', ')}\n${out}`)).toEqual([]);
    const all = Object.values(outputs).join('\n');
    for (const m of ['INJ01', 'INJ40', 'INJ41', 'INJ43', 'INJ44', 'INJ48', 'INJ49', 'INJ66', 'INJ68', 'INJ87'])
      expect(all).toContain(m);
  });

  it('dom.query names where its budget stopped inside the block, the header says "named below"', () => {
    const out = outputs['query: counted up to (budget)']!;
    expect(out.split('\n')[0]).toBe(
      'At least 5004 elements match "tr input" (counted in the first part of the page only, up to the element named below; narrow the selector to count a part exactly) (showing 2 of 5004; raise limit or narrow the selector). Refs: e1, e2.',
    );
    expect(out).toMatch(/^<external-content-[0-9a-f]{8}>\ncounted up to: checkbox "INJ40 Pick 5004"\n- checkbox/m);
  });
});
