#!/usr/bin/env node
/**
 * `npm test`: sets up what is missing (packages, a browser: scripts/lib/setup.mjs), then unit tests (Vitest), a
 * production build, and e2e (Playwright, real Chromium). Every phase runs
 * even if an earlier one failed, so one report covers everything; it ends with `N passed, N failed`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSetupOrExit } from './lib/setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Packages and a browser first (Node built-ins only until they are known to be there); nothing when present.
ensureSetupOrExit(root);
const out = path.join(root, '.test-output');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const phases = [];

// Unit
const unitStatus = run('unit (vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}/unit.json`,
]);
const unit = readJson(`${out}/unit.json`);
if (unit) {
  totals.passed += unit.numPassedTests;
  totals.failed += unit.numFailedTests;
  totals.skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
  if (unitStatus !== 0 && unit.numFailedTests === 0) totals.failed += 1; // a suite that failed to load
} else totals.failed += 1;
phases.push(['unit', unitStatus]);

// Build, then e2e against dist/
const buildStatus = run('build (vite)', bin('vite'), ['build', '--logLevel', 'warn']);
phases.push(['build', buildStatus]);
if (buildStatus !== 0) totals.failed += 1;
else {
  const e2eStatus = run('e2e (playwright, chromium)', bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/e2e.json`,
  });
  const e2e = readJson(`${out}/e2e.json`);
  if (e2e?.stats) {
    totals.passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
    totals.failed += e2e.stats.unexpected;
    totals.skipped += e2e.stats.skipped ?? 0;
    if (e2eStatus !== 0 && e2e.stats.unexpected === 0) totals.failed += 1; // e.g. a global setup error
  } else totals.failed += 1;
  phases.push(['e2e', e2eStatus]);
}

console.log(`\n${phases.map(([p, s]) => `${p}: ${s === 0 ? 'ok' : `exit ${s}`}`).join(' · ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 ? 0 : 1);
