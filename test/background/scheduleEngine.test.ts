import { describe, expect, it } from 'vitest';
import { openOttoDB } from '../../src/storage/db.ts';
import { ScheduleHistory } from '../../src/storage/scheduleHistory.ts';
import { ScheduleEngine } from '../../src/background/scheduleEngine.ts';
import { DEFAULT_CONFIG, type OttoConfig } from '../../src/config/schema.ts';
import type { ScheduleEntry } from '../../src/config/scheduleConfig.ts';
import type { ScheduleRunRecord } from '../../src/storage/scheduleRunRecord.ts';

const at = (d: number, h: number, m = 0) => new Date(2026, 0, d, h, m).getTime();
const entry = (when: string, over: Partial<ScheduleEntry> = {}): ScheduleEntry => ({
  when,
  snippet: 's',
  args: {},
  paused: false,
  notify: true,
  ...over,
});

function memoryStorage(): chrome.storage.StorageArea {
  const data: Record<string, unknown> = {};
  return {
    get: async (key: string) => (key in data ? { [key]: structuredClone(data[key]) } : {}),
    set: async (items: Record<string, unknown>) => void Object.assign(data, structuredClone(items)),
  } as unknown as chrome.storage.StorageArea;
}

async function setup(schedules: Record<string, ScheduleEntry>) {
  let now = at(5, 8); // Monday 5 Jan 2026, 08:00
  const alarms = new Map<string, number>();
  const runs: string[] = [];
  const ended: ScheduleRunRecord[] = [];
  const history = new ScheduleHistory(await openOttoDB(`otto-engine-${Math.random().toString(36).slice(2)}`));
  const config: OttoConfig = { ...DEFAULT_CONFIG, schedules };
  const engine = new ScheduleEngine({
    config: async () => config,
    history,
    run: async (id) => {
      runs.push(id);
      return { outcome: 'done', output: `ran ${id}`, tokens: 0, costUsd: 0 };
    },
    changed: (r) => void (r.outcome !== 'running' && ended.push(r)),
    alarms: {
      create: async (name: string, info: { when?: number }) => void alarms.set(name, info.when!),
      clear: async (name: string) => alarms.delete(name),
      getAll: async () => [...alarms].map(([name, scheduledTime]) => ({ name, scheduledTime })),
    } as never,
    storage: memoryStorage(),
    now: () => now,
  });
  const settle = async () => {
    for (let i = 0; i < 50 && (await history.list()).some((r) => r.outcome === 'running'); i++)
      await new Promise((r) => setTimeout(r, 5));
  };
  return { engine, history, alarms, runs, ended, config, settle, setNow: (t: number) => (now = t) };
}

describe('ScheduleEngine', () => {
  it('arms one alarm per active schedule at its next time; paused and removed ones are cleared', async () => {
    const t = await setup({ weekly: entry('every monday 09:00'), off: entry('hourly', { paused: true }) });
    t.alarms.set('schedule:gone', 1);
    t.alarms.set('other-alarm', 2);
    await t.engine.rearm();
    expect([...t.alarms].sort()).toEqual([
      ['other-alarm', 2],
      ['schedule:weekly', at(5, 9)],
    ]);
  });

  it('a new schedule is not owed its past times; at its time it runs once, on time', async () => {
    const t = await setup({ weekly: entry('every monday 09:00') });
    await t.engine.catchUp();
    expect(t.runs).toEqual([]);
    t.setNow(at(5, 9, 0) + 1500);
    await t.engine.onAlarm({ name: 'schedule:weekly' });
    await t.settle();
    await t.engine.onAlarm({ name: 'schedule:weekly' });
    await t.settle();
    expect(t.runs).toEqual(['weekly']);
    const [r] = await t.history.list('weekly');
    expect([r!.outcome, r!.late, r!.trigger, r!.due, r!.output]).toEqual([
      'done',
      false,
      'alarm',
      at(5, 9),
      'ran weekly',
    ]);
    expect(t.alarms.get('schedule:weekly')).toBe(at(12, 9));
  });

  it('times missed while Chrome was closed: the latest runs once, marked late', async () => {
    const t = await setup({ every2h: entry('every 2 hours') });
    await t.engine.rearm(); // armed Monday 08:00
    t.setNow(at(5, 15, 30)); // closed over 10:00, 12:00, 14:00
    await t.engine.catchUp();
    await t.settle();
    await t.engine.catchUp();
    await t.settle();
    expect(t.runs).toEqual(['every2h']);
    const [r] = await t.history.list('every2h');
    expect([r!.late, r!.trigger, r!.due]).toEqual([true, 'missed', at(5, 14)]);
    expect(t.ended.map((e) => e.outcome)).toEqual(['done']);
  });

  it('run now: returns the run id at once, records `run-now`; an unknown schedule is refused by name', async () => {
    const t = await setup({ weekly: entry('every monday 09:00') });
    const id = await t.engine.runNow('weekly');
    expect(id).toBe(`weekly:${at(5, 8)}`);
    await t.settle();
    expect((await t.history.get(id))?.trigger).toBe('run-now');
    await expect(t.engine.runNow('nope')).rejects.toThrow('There is no schedule "nope".');
  });

  it('a run that throws is recorded as failed with the reason', async () => {
    const t = await setup({ weekly: entry('every monday 09:00') });
    const engine = new ScheduleEngine({
      config: async () => t.config,
      history: t.history,
      run: async () => {
        throw new Error('Chrome did not open a window for the run.');
      },
      changed: () => undefined,
      alarms: { create: async () => undefined, clear: async () => true, getAll: async () => [] } as never,
      storage: memoryStorage(),
      now: () => at(5, 8),
    });
    const id = await engine.runNow('weekly');
    await t.settle();
    const r = await t.history.get(id);
    expect([r?.outcome, r?.reason]).toEqual(['failed', 'Chrome did not open a window for the run.']);
  });
});
