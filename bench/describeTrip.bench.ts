/**
 * The page round trip the scope gate adds to each state-changing call (issue #42): before a dom call that changes
 * something runs, the worker asks the content script to describe its target (`dom.describe`: role, name, words,
 * the fields it would send, the heading it sits under) so the effect can be judged. Measured in Chromium with the
 * built extension (dist/): the worker's own `otto.page.describe` against the webmail fixture app
 * (e2e/fixtures/pages/apps/webmail.html, React; built by the e2e global setup), timed in the worker with
 * performance.now, after five warm-up calls (the content script is injected by the first):
 *   - `send_p50`/`send_p95`: the compose box's script Send button (a selector: the content script resolves it, and
 *     gathers the To/Subject/Message values and the "New message" heading);
 *   - `ref_p50`/`ref_p95`: the same element by ref (the usual case: the model acts on refs from a snapshot);
 *   - `drag_pair_p50`/`drag_pair_p95`: a dom.drag onto an element, whose source and destination are described
 *     together (Promise.all), as the dom pack does.
 * Requires dist/ and the fixture build; skipped (no metrics, a message) when either is missing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DIST } from '../e2e/support/browser.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'describeTrip';
export const rounds = 1;

const PAGES = path.resolve(import.meta.dirname, '../e2e/fixtures/pages');
const CALLS = Number(process.env.DESCRIBE_TRIP_CALLS ?? 200);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Times `calls` describe round trips in the worker; `expr` is the body run per call (tab id in `t`). */
/** The worker's `otto.page` handle, as far as this bench calls it. */
type PageHandle = {
  otto: {
    page: {
      describe: (t: number, target: object) => Promise<{ ref?: string }>;
      snapshot: (t: number, o: object) => Promise<unknown>;
    };
  };
};

type Timed = (tabId: number, which: 'selector' | 'ref' | 'pair', calls: number) => Promise<number[]>;

export async function run(): Promise<BenchMetric[]> {
  const app = path.join(PAGES, 'apps/webmail.html');
  if (!existsSync(path.join(DIST, 'manifest.json')) || !existsSync(app)) {
    console.error(
      'describeTrip: not measured: needs dist/ (npm run build) and the fixture apps (an e2e run builds them)',
    );
    return [];
  }
  const server = await startStaticServer(PAGES);
  const ext = await openExtension('describeTrip', 'http://127.0.0.1:9/v1');
  try {
    const page = await ext.context.newPage();
    await page.goto(`${server.origin}/apps/webmail.html`);
    await page.locator('#nav-compose').click();
    await page.locator('#to').fill('bob@mail.example');
    await page.locator('#body').fill('Hello Bob!');
    const tabId = await ext.sw.evaluate(
      async (u) => (await chrome.tabs.query({})).find((t) => t.url?.startsWith(u))!.id!,
      server.origin,
    );
    const timed: Timed = (tab, which, calls) =>
      ext.sw.evaluate(
        async ([t, w, n]) => {
          const p = (globalThis as unknown as PageHandle).otto.page;
          const ref = w === 'selector' ? undefined : (await p.describe(t, { selector: '#send' })).ref;
          const one = () =>
            w === 'selector'
              ? p.describe(t, { selector: '#send' })
              : w === 'ref'
                ? p.describe(t, { ref })
                : Promise.all([p.describe(t, { ref }), p.describe(t, { selector: '#nav-inbox' })]);
          for (let i = 0; i < 5; i++) await one();
          const out: number[] = [];
          for (let i = 0; i < n; i++) {
            const s = performance.now();
            await one();
            out.push(performance.now() - s);
          }
          return out;
        },
        [tab, which, calls] as const,
      );
    // A ref exists once a snapshot has named the element.
    await ext.sw.evaluate(async (t) => {
      await (globalThis as unknown as PageHandle).otto.page.snapshot(t, {});
    }, tabId);
    // What is timed is the real description: the Send button with the compose values and heading.
    const send = (await ext.sw.evaluate(
      (t) =>
        (globalThis as unknown as PageHandle).otto.page.describe(t, {
          selector: '#send',
        }),
      tabId,
    )) as { name?: string; context?: string[]; heading?: string };
    if (send.name !== 'Send' || !send.context?.includes('To: bob@mail.example') || send.heading !== 'New message')
      throw new Error(`describeTrip: unexpected description ${JSON.stringify(send)}`);
    const out: BenchMetric[] = [];
    for (const which of ['selector', 'ref', 'pair'] as const) {
      const ms = (await timed(tabId, which, CALLS)).sort((a, b) => a - b);
      const label = which === 'selector' ? 'send' : which === 'ref' ? 'ref' : 'drag_pair';
      out.push(
        { name: `${label}_p50`, value: round2(pct(ms, 50)), unit: 'ms' },
        { name: `${label}_p95`, value: round2(pct(ms, 95)), unit: 'ms' },
      );
    }
    return out;
  } finally {
    await ext.close();
    await server.close();
  }
}
