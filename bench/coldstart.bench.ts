/**
 * Service-worker cold start to first streamed token, in Chromium with the built extension: the worker is stopped
 * (as Chrome does when idle), then the panel sends a message; we time from the send to the first text delta, with
 * the fake Responses API answering at once. The same measured with the worker already running gives the ratio.
 */
import type { Page } from 'playwright-core';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'coldstart';
/** It repeats internally (per page / per sample); a few rounds are enough for min/max. */
export const rounds = 3;
const SAMPLES = process.env.BENCH_QUICK === '1' ? 3 : 8;

/** Sends over a fresh port (which wakes a stopped worker) and resolves with ms until the first text delta. */
function timeToFirstToken(panel: Page, text: string): Promise<number> {
  return panel.evaluate(
    (t) =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        const port = chrome.runtime.connect({ name: 'otto-panel' });
        port.onMessage.addListener((m: { type: string; event?: { type: string }; ok?: boolean; error?: string }) => {
          if (m.type === 'agent' && m.event?.type === 'text.delta') {
            resolve(performance.now() - start);
            port.disconnect();
          }
          if (m.type === 'result' && m.ok === false) reject(new Error(m.error));
        });
        port.postMessage({ type: 'chat.send', id: `bench-${Math.random()}`, text: t });
      }),
    text,
  );
}

async function stopWorker(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const stopped = new Promise<void>((resolve) =>
    cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { runningStatus: string }[] }) => {
      if (e.versions.some((v) => v.runningStatus === 'stopped')) resolve();
    }),
  );
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await stopped;
  await cdp.detach();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({
    turns: [{ text: 'Hello from the fake API, streamed in several words.', times: Infinity }],
  });
  const browser = await openExtension(name, api.url).catch(async (err: unknown) => {
    await api.close();
    throw err;
  });
  try {
    const { panel } = browser;
    await timeToFirstToken(panel, 'warm up'); // first run: JIT, connection
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      await panel.waitForTimeout(300); // let the previous run finish
      warm.push(await timeToFirstToken(panel, `warm ${i}`));
      await panel.waitForTimeout(300);
      await stopWorker(panel);
      cold.push(await timeToFirstToken(panel, `cold ${i}`));
    }
    return [
      { name: 'cold_start_to_first_token_ms', value: median(cold), unit: 'ms' },
      { name: 'warm_to_first_token_ms', value: median(warm), unit: 'ms' },
      { name: 'ratio_cold_vs_warm', value: median(cold) / median(warm), unit: '×' },
    ];
  } finally {
    await browser.close();
    await api.close();
  }
}
