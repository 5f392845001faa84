import { describe, expect, it } from 'vitest';
import { ScheduleEntry } from '../../src/config/scheduleConfig.ts';
import { ScheduleRunRecord } from '../../src/storage/scheduleRunRecord.ts';
import { editRequest, scheduleRequests, scheduleRow } from '../../src/sidepanel/state/scheduleRequests.ts';
import type { Request } from '../../src/sidepanel/state/request.ts';

const entry = ScheduleEntry.parse({
  when: 'every 2 hours',
  snippet: 'price',
  args: { url: 'http://shop.test/p/1' },
  watch: { condition: 'below 40' },
});
const rec = (started: number, value: string, extra: Record<string, unknown> = {}) =>
  ScheduleRunRecord.parse({
    id: `price:${started}`,
    scheduleId: 'price',
    due: started,
    started,
    outcome: 'done',
    value,
    output: value,
    ...extra,
  });

describe('schedules in the panel: the worker replies as rows', () => {
  it('a snippet schedule reads as the call the user would type', () => {
    const row = scheduleRow({ id: 'price', entry, kind: 'snippet', cron: '0 */2 * * *', nextRun: 5 });
    expect(row).toEqual({
      name: 'price',
      when: 'every 2 hours',
      kind: 'snippet',
      what: '$price url="http://shop.test/p/1"',
      watch: 'below 40',
      paused: false,
      nextRunAt: 5,
      notify: true,
    });
  });

  it('a history run carries the value of the run before it', async () => {
    const runs = [
      rec(3, '$39.99', { triggered: true, change: '39.99 is below 40, was 42' }),
      rec(2, '$42.00'),
      rec(1, '$45.00'),
    ];
    const sent: unknown[] = [];
    const req = (async (body: unknown) => (sent.push(body), runs)) as unknown as Request;
    const history = await scheduleRequests(req).history('price');
    expect(sent).toEqual([{ type: 'schedules.history', scheduleId: 'price', limit: 200 }]);
    expect(history.map((r) => [r.value, r.previous, r.notified, r.change])).toEqual([
      ['$39.99', '$42.00', true, '39.99 is below 40, was 42'],
      ['$42.00', '$45.00', false, 'the output changed since the last run'],
      ['$45.00', null, false, ''],
    ]);
  });

  it('a run without a watch says whether its output changed since the last done run', async () => {
    const runs = [
      rec(4, 'B', { value: undefined }),
      rec(3, 'A', { value: undefined, outcome: 'failed' }),
      rec(2, 'A', { value: undefined }),
      rec(1, 'A', { value: undefined }),
    ];
    const req = (async () => runs) as unknown as Request;
    const history = await scheduleRequests(req).history('price');
    expect(history.map((r) => r.change)).toEqual([
      'the output changed since the last run',
      '',
      'same output as the last run',
      '',
    ]);
  });

  it('an edit becomes schedules.save fields, or says what is wrong', () => {
    const row = scheduleRow({ id: 'price', entry, kind: 'snippet' });
    expect(editRequest(row, { when: 'hourly', what: '$price url="http://shop.test/p/2"', watch: 'below 30' })).toEqual({
      snippet: 'price',
      args: { url: 'http://shop.test/p/2' },
    });
    expect(editRequest(row, { when: 'hourly', what: '$price', watch: 'cheaper' })).toBe(
      'Unknown condition \'cheaper\' — try: below 40, above 100, changed, contains "shipped", not contains "sold out", equals 42',
    );
    expect(editRequest(row, { when: 'hourly', what: 'price', watch: '' })).toMatch(/^The snippet call: /);
  });
});
