#!/usr/bin/env node
/**
 * `npm run setup`: installs Chromium (when no browser is found) and the npm packages. `npm start` and `npm test` do
 * the same by themselves when something is missing; this is for those who want it explicitly.
 *
 *   node scripts/setup.mjs              browser if missing, then `npm ci` always
 *   node scripts/setup.mjs --if-needed  only what is missing (what npm start / npm test run first)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSetupOrExit, setupNeeds } from './lib/setup.mjs';
import { findBrowser } from './lib/find-browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ifNeeded = process.argv.includes('--if-needed');
const did = ensureSetupOrExit(root, { force: !ifNeeded });
if (!did.length) {
  const need = setupNeeds(root);
  console.log(
    `otto setup: nothing to do (packages current, browser ${need.browser ? 'missing' : `at ${findBrowser()}`})`,
  );
}
