/**
 * #17 "teach once, replay free": the same task — open the fixture shop, log in, fill the order across two pages,
 * read the confirmation number — run by the (scripted) model through the agent loop, and replayed from a snippet
 * with no model, alternated on one tab of the real extension. The fake Responses API answers at once, so the model
 * side here is Otto's own loop cost per turn (8 responses; the model reads the number from its last snapshot) with no model latency at all: a real model adds seconds
 * per turn, so the measured ratio is a floor.
 *
 * #44 (`replayTodos.ts`): the TodoMVC task recorded on the React build and replayed on the Vue, Lit and jQuery
 * builds against the same task through the scripted model there, and the share of its saved locators that
 * Playwright's own locators resolve to the acted-on element on those builds.
 */
import path from 'node:path';
import { ROOT } from '../e2e/support/browser.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import type { Turn } from '../test/support/fake-api/turns.ts';
import { call } from '../e2e/support/modelTurns.ts';
import { shopSnippetYaml, shopTurns, shopUrl } from '../e2e/support/shopOrder.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';
import { todoMetrics } from './replayTodos.ts';

export const name = 'replay';
export const rounds = 3;
const ROWS = process.env.BENCH_QUICK === '1' ? 2 : 5;

/** What a model does for the task: look, act by ref, look again — 8 responses; the model reads the number from its last snapshot. */
function turns(url: string, times: number): Turn[] {
  return [
    { match: 'place the usual order', calls: [call('tabs__navigate', { url }), call('dom__snapshot')], times },
    shopTurns.signIn(times),
    { match: /^dom__click ok/, calls: [call('dom__snapshot')], times: times * 3 },
    shopTurns.details(times),
    shopTurns.order(times),
    { match: /^Page snapshot[\s\S]*Confirmation number/, text: 'Placed.', times },
  ];
}

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const pages = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
  const ext = await openExtension('replay', `${api.url}`);
  try {
    const url = shopUrl(pages.origin);
    await ext.ask({
      type: 'config.save',
      yaml: `agent:\n  base_url: ${api.url}\n  model: gpt-bench\napprovals:\n  policy: auto\n${shopSnippetYaml(url)}`,
    });
    const page = await ext.context.newPage();
    await page.goto(url);
    const tabId = await ext.panel.evaluate(
      async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)!.id!,
      url,
    );
    api.script(turns(url, ROWS));
    let model = 0;
    let replay = 0;
    const modelRequests: number[] = [];
    for (let i = 0; i < ROWS; i++) {
      const before = api.responsesRequests().length;
      const t0 = performance.now();
      const sent = (await ext.ask({ type: 'chat.send', text: 'place the usual order', tabId })) as {
        data?: { conversationId?: string };
      };
      const id = sent.data?.conversationId;
      if (!id) throw new Error('replay bench: chat.send failed');
      for (;;) {
        const c = (await ext.ask({ type: 'conversations.get', conversationId: id })) as {
          data?: { active: boolean; state?: { status: string; lastError?: { message: string } } };
        };
        const st = c.data?.state?.status;
        if (!c.data?.active && st && st !== 'running') {
          if (st !== 'completed')
            throw new Error(`replay bench: the model run ended ${st}: ${c.data?.state?.lastError?.message}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      model += performance.now() - t0;
      modelRequests.push(api.responsesRequests().length - before);

      const before2 = api.responsesRequests().length;
      const t1 = performance.now();
      const r = (await ext.ask({ type: 'command.run', text: '$shop password=hunter2', tabId })) as {
        data?: { ok: boolean; output?: string; error?: { message: string } };
      };
      replay += performance.now() - t1;
      if (!r.data?.ok || !/Confirmation number: ORD-\d{7}/.test(r.data.output ?? ''))
        throw new Error(`replay bench: the replay failed: ${r.data?.error?.message ?? r.data?.output}`);
      if (api.responsesRequests().length !== before2) throw new Error('replay bench: the replay asked the model');
    }
    const perModel = model / ROWS;
    const perReplay = replay / ROWS;
    await page.close();
    const todos = await todoMetrics(ext, api, pages.origin, ROWS);
    return [
      ...todos,
      { name: 'replay_ms_per_row', value: Math.round(perReplay), unit: 'ms' },
      { name: 'model_ms_per_row', value: Math.round(perModel), unit: 'ms' },
      { name: 'model_requests_per_row', value: modelRequests[0] ?? 0, unit: 'requests' },
      { name: 'replay_model_requests', value: 0, unit: 'requests' },
      { name: 'model_to_replay_ratio', value: Math.round((perModel / perReplay) * 100) / 100, unit: 'x' },
    ];
  } finally {
    await ext.close();
    await pages.close();
    await api.close();
  }
}
