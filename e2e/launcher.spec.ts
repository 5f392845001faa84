/** `npm start`'s launcher, run the same way headless (`--check`): it loads Otto, seeds the environment, exits 0. */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './support/browser.ts';

const launcher = path.join(ROOT, 'scripts/launch.mjs');

test("the launcher's headless check loads Otto and seeds settings from the environment", () => {
  const key = 'sk-e2e-launcher-0123456789';
  const run = spawnSync(process.execPath, [launcher, '--check'], {
    env: { ...process.env, OPENAI_API_KEY: key, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OTTO_MODEL: 'test-model' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/extension loaded \(id [a-p]{32}, version \d+\.\d+\.\d+\)/);
  expect(run.stdout).toContain('seeded from the environment: agent.base_url, agent.model, OPENAI_API_KEY');
  expect(run.stdout).toContain('headless check passed');
  // The key is seeded, never echoed.
  expect(run.stdout).not.toContain(key);
});

test('the launcher says how to install a browser when none is found', () => {
  const run = spawnSync(process.execPath, [launcher, '--check'], {
    env: { ...process.env, CHROME_PATH: '/nonexistent/chrome' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('apt-get install -y chromium');
});
