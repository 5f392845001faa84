/**
 * What Otto's tab group (#27) costs a tool call, in the real worker with Chromium's chrome.tabs / chrome.tabGroups:
 * the loop's share check before a call (`TabScope.check`) and the interceptor's gate when it runs
 * (`TabScope.guard`), for a call on a tab in the group and one outside it; and `visibleTabs` (what tabs.list adds).
 */
import path from 'node:path';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { ROOT } from '../e2e/support/browser.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'tab_scope';
export const rounds = 3;
const N = process.env.BENCH_QUICK === '1' ? 50 : 300;

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const pages = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
  const browser = await openExtension(name, api.url).catch(async (err: unknown) => {
    await api.close();
    await pages.close();
    throw err;
  });
  try {
    const { sw, context, ask } = browser;
    for (const p of ['blog.html', 'bank.html', 'child.html'])
      await (await context.newPage()).goto(`${pages.origin}/${p}`);
    const created = await ask({ type: 'conversations.create' });
    if (!created.ok || !created.data?.id) throw new Error(`conversations.create failed: ${created.error}`);
    const times = await sw.evaluate(
      async ([conversationId, origin, n]) => {
        type Scope = {
          join(c: string, id: number): Promise<unknown>;
          check(c: string, q: string, a: unknown): Promise<unknown>;
          guard(c: string, t: unknown, a: unknown, run?: number): Promise<void>;
          visibleTabs(c: string): Promise<unknown>;
        };
        const g = globalThis as unknown as { otto: { tabScope: Scope; registry(): { get(q: string): unknown } } };
        const scope = g.otto.tabScope;
        const tabs = await chrome.tabs.query({});
        const id = (p: string) => tabs.find((t) => t.url === `${origin}/${p}`)!.id!;
        const mine = id('blog.html');
        const other = id('bank.html');
        await scope.join(conversationId, mine);
        const tool = g.otto.registry().get('dom.text');
        const time = async (fn: () => Promise<unknown>) => {
          for (let i = 0; i < 10; i++) await fn().catch(() => undefined);
          const t = performance.now();
          for (let i = 0; i < n; i++) await fn().catch(() => undefined);
          return (performance.now() - t) / n;
        };
        return {
          checkIn: await time(() => scope.check(conversationId, 'dom.text', { tab_id: mine })),
          checkOut: await time(() => scope.check(conversationId, 'dom.text', { tab_id: other })),
          checkNone: await time(() => scope.check(conversationId, 'ot.version', {})),
          guardIn: await time(() => scope.guard(conversationId, tool, { tab_id: mine }, mine)),
          visible: await time(() => scope.visibleTabs(conversationId)),
        };
      },
      [created.data.id, pages.origin, N] as const,
    );
    return [
      { name: 'check_in_group_ms', value: times.checkIn, unit: 'ms' },
      { name: 'check_outside_group_ms', value: times.checkOut, unit: 'ms' },
      { name: 'check_no_tab_ms', value: times.checkNone, unit: 'ms' },
      { name: 'gate_in_group_ms', value: times.guardIn, unit: 'ms' },
      { name: 'visible_tabs_ms', value: times.visible, unit: 'ms' },
    ];
  } finally {
    await browser.close();
    await api.close();
    await pages.close();
  }
}
