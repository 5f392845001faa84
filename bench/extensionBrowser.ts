/**
 * Chromium with the built extension for the benchmarks that need the real worker: its service worker, a panel page
 * to talk to it over the port, and Otto pointed at a (fake) Responses API.
 */
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, chromiumPath, extensionArgs } from '../e2e/support/browser.ts';

export interface ExtensionBrowser {
  context: BrowserContext;
  sw: Worker;
  panel: Page;
  /** One panel request over a fresh port; resolves with the worker's `result` message. */
  ask(body: object): Promise<{ ok: boolean; data?: { id?: string }; error?: string }>;
  close(): Promise<void>;
}

export async function openExtension(bench: string, apiUrl: string): Promise<ExtensionBrowser> {
  if (!existsSync(path.join(DIST, 'manifest.json')))
    throw new Error(`${bench} bench needs dist/: run \`npm run build\` first`);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'otto-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: extensionArgs(),
  });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    // tsx compiles the benches with keepNames: functions passed to evaluate() call a `__name` helper pages lack.
    await sw.evaluate('globalThis.__name = (f) => f;');
    const panel = await context.newPage();
    await panel.addInitScript('globalThis.__name = (f) => f;');
    await panel.goto(`chrome-extension://${new URL(sw.url()).host}/src/sidepanel/index.html`);
    await panel.locator('[data-testid="worker-status"][data-state="ready"]').waitFor();
    const ask: ExtensionBrowser['ask'] = (body) =>
      panel.evaluate(
        (b) =>
          new Promise((resolve) => {
            const port = chrome.runtime.connect({ name: 'otto-panel' });
            port.onMessage.addListener((m: { type: string }) => {
              if (m.type !== 'result') return;
              resolve(m as never);
              port.disconnect();
            });
            port.postMessage({ ...b, id: String(Math.random()) });
          }),
        body,
      );
    await ask({ type: 'config.save', yaml: `agent:\n  base_url: ${apiUrl}\n  model: gpt-bench\n` });
    await ask({ type: 'secrets.save', yaml: 'OPENAI_API_KEY: sk-bench-0000000000\n' });
    return { context, sw, panel, ask, close };
  } catch (err) {
    await close();
    throw err;
  }
}
