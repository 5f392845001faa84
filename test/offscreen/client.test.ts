/**
 * The worker's side of the one offscreen document (#15): opened once on demand with both reasons, reused while
 * open, asked again once if it closed itself in between, and its replies validated.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askOffscreen } from '../../src/offscreen/offscreenClient.ts';

interface Fake {
  created: { url: string; reasons: string[] }[];
  sent: unknown[];
}

function fakeChrome(opts: { open: boolean; replies: ((m: unknown) => unknown)[] }): Fake {
  const fake: Fake = { created: [], sent: [] };
  let open = opts.open;
  vi.stubGlobal('chrome', {
    runtime: {
      getURL: (p: string) => `chrome-extension://otto/${p}`,
      getContexts: async () => (open ? [{ contextType: 'OFFSCREEN_DOCUMENT' }] : []),
      sendMessage: async (m: unknown) => {
        fake.sent.push(m);
        const reply = opts.replies.shift()!;
        return reply(m);
      },
    },
    offscreen: {
      Reason: { DOM_PARSER: 'DOM_PARSER', WORKERS: 'WORKERS' },
      createDocument: async (o: { url: string; reasons: string[] }) => {
        await new Promise((r) => setTimeout(r, 5));
        fake.created.push({ url: o.url, reasons: o.reasons });
        open = true;
      },
    },
  });
  return fake;
}

const article = {
  ok: true,
  title: 'T',
  byline: '',
  siteName: '',
  excerpt: '',
  lang: '',
  readerable: true,
  content: '# T',
};
const req = { type: 'html.article', html: '<p>x</p>', url: 'https://a.test/', format: 'markdown' } as const;

afterEach(() => vi.unstubAllGlobals());

describe('askOffscreen', () => {
  it('opens the document once for concurrent requests, with both reasons, and reuses it', async () => {
    const fake = fakeChrome({ open: false, replies: [() => article, () => article, () => article] });
    const replies = await Promise.all([askOffscreen(req), askOffscreen(req), askOffscreen(req)]);
    expect(replies.map((r) => r.ok && r.content)).toEqual(['# T', '# T', '# T']);
    expect(fake.created).toEqual([{ url: 'src/offscreen/index.html', reasons: ['DOM_PARSER', 'WORKERS'] }]);
    expect(fake.sent[0]).toEqual({ ...req, target: 'otto-offscreen' });
  });

  it('a document that closed itself just then is opened again and asked once more', async () => {
    const fake = fakeChrome({
      open: true,
      replies: [
        () => {
          throw new Error('Could not establish connection. Receiving end does not exist.');
        },
        () => article,
      ],
    });
    expect(await askOffscreen(req)).toMatchObject({ ok: true, content: '# T' });
    expect(fake.sent).toHaveLength(2);
  });

  it('a reply of the wrong shape is a clear error', async () => {
    fakeChrome({ open: true, replies: [() => ({ ok: true, pages: [] })] });
    await expect(askOffscreen(req)).rejects.toThrow("Otto's offscreen document sent no usable answer to html.article.");
  });
});
