/**
 * The `web` pack (built only with the SDK): web.fetch and web.fetch_many against loopback pages, through the
 * registry and the interceptor as the model would call them. The worker parses HTML in Otto's offscreen document
 * (#15); here `chrome.runtime.sendMessage` hands the request to the document's own handler, on happy-dom's
 * DOMParser (e2e/web.spec.ts runs the real document).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Window } from 'happy-dom';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEB_PACK, WEB_TOOLS } from '../../src/tools/packs/web/index.ts';
import { buildRegistry } from '../../src/background/registry.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { requirementsOf, checkDeps } from '../../src/sdk/index.ts';
import { harness } from '../sdk/helpers.ts';
import { handleOffscreen } from '../../src/offscreen/handle.ts';
import { OffscreenRequest } from '../../src/shared/offscreenMessages.ts';

const ARTICLE = `<!doctype html><html lang="en"><head><title>Otters hold hands | River News</title>
<meta name="author" content="A. Writer"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>
<article><h1>Otters hold hands</h1>
<p>Sea otters hold hands while they sleep, so that they do not drift apart. This behaviour, called rafting, is common in groups.</p>
<p>Researchers at the <a href="/institute">Marine Institute</a> observed rafts of more than a hundred otters, resting together in kelp forests, for hours.</p>
<p>They also wrap themselves in kelp, which anchors them in place, and keeps them from floating away while they rest.</p>
<img src="img/otter.jpg" alt="Two otters"></article>
<footer class="site-footer"><p>Copyright River News. All rights reserved.</p></footer>
<script>trackVisitor()</script></body></html>`;

let server: Server;
let base = '';
let inFlight = 0;
let peak = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    switch (url.pathname) {
      case '/article':
        return send(200, 'text/html; charset=utf-8', ARTICLE);
      case '/data.json':
        return send(200, 'application/json', '{"otters": 3}');
      case '/notes.txt':
        return send(200, 'text/plain', 'plain notes');
      case '/photo.png':
        return send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case '/long':
        return send(200, 'text/plain', 'z'.repeat(3000));
      case '/redirect':
        res.writeHead(302, { location: '/article' });
        return res.end();
      case '/slow': {
        inFlight++;
        peak = Math.max(peak, inFlight);
        setTimeout(() => {
          inFlight--;
          send(200, 'text/plain', `slow ${url.searchParams.get('n')}`);
        }, 30);
        return;
      }
      default:
        return send(404, 'text/html', '<h1>Not Found</h1>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** An offscreen document that is already open, answering with its real handler. */
function offscreenDocument(): string[] {
  const seen: string[] = [];
  vi.stubGlobal('DOMParser', new Window().DOMParser);
  vi.stubGlobal('chrome', {
    runtime: {
      getURL: (p: string) => `chrome-extension://otto/${p}`,
      getContexts: async () => [{ contextType: 'OFFSCREEN_DOCUMENT' }],
      sendMessage: async (message: unknown) => {
        const req = OffscreenRequest.parse(message);
        seen.push(req.type);
        return handleOffscreen(req);
      },
    },
  });
  return seen;
}

function web(granted = true) {
  offscreenDocument();
  const h = harness({ register: (r) => r.registerPack(WEB_PACK, WEB_TOOLS) });
  vi.stubGlobal('chrome', {
    ...(globalThis as { chrome?: object }).chrome,
    permissions: { contains: async () => granted },
  });
  return h;
}

const body = (out: string): string =>
  out
    .replace(/^Source: .*\n<external-content-[0-9a-f]+>\n/, '')
    .replace(/\n<\/external-content-[0-9a-f]+>(\n[\s\S]*)?$/, '');

describe('web.fetch', () => {
  it('returns the article as Markdown: title, content, absolute links; navigation, footer and scripts left out', async () => {
    const h = web();
    const requests = offscreenDocument();
    const out = String(await h.call('web.fetch', { url: `${base}/article` }));
    expect(requests).toEqual(['html.article']);
    expect(out.split('\n')[0]).toMatch(new RegExp(`^Source: ${base}/article \\(text/html, \\d+ characters\\)$`));
    expect(out).toMatch(/\n<external-content-[0-9a-f]{8}>\n# Otters hold hands\n/);
    const md = body(out);
    expect(md).toContain('Sea otters hold hands while they sleep');
    expect(md).toContain(`[Marine Institute](${base}/institute)`);
    expect(md).toContain(`![Two otters](${base}/img/otter.jpg)`);
    for (const chrome of ['Home', 'Copyright', 'trackVisitor']) expect(md).not.toContain(chrome);
    expect(md.match(/# Otters hold hands/g)).toHaveLength(1);
  });

  it('format="text" gives plain text; format="html" the page as served', async () => {
    const h = web();
    const text = body(String(await h.call('web.fetch', { url: `${base}/article`, format: 'text' })));
    expect(text.startsWith('Otters hold hands\n\nSea otters hold hands')).toBe(true);
    expect(text).not.toContain('](');
    expect(body(String(await h.call('web.fetch', { url: `${base}/article`, format: 'html' })))).toBe(ARTICLE);
  });

  it('JSON and text come back as they are; binary content is only described; redirects are followed', async () => {
    const h = web();
    expect(body(String(await h.call('web.fetch', { url: `${base}/data.json` })))).toBe('{"otters": 3}');
    expect(body(String(await h.call('web.fetch', { url: `${base}/notes.txt` })))).toBe('plain notes');
    expect(await h.call('web.fetch', { url: `${base}/photo.png` })).toBe(
      `Source: ${base}/photo.png\n[Binary content: image/png, 4 bytes]`,
    );
    // Where a redirect led is the site's choice: named inside the boundary, the header keeps the model's own address.
    expect(String(await h.call('web.fetch', { url: `${base}/redirect` }))).toMatch(
      new RegExp(
        `^Source: ${base}/redirect, redirected to the address below \\(text/html, \\d+ characters\\)\\n<external-content-[0-9a-f]{8}>\\nfinal url: ${base}/article\\n\\n`,
      ),
    );
  });

  it('max_chars cuts the content and says how much there was', async () => {
    const out = String(await web().call('web.fetch', { url: `${base}/long`, max_chars: 100 }));
    expect(body(out)).toBe('z'.repeat(100));
    expect(
      out.endsWith(
        '\n[Truncated: showing 100 of 3000 characters. Fetch again with a larger max_chars to read further.]',
      ),
    ).toBe(true);
  });

  it("HTTP errors and bad URLs are errors with safeRequest's / a clear message", async () => {
    const h = web();
    await expect(h.call('web.fetch', { url: `${base}/missing` })).rejects.toThrow(
      'HTTP error (404): <h1>Not Found</h1>',
    );
    await expect(h.call('web.fetch', { url: 'not a url' })).rejects.toThrow(
      'Parameter url: web.fetch: "not a url" is not a valid URL (give an absolute http or https URL).',
    );
    await expect(h.call('web.fetch', { url: 'file:///etc/passwd' })).rejects.toThrow(
      'Parameter url: web.fetch only opens web pages (http: or https:), not file: URLs: file:///etc/passwd.',
    );
    await expect(h.call('web.fetch', { url: 'http://127.0.0.1:1/' })).rejects.toThrow(/^Request failed: /);
    await expect(h.call('web.fetch', {})).rejects.toThrow('Missing required parameter: url');
  });

  it('without host permission for the site it says so, naming the permission, and fetches nothing', async () => {
    const h = web(false);
    await expect(h.call('web.fetch', { url: `${base}/article` })).rejects.toThrow(
      'web.fetch cannot run: Otto has no host permission for http://127.0.0.1/*. Allow Otto on http://127.0.0.1/*: chrome://extensions → Otto → Details → Site access',
    );
  });

  it('declares its dependency (host permission per URL) for checkDeps', async () => {
    const fetchTool = WEB_TOOLS.find((t) => t.name === 'fetch')!;
    expect(requirementsOf(fetchTool)).toEqual([{ kind: 'host', fromArg: 'url' }]);
    const h = web(false);
    const report = await checkDeps({ registry: h.registry, tool: 'web' });
    expect(report.tools).toEqual([
      {
        tool: 'web.fetch',
        ok: false,
        dependencies: [
          expect.objectContaining({
            kind: 'host',
            name: '<all_urls>',
            status: 'missing',
            note: "each URL in 'url' is checked when called",
          }),
        ],
      },
    ]);
  });
});

describe('web.fetch_many', () => {
  it('fetches concurrently (bounded) and returns labelled sections in the order given; a failure stays in its section', async () => {
    const h = web();
    peak = 0;
    const urls = [1, 2, 3, 4, 5, 6].map((n) => `${base}/slow?n=${n}`);
    const out = String(
      await h.call('web.fetch_many', { urls: [...urls, [`${base}/missing`, 'Broken page']], max_workers: 3 }),
    );
    const sections = out.split(/\n\n(?==== )/);
    expect(sections.map((s) => s.split('\n')[0])).toEqual([...urls.map((u) => `=== ${u} ===`), '=== Broken page ===']);
    expect(body(sections[2]!.split('\n').slice(1).join('\n'))).toBe('slow 3');
    expect(sections[6]).toBe('=== Broken page ===\nError: HTTP error (404): <h1>Not Found</h1>');
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
    // Each page went through the interceptor as a web.fetch call.
    expect(h.records.filter((r) => r.tool === 'web.fetch')).toHaveLength(7);
  });

  it('labels pages with [url, label] pairs and passes format and max_chars on', async () => {
    const out = String(
      await web().call('web.fetch_many', { urls: [[`${base}/long`, 'Long one']], format: 'text', max_chars: 10 }),
    );
    expect(out).toMatch(/^=== Long one ===\nSource: .*\n<external-content-[0-9a-f]+>\nzzzzzzzzzz\n/);
  });
});

describe('the web pack in the worker registry', () => {
  it('buildRegistry registers web.fetch and web.fetch_many (local pack)', () => {
    const registry = buildRegistry(DEFAULT_CONFIG);
    expect(registry.pack('web')).toMatchObject({ source: 'local', tools: ['web.fetch', 'web.fetch_many'] });
    expect(registry.get('web.fetch')!.effect).toBe('reads');
  });
});
