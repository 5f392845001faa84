/**
 * What an idle schedule costs (#46). Otto's schedules wake the worker only through their alarms (one alarm per
 * schedule, at its next time; no timer, no other listener that fires by itself), so the worker starts an idle
 * schedule causes per hour are its fires per hour: counted here over four weeks with the engine's own `nextFire`.
 * `catchup_ms` is the engine's work on each such start (read the config, compare each schedule's due time with its
 * last run, re-arm), timed with in-memory stand-ins for chrome.alarms, storage and the history (10 schedules).
 * The tab events of an idle Otto starting no worker is checked by e2e/idle-worker.spec.ts (still 0 with schedules).
 */
import type { BenchMetric } from './types.ts';
import { nextFire, parseWhen } from '../src/shared/scheduleWhen.ts';
import { ScheduleEngine } from '../src/background/scheduleEngine.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import type { ScheduleHistory } from '../src/storage/scheduleHistory.ts';

export const name = 'schedule_idle';

function startsPerHour(when: string): number {
  const parsed = parseWhen(when);
  const from = new Date(2026, 0, 5).getTime();
  const to = from + 28 * 24 * 3600_000;
  let n = 0;
  for (let t = nextFire(parsed, from); t <= to; t = nextFire(parsed, t)) n++;
  return n / (28 * 24);
}

async function catchUpMs(): Promise<number> {
  const schedules = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [
      `s${i}`,
      { when: 'every monday 09:00', snippet: 'x', args: {}, paused: false, notify: true },
    ]),
  );
  const data: Record<string, unknown> = {};
  const engine = new ScheduleEngine({
    config: async () => ({ ...DEFAULT_CONFIG, schedules }),
    history: { last: async () => undefined } as unknown as ScheduleHistory,
    run: async () => ({ outcome: 'done', output: '', tokens: 0, costUsd: 0 }),
    changed: () => undefined,
    alarms: { create: async () => undefined, clear: async () => true, getAll: async () => [] } as never,
    storage: {
      get: async (k: string) => ({ [k]: data[k] }),
      set: async (o: Record<string, unknown>) => void Object.assign(data, o),
    } as never,
  });
  await engine.catchUp();
  const rounds = 200;
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await engine.catchUp();
  return (performance.now() - t0) / rounds;
}

export async function run(): Promise<BenchMetric[]> {
  return [
    { name: 'starts_per_hour_weekly', value: startsPerHour('every monday 09:00'), unit: 'starts/h' },
    { name: 'starts_per_hour_daily', value: startsPerHour('daily 18:30'), unit: 'starts/h' },
    { name: 'starts_per_hour_every_2h', value: startsPerHour('every 2 hours'), unit: 'starts/h' },
    { name: 'catchup_ms', value: await catchUpMs(), unit: 'ms', budget: 20 },
  ];
}
