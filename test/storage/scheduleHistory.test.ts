import { describe, expect, it } from 'vitest';
import { openOttoDB } from '../../src/storage/db.ts';
import { HISTORY_KEEP, ScheduleHistory } from '../../src/storage/scheduleHistory.ts';

const fresh = async () => new ScheduleHistory(await openOttoDB(`otto-sched-${Math.random().toString(36).slice(2)}`));

describe('ScheduleHistory', () => {
  it('keeps runs per schedule, newest first, with defaults (not late, 0 tokens and cost)', async () => {
    const h = await fresh();
    await h.put({ id: 'a:1', scheduleId: 'a', due: 1, started: 1, outcome: 'done', output: 'one' });
    await h.put({ id: 'a:5', scheduleId: 'a', due: 5, started: 6, outcome: 'failed', late: true, reason: 'no button' });
    await h.put({ id: 'b:3', scheduleId: 'b', due: 3, started: 3, outcome: 'skipped' });
    const a = await h.list('a');
    expect(a.map((r) => [r.id, r.outcome, r.late, r.tokens, r.costUsd])).toEqual([
      ['a:5', 'failed', true, 0, 0],
      ['a:1', 'done', false, 0, 0],
    ]);
    expect((await h.last('a'))?.reason).toBe('no button');
    expect((await h.list()).map((r) => r.id)).toEqual(['a:5', 'b:3', 'a:1']);
  });

  it('a run written again under its id is replaced (waiting, then done)', async () => {
    const h = await fresh();
    await h.put({ id: 'a:1', scheduleId: 'a', due: 1, started: 1, outcome: 'paused-waiting' });
    await h.put({ id: 'a:1', scheduleId: 'a', due: 1, started: 1, finished: 9, durationMs: 8, outcome: 'done' });
    expect((await h.list('a')).map((r) => r.outcome)).toEqual(['done']);
  });

  it('refuses a record without its fields, and cuts long output', async () => {
    const h = await fresh();
    await expect(h.put({ id: 'x', scheduleId: 'x', due: 1, started: 1, outcome: 'maybe' as never })).rejects.toThrow();
    const r = await h.put({
      id: 'x',
      scheduleId: 'x',
      due: 1,
      started: 1,
      outcome: 'done',
      output: 'y'.repeat(30_000),
    });
    expect(r.output.length).toBe(20_000);
  });

  it(`keeps the newest ${HISTORY_KEEP} runs of a schedule, and deleting a schedule drops its runs only`, async () => {
    const h = await fresh();
    for (let i = 0; i < HISTORY_KEEP + 3; i++)
      await h.put({ id: `a:${i}`, scheduleId: 'a', due: i, started: i, outcome: 'done' });
    await h.put({ id: 'b:1', scheduleId: 'b', due: 1, started: 1, outcome: 'done' });
    const a = await h.list('a', 1000);
    expect(a.length).toBe(HISTORY_KEEP);
    expect(a.at(-1)!.started).toBe(3);
    expect(await h.deleteSchedule('a')).toBe(HISTORY_KEEP);
    expect((await h.list()).map((r) => r.id)).toEqual(['b:1']);
  });
});
