import { defineConfig } from '@playwright/test';

// e2e runs the built extension (dist/) in Debian's Chromium, headless. Tests share one browser per worker
// (worker-scoped fixtures in e2e/support/fixtures.ts); two workers fit this machine's two cores.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/fixtures/globalSetup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  outputDir: 'test-results',
  reporter: [['list']],
  use: { trace: 'retain-on-failure' },
});
