#!/usr/bin/env node
/**
 * Opens Chromium with the built extension (dist/) loaded, in a persistent profile under the project, and shows
 * Otto's panel page in a tab. OPENAI_API_KEY, OPENAI_BASE_URL and OTTO_MODEL from the environment are seeded into
 * the extension's secrets and config, so `OPENAI_API_KEY=... npm start` gives a working agent at once.
 *
 *   node scripts/launch.mjs            headed; stays open until the browser is closed
 *   node scripts/launch.mjs --check    the same path headless, in a throwaway profile; exits 0 when Otto loaded
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { findBrowser, INSTALL_HINT } from './lib/find-browser.mjs';
import { seedFromEnv } from './lib/seed-env.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const check = process.argv.includes('--check');
const headless = check || process.argv.includes('--headless');

function fail(message) {
  console.error(`otto: ${message}`);
  process.exit(1);
}

const browserPath = findBrowser();
if (!browserPath) fail(INSTALL_HINT);
if (!existsSync(path.join(dist, 'manifest.json')))
  fail('dist/ is missing. Run `npm run build` (npm start does it for you).');
if (!headless && process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  fail(
    'no display found. On a machine without one, run `xvfb-run npm start` (apt-get install -y xvfb), or `npm start -- --check` for a headless check.',
  );
}

const profile = check ? await mkdtemp(path.join(os.tmpdir(), 'otto-check-')) : path.join(root, '.otto-profile');
const context = await chromium.launchPersistentContext(profile, {
  executablePath: browserPath,
  headless,
  viewport: null,
  ignoreDefaultArgs: ['--enable-automation'],
  args: [
    `--disable-extensions-except=${dist}`,
    `--load-extension=${dist}`,
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  ],
});

try {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  const extensionId = new URL(worker.url()).host;
  const seeded = await seedFromEnv(worker, process.env);
  const panel = context.pages()[0] ?? (await context.newPage());
  await panel.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
  await panel.locator('[data-testid="worker-status"][data-state="ready"]').waitFor({ timeout: 15_000 });
  const version = await worker.evaluate(() => globalThis.otto?.version);

  console.log(`otto: extension loaded (id ${extensionId}, version ${version}); worker and panel answer.`);
  if (seeded.length) console.log(`otto: seeded from the environment: ${seeded.join(', ')}`);
  if (check) {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    console.log('otto: headless check passed.');
    process.exit(0);
  }
  console.log('otto: Chromium is open with Otto; its panel page is in the first tab. Close the browser to exit.');
  await new Promise((resolve) => context.on('close', resolve));
} catch (err) {
  await context.close().catch(() => undefined);
  if (check) await rm(profile, { recursive: true, force: true });
  fail(`the extension did not load: ${err instanceof Error ? err.message : err}`);
}
