/**
 * Service-worker cold start to first streamed token, in Chromium with the built extension: the worker is stopped
 * (as Chrome does when idle), then the panel sends a message; we time from the send to the first text delta, with
 * the fake Responses API answering at once. The same measured with the worker already running gives the ratio.
 */
import { chromium, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import { DIST, chromiumPath, extensionArgs } from '../e2e/support/browser.ts';
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
  if (!existsSync(path.join(DIST, 'manifest.json'))) throw new Error('coldstart bench needs dist/: run `npm run build` first');
  const api = await startFakeApi({ turns: [{ text: 'Hello from the fake API, streamed in several words.', times: Infinity }] });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'otto-bench-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), headless: true, args: extensionArgs() });
  try {
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const panel = await context.newPage();
    // tsx compiles this file with keepNames: functions passed to evaluate() call a `__name` helper the page lacks.
    await panel.addInitScript('globalThis.__name = (f) => f;');
    await panel.goto(`chrome-extension://${new URL(sw.url()).host}/src/sidepanel/index.html`);
    await panel.locator('[data-testid="worker-status"][data-state="ready"]').waitFor();
    await panel.evaluate(async (url) => {
      const ask = (body: object) =>
        new Promise((resolve) => {
          const port = chrome.runtime.connect({ name: 'otto-panel' });
          port.onMessage.addListener((m: { type: string }) => m.type === 'result' && resolve(m));
          port.postMessage({ ...body, id: String(Math.random()) });
        });
      await ask({ type: 'config.save', yaml: `agent:\n  base_url: ${url}\n  model: gpt-bench\n` });
      await ask({ type: 'secrets.save', yaml: 'OPENAI_API_KEY: sk-bench-0000000000\n' });
    }, api.url);
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
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await api.close();
  }
}
