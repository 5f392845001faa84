#!/usr/bin/env node
/**
 * `npm run test:fuzz`: the long form of the fuzz suite (test/fuzz/, issue 34). Each property runs 40× its quick
 * count on a fresh seed (printed first); FUZZ_SEED / FUZZ_RUNS / FUZZ_PATH override. Extra arguments go to Vitest
 * (e.g. a file or `-t name`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seed = process.env.FUZZ_SEED || String((Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0);
console.log(`fuzz (long form): FUZZ_SEED=${seed}${process.env.FUZZ_RUNS ? ` FUZZ_RUNS=${process.env.FUZZ_RUNS}` : ''}`);
const args = process.argv.slice(2);
const r = spawnSync(
  path.join(root, 'node_modules', '.bin', 'vitest'),
  ['run', '--testTimeout=900000', ...(args.length ? args : ['test/fuzz'])],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_LONG: '1', FUZZ_SEED: seed },
  },
);
process.exit(r.status ?? 1);
