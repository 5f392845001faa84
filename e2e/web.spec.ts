/**
 * Issue 8 e2e: the `web` pack (built only with the SDK) in the real service worker — no DOMParser there, so pages
 * are parsed in Otto's offscreen document (#15: DOMParser, Readability, dom.read's Markdown converter) — against
 * loopback pages: the `pages` fixture, a small article server, and the saved pages of corpora/readability.
 */
import http from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { test, expect, panelRequest } from './support/fixtures.ts';
import { startStaticServer } from './support/staticServer.ts';
import { connectToFakeApi, conversation, send, waitForStatus } from './support/agent.ts';

interface RunReply {
  ok: boolean;
  output?: string;
  error?: { message: string };
}

const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tide tables explained | Coast Weekly</title></head>
<body><header class="masthead"><a href="/">Coast Weekly</a> <a href="/subscribe">Subscribe</a></header>
<main><article><h1>Tide tables explained</h1>
<p>Tides rise and fall twice a day on most coasts, pulled by the moon and, to a lesser degree, by the sun.</p>
<p>A tide table lists the times and heights of high and low water for a port, usually for a whole year ahead.</p>
<h2>Reading one</h2><ul><li>Find your port</li><li>Pick the date</li><li>Read the <a href="/glossary#hw">high water</a> times</li></ul>
</article></main><footer>© Coast Weekly</footer></body></html>`;

let server: http.Server;
let origin = '';

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/tides') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    if (req.url === '/api/ports')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ports":["Brest","Dover"]}');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const run = (panel: Page, text: string) => panelRequest<RunReply>(panel, { type: 'command.run', text });

test('web.fetch reads a loopback page in the worker: the article as Markdown, untrusted-delimited', async ({
  panel,
}) => {
  const r = await run(panel, `web.fetch(url="${origin}/tides")`);
  expect(r.ok).toBe(true);
  const out = r.output!;
  expect(out).toMatch(
    new RegExp(
      `^Source: ${origin}/tides \\(text/html, \\d+ characters\\)\\n<external-content-[0-9a-f]{8}>\\n# Tide tables explained\\n`,
    ),
  );
  expect(out).toContain('Tides rise and fall twice a day');
  expect(out).toContain('## Reading one\n\n- Find your port\n- Pick the date');
  expect(out).toContain(`[high water](${origin}/glossary#hw)`);
  expect(out).not.toContain('Subscribe');
  expect(out).not.toContain('© Coast Weekly');

  const text = (await run(panel, `web.fetch(url="${origin}/tides", format="text", max_chars=40)`)).output!;
  expect(text).toContain('\nTide tables explained\n\nTides rise and fa\n</external-content-');
  expect(text).toMatch(/\[Truncated: showing 40 of \d+ characters/);
  expect((await run(panel, `web.fetch(url="${origin}/api/ports")`)).output).toContain('{"ports":["Brest","Dover"]}');
});

test('web.fetch on the pages fixture, and errors that say what happened', async ({ panel, pages }) => {
  expect((await run(panel, `web.fetch(url="${pages.origin}/child.html")`)).output).toContain('I am a child frame.');
  // A page that tries to talk to Otto is data: its text arrives inside the boundary, its script does not run.
  const hostile = (await run(panel, `web.fetch(url="${pages.origin}/hostile.html", format="text")`)).output!;
  expect(hostile).toMatch(
    /<external-content-[0-9a-f]{8}>\n[\s\S]*This page tries to talk to Otto[\s\S]*\n<\/external-content-[0-9a-f]{8}>$/,
  );
  expect(hostile).not.toContain('forgeAll');

  const missing = await run(panel, `web.fetch(url="${origin}/nope")`);
  expect(missing.error!.message).toContain('HTTP error (404): no such page');
  const refused = await run(panel, 'web.fetch(url="http://127.0.0.1:9/")');
  expect(refused.error!.message).toContain('Request failed: Failed to fetch');
  const scheme = await run(panel, 'web.fetch(url="chrome://settings")');
  expect(scheme.error!.message).toContain(
    'web.fetch only opens web pages (http: or https:), not chrome: URLs: chrome://settings.',
  );
});

test('web.fetch_many fetches several pages into labelled sections, in order', async ({ panel, pages }) => {
  const r = await run(
    panel,
    `web.fetch_many(urls=[["${origin}/tides", "Tides"], "${pages.origin}/child.html", ["${origin}/nope", "Broken"]], format="text")`,
  );
  const sections = r.output!.split(/\n\n(?==== )/);
  expect(sections.map((s) => s.split('\n')[0])).toEqual([
    '=== Tides ===',
    `=== ${pages.origin}/child.html ===`,
    '=== Broken ===',
  ]);
  expect(sections[0]).toContain('Tides rise and fall');
  expect(sections[1]).toContain('I am a child frame.');
  expect(sections[2]).toBe('=== Broken ===\nError: HTTP error (404): no such page');
});

test('the model calls web.fetch through the agent loop', async ({ panel, fakeApi }) => {
  fakeApi.reset();
  await connectToFakeApi(panel, fakeApi);
  fakeApi.script([
    { match: 'how do tide tables work', calls: [{ name: 'web__fetch', arguments: { url: `${origin}/tides` } }] },
    { match: 'twice a day', text: 'Tides come twice a day; a tide table lists high and low water.' },
  ]);
  const id = await send(panel, 'how do tide tables work? read the page');
  await waitForStatus(panel, id, 'completed');
  const items = (await conversation(panel, id)).items.map((i) => i.item);
  const output = items.find((i) => i.type === 'function_call_output') as unknown as { output: string };
  expect(output.output).toContain('# Tide tables explained');
  expect(items.at(-1)).toMatchObject({ type: 'message', role: 'assistant' });
});

test('HTML pages and PDFs share one offscreen document, opened on demand', async ({ panel, pages, serviceWorker }) => {
  const offscreen = () =>
    serviceWorker.evaluate(async () =>
      (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType] })).map(
        (c) => new URL(c.documentUrl!).pathname,
      ),
    );
  expect((await run(panel, `web.fetch(url="${origin}/tides")`)).ok).toBe(true);
  expect(await offscreen()).toEqual(['/src/offscreen/index.html']);
  const pdf = await run(panel, `web.fetch(url="${pages.origin}/files/report.pdf")`);
  expect(pdf.output).toContain('PDF ');
  expect(await offscreen()).toEqual(['/src/offscreen/index.html']);
  expect((await run(panel, `web.fetch(url="${origin}/tides", format="text")`)).output).toContain('Tides rise and fall');
});

// The saved pages of Readability's own test corpus, through the real worker and offscreen document: Readability's
// expected article is the yardstick (most of its words found, not much more text than it).
const CORPUS = path.resolve(
  process.env.OTTO_CORPORA_DIR ?? path.resolve(import.meta.dirname, '../../shared/corpora'),
  'readability',
);
const corpus = existsSync(CORPUS)
  ? readdirSync(CORPUS)
      .filter((d) => existsSync(`${CORPUS}/${d}/source.html`))
      .sort()
  : [];

test('real pages (corpora/readability): web.fetch finds the article Readability expects', async ({ panel }) => {
  if (!corpus.length && process.env.OTTO_REQUIRE_CORPORA === '1')
    throw new Error(`OTTO_REQUIRE_CORPORA=1 but ${CORPUS} is absent`);
  test.skip(!corpus.length, `${CORPUS} is absent (the shared corpora are not part of the repository; CI runs this)`);
  test.setTimeout(300_000);
  const server = await startStaticServer(CORPUS);
  const words = (t: string) =>
    t
      .replace(/<[^>]+>/g, ' ')
      .split(/\s+/)
      .filter((w) => w.length > 3);
  let good = 0;
  const poor: string[] = [];
  try {
    for (const name of corpus) {
      const r = await run(
        panel,
        `web.fetch(url="${server.origin}/${name}/source.html", format="text", max_chars=2000000)`,
      );
      expect(r.ok, name).toBe(true);
      const text = r
        .output!.replace(/^Source: .*\n<external-content-[0-9a-f]+>\n/, '')
        .replace(/\n<\/external-content-[0-9a-f]+>$/, '');
      const expected = words(readFileSync(`${CORPUS}/${name}/expected.html`, 'utf8'));
      const got = new Set(text.split(/\s+/));
      const recall = expected.filter((w) => got.has(w)).length / Math.max(1, expected.length);
      const ratio = words(text).length / Math.max(1, expected.length);
      if (recall >= 0.85 && ratio <= 1.5) good++;
      else poor.push(`${name} (recall ${recall.toFixed(2)}, size ${ratio.toFixed(2)})`);
    }
  } finally {
    await server.close();
  }
  console.info(
    `web.fetch extraction: ${good}/${corpus.length} pages with recall >= 0.85 and at most 1.5x the words; others: ${poor.join(', ')}`,
  );
  expect(good / corpus.length).toBeGreaterThanOrEqual(0.95);
});
