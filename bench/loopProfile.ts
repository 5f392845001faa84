/**
 * Profiles one side of the loop bench (bench/loop.bench.ts) alone, to see where a turn's time goes:
 *
 *   npx tsx bench/loopProfile.ts [otto|memory|ref] [runs] [profile.cpuprofile]
 *
 * Prints wall and CPU ms per turn after a warm-up; with a third argument, writes a CPU profile of the measured runs
 * (open it in Chrome DevTools' Performance panel, or sum its samples by file). `otto` is the runner over IndexedDB
 * (fake-indexeddb in node), `memory` the same runner over an in-memory store, `ref` the minimal loop on the SDK.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import OpenAI from 'openai';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import { ottoRunner, referenceRun, script } from './loop.bench.ts';

const side = process.argv[2] ?? 'otto';
const runs = Number(process.argv[3] ?? 300);
const profilePath = process.argv[4];
if (!['otto', 'memory', 'ref'].includes(side) || !(runs > 0))
  throw new Error('usage: npx tsx bench/loopProfile.ts [otto|memory|ref] [runs] [profile.cpuprofile]');

const api = await startFakeApi({ validate: false, replayChecks: false });
try {
  const otto = ottoRunner(api, side === 'memory');
  const sdk = new OpenAI({ apiKey: 'sk-bench-000000', baseURL: api.url, maxRetries: 0 });
  const WARM = 20;
  script(api, runs + WARM);
  const one = async (): Promise<void> => {
    if (side === 'ref') return referenceRun(sdk);
    const state = await otto.runner.send((await otto.store.create()).id, 'echo twice');
    if (state.status !== 'completed') throw new Error(`run ended ${state.status}`);
  };
  for (let i = 0; i < WARM; i++) await one();
  const session = new Session();
  if (profilePath) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < runs; i++) await one();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  if (profilePath) writeFileSync(profilePath, JSON.stringify((await session.post('Profiler.stop')).profile));
  const perTurn = (ms: number) => (ms / runs / 3).toFixed(3);
  console.log(`${side}: ${perTurn(wall)} ms per turn wall, ${perTurn((used.user + used.system) / 1000)} ms CPU`);
} finally {
  await api.close();
}
