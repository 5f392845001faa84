#!/usr/bin/env node
/**
 * `npm start`: sets up what is missing (scripts/lib/setup.mjs — Node built-ins only, so it runs on a fresh clone),
 * builds dist/, then opens Chromium with Otto (scripts/launch.mjs; `npm start -- --check` is the headless check).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSetupOrExit } from './lib/setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureSetupOrExit(root);

const started = Date.now();
console.log('otto: building dist/ …');
const build = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error(`otto: the build failed (${build.error?.message ?? `exit ${build.status}`}); see above.`);
  process.exit(1);
}
console.log(`otto: built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// The launcher loads playwright-core, so it runs only now that the packages are known to be there.
const launch = spawnSync(process.execPath, [path.join(root, 'scripts', 'launch.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(launch.status ?? 1);
