/**
 * #19 without a browser: the file store keeps bytes and provenance; an upload carries its file's origin to the
 * data-flow guard; PDF pages, console and request reports read as the model receives them.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openOttoDB } from '../../src/storage/db.ts';
import { FileStore, safeFileName } from '../../src/storage/files.ts';
import { FlowGuard } from '../../src/tools/guard/guard.ts';
import type { OriginResolver } from '../../src/tools/guard/resolver.ts';
import { createFilesTools } from '../../src/tools/packs/files/index.ts';
import { noPage } from '../../src/page/api.ts';
import { formatPdf } from '../../src/tools/packs/files/pdf.ts';
import { nameOf } from '../../src/tools/packs/files/downloads.ts';
import { captureNote, formatConsole, formatNetwork } from '../../src/tools/packs/dom/devtools.ts';
import type { DevLog } from '../../src/content/contentDevCapture.ts';
import type { AnyTool } from '../../src/tools/Tool.ts';
import { resolveCallTarget } from '../../src/tools/resolveCallTarget.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { toolContext } from '../support/toolContext.ts';

const BANK = 'https://bank.example';
const EVIL = 'https://evil.example';
let n = 0;

describe('the file store', () => {
  it('keeps bytes with where they came from, lists them without content, and finds free names', async () => {
    const store = new FileStore(openOttoDB(`otto-files-${++n}`));
    const bytes = new Uint8Array([37, 80, 68, 70, 45]).buffer;
    const info = await store.saveBytes('report.pdf', bytes, 'application/pdf', {
      source: 'download',
      origins: [BANK],
      url: `${BANK}/r.pdf`,
    });
    expect(info).toMatchObject({ name: 'report.pdf', size: 5, source: 'download', origins: [BANK] });
    expect(info).not.toHaveProperty('bytes');
    expect(new Uint8Array((await store.get('report.pdf'))!.bytes!)).toEqual(new Uint8Array(bytes));
    expect((await store.list()).map((f) => Object.keys(f).includes('bytes'))).toEqual([false]);
    expect(await store.freeName('report.pdf')).toBe('report (2).pdf');
    expect(await store.freeName('other.pdf')).toBe('other.pdf');
    expect(safeFileName('a/b:c?.pdf')).toBe('a_b_c_.pdf');
    expect(safeFileName('...')).toBe('download');
  });

  it('names a download by its saved file, or by its URL when the browser named it by id', () => {
    expect(nameOf({ filename: '/home/u/Downloads/invoice.pdf', finalUrl: 'https://x/y', url: '' })).toBe('invoice.pdf');
    expect(
      nameOf({
        filename: '/tmp/4e228ef7-5455-4fc8-aaaf-78d0d5b4728d',
        finalUrl: 'https://x/files/a%20b.csv?q=1',
        url: '',
      }),
    ).toBe('a b.csv');
  });
});

describe('an upload carries its file’s origin to the guard', () => {
  const resolver: OriginResolver = {
    tabOrigins: async () => [EVIL],
    targetOrigins: async () => [EVIL],
    allTabOrigins: async () => [EVIL],
  };
  const policy = { origins: [] as string[], pairAllowed: () => false, userWrote: () => false, seenUrl: () => false };
  const upload = createFilesTools({ page: noPage }).find((t) => t.name === 'upload') as AnyTool;

  it('a file downloaded from the bank may not go to another site without asking, even when nothing was read', async () => {
    const withOrigin = { ...upload, carries: () => [BANK] } as AnyTool;
    const v = await new FlowGuard(policy, resolver).verdict(withOrigin, { file: 'statement.pdf', selector: '#f' }, 1);
    expect(v).toEqual({ ok: false, from: [BANK], to: EVIL, data: 'upload the file "statement.pdf"', kind: 'action' });
  });

  it('a file the user gave (no origin) goes anywhere; one from the same site stays quiet', async () => {
    const none = { ...upload, carries: () => [] } as AnyTool;
    expect(await new FlowGuard(policy, resolver).verdict(none, { file: 'cv.pdf', selector: '#f' }, 1)).toEqual({
      ok: true,
    });
    const same = { ...upload, carries: () => [EVIL] } as AnyTool;
    expect(await new FlowGuard(policy, resolver).verdict(same, { file: 'x.csv', selector: '#f' }, 1)).toEqual({
      ok: true,
    });
  });
});

describe('what the model reads', () => {
  it('PDF pages with their numbers, scanned and empty pages named, and a cut that says where to go on', () => {
    const pdf = {
      numPages: 4,
      pages: [
        { n: 1, text: 'Hello', images: false },
        { n: 2, text: 'World', images: false },
        { n: 3, text: '', images: true },
        { n: 4, text: '', images: false },
      ],
    };
    const out = formatPdf('"a.pdf"', pdf);
    expect(out.split('\n')[0]).toBe(
      'PDF "a.pdf": 4 pages, 2 with text; no text layer on page 3 (an image, probably scanned: its text cannot be read); page 4 empty',
    );
    expect(out).toContain(
      '--- page 1 of 4 ---\nHello\n--- page 2 of 4 ---\nWorld\n--- page 3 of 4 ---\n[no text layer: this page is an image (scanned?)]\n--- page 4 of 4 ---\n[empty page]\n</external-content-',
    );
    expect(formatPdf('"a.pdf"', pdf, { maxChars: 40 })).toMatch(/\n\[Cut at page 2: read on with from_page=2\.\]$/);
    expect(formatPdf('"s.pdf"', { numPages: 1, pages: [{ n: 1, text: '', images: true }] }).split('\n')[0]).toBe(
      'PDF "s.pdf": 1 page, 0 with text; no text layer on page 1 (an image, probably scanned: its text cannot be read). This PDF has no text layer at all (a scan?): Otto cannot read its words.',
    );
  });

  const log = (over: Partial<DevLog> = {}): DevLog => ({
    mode: 'load',
    asked: 'load',
    scriptsBefore: 0,
    startedAt: 12,
    now: 5000,
    url: 'https://shop.example/checkout',
    console: [],
    consoleDropped: 0,
    requests: [],
    ...over,
  });

  it('says when the capture began', () => {
    expect(captureNote(log(), 'console')).toBe('Captured since the page started (0.0 s after its navigation began).');
    expect(captureNote(log({ mode: 'late', asked: 'late', startedAt: 4200 }), 'console')).toBe(
      'Capture began late: 4.2 s after this page started, when Otto first looked; Otto watches this tab from now on, so reload it (tabs.reload) to capture from the start. Console messages from before are not known.',
    );
    expect(captureNote(log({ mode: 'late', asked: 'load', scriptsBefore: 2, startedAt: 300 }), 'requests')).toBe(
      "Capture began late: 0.3 s after this page started, after 2 of its scripts; reload the tab (tabs.reload) to try to capture from the start. Requests from before come from the browser's timing (no method for fetch/XHR).",
    );
  });

  it('console lines with level, time, text and source; requests failed first', () => {
    const c = formatConsole(
      log({ console: [{ level: 'error', text: 'boom', source: 'https://shop.example/app.js:3', t: 1500 }] }),
      50,
    );
    expect(c).toMatch(/^Console of the page named below: 1 message \(1 error or uncaught\)\. Captured since/);
    expect(c).toContain(
      '>\npage: https://shop.example/checkout\n[error] 1.5 s (3.5 s ago) boom (https://shop.example/app.js:3)\n',
    );
    const r = formatNetwork(
      log({
        requests: [
          { method: 'GET', url: 'https://shop.example/a.js', status: 200, type: 'script', ms: 20, size: 2048, t: 10 },
          { method: 'POST', url: 'https://shop.example/api', status: 500, type: 'fetch', ms: 31, size: 24, t: 900 },
          {
            method: 'GET',
            url: 'https://cdn.example/x',
            status: 0,
            type: 'fetch',
            ms: 5,
            size: -1,
            t: 950,
            error: 'TypeError: Failed to fetch',
          },
        ],
      }),
      50,
      false,
    );
    expect(r.split('\n').slice(3, 6)).toEqual([
      'FAILED GET https://cdn.example/x → no answer (TypeError: Failed to fetch) · fetch · 5 ms · ? B · at 0.9 s (4.0 s ago)',
      'FAILED POST https://shop.example/api → 500 · fetch · 31 ms · 24 B · at 0.9 s (4.1 s ago)',
      'GET https://shop.example/a.js → 200 · script · 20 ms · 2.0 KB · at 0.0 s (5.0 s ago)',
    ]);
  });
});

describe('files.download: its URL is the call target (#31)', () => {
  const download = createFilesTools({ page: noPage }).find((t) => t.name === 'download') as AnyTool;
  const ctx = (localHosts: string[] = []) =>
    toolContext({ config: { ...DEFAULT_CONFIG, approvals: { ...DEFAULT_CONFIG.approvals, local_hosts: localHosts } } });
  it("a download from the user's own network is named as such (so it asks first); a web URL is not", async () => {
    const router = await resolveCallTarget(download, { url: 'http://192.168.1.1/backup.cfg' }, ctx());
    expect(router.url).toBe('http://192.168.1.1/backup.cfg');
    expect(router.localNetwork).toBeDefined();
    const web = await resolveCallTarget(download, { url: 'https://example.com/invoice.pdf' }, ctx());
    expect(web.localNetwork).toBeUndefined();
    const allowed = await resolveCallTarget(download, { url: 'http://192.168.1.1/backup.cfg' }, ctx(['192.168.1.1']));
    expect(allowed.localNetwork).toBeUndefined();
  });
});
