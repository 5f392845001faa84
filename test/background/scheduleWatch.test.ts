import { describe, expect, it } from 'vitest';
import { ScheduleEntry } from '../../src/config/scheduleConfig.ts';
import { ScheduleRunRecord } from '../../src/storage/scheduleRunRecord.ts';
import { applyWatch, watchedTaskMessage, watchNotice } from '../../src/background/scheduleWatch.ts';
import { noticeFor } from '../../src/background/scheduleNotices.ts';

const snippetWatch = ScheduleEntry.parse({
  when: 'every 2 hours',
  snippet: 'price',
  watch: { condition: 'below 40' },
});
const record = (value: string, started: number, outcome: 'done' | 'failed' = 'done') =>
  ScheduleRunRecord.parse({ id: `p:${started}`, scheduleId: 'p', due: started, started, outcome, value });

describe('applyWatch', () => {
  it('runs before the drop keep their value and do not fire; the drop fires once', () => {
    expect(applyWatch(snippetWatch, '$45.00', [])).toEqual({
      value: '$45.00',
      triggered: false,
      change: '45 is not below 40',
    });
    expect(applyWatch(snippetWatch, '$42.00', [record('$45.00', 1)])).toEqual({
      value: '$42.00',
      previous: '$45.00',
      triggered: false,
      change: '42 is not below 40, was 45',
    });
    const earlier = [record('$42.00', 2), record('$45.00', 1)];
    expect(applyWatch(snippetWatch, '$39.99', earlier)).toEqual({
      value: '$39.99',
      previous: '$42.00',
      triggered: true,
      change: '39.99 is below 40, was 42',
    });
    expect(applyWatch(snippetWatch, '$38.00', [record('$39.99', 3), ...earlier])?.triggered).toBe(false);
  });

  it("a failed run's value is not the one compared with", () => {
    expect(applyWatch(snippetWatch, '$39', [record('$30', 2, 'failed'), record('$41', 1)])?.previous).toBe('$41');
  });

  it("a task's value is its VALUE: line", () => {
    const task = ScheduleEntry.parse({
      when: 'hourly',
      task: 'Read the order status',
      watch: { condition: 'contains shipped' },
    });
    expect(applyWatch(task, 'I opened the order page.\nVALUE: Shipped on Dec 8', [record('Packing', 1)])).toEqual({
      value: 'Shipped on Dec 8',
      previous: 'Packing',
      triggered: true,
      change: 'holds: contains "shipped"',
    });
    expect(watchedTaskMessage(task)).toBe(
      'Read the order status\n\nThis run is a watch (contains shipped): end your answer with one line "VALUE: <the value you read>", the value exactly as the page shows it.',
    );
  });

  it('no watch: nothing to apply', () => {
    expect(applyWatch(ScheduleEntry.parse({ when: 'hourly', snippet: 's' }), 'x', [])).toBeUndefined();
  });

  it('the notification says the value, the previous one and the page', () => {
    const r = applyWatch(snippetWatch, '$39.99', [record('$42.00', 1)])!;
    expect(watchNotice('price', snippetWatch, r, 'http://shop.test/p/1')).toEqual({
      title: 'Otto watch "price": below 40',
      message: 'Now: $39.99\nBefore: $42.00\nPage: http://shop.test/p/1',
    });
  });
});

describe('noticeFor a watched schedule', () => {
  const entry = ScheduleEntry.parse({
    when: 'hourly',
    snippet: 'price',
    args: { url: 'http://shop.test/p/1' },
    watch: { condition: 'below 40' },
  });
  const run = (extra: Record<string, unknown>) =>
    ScheduleRunRecord.parse({ id: 'price:1', scheduleId: 'price', due: 1, started: 1, outcome: 'done', ...extra });

  it('says nothing for a done run whose value does not meet the condition', () => {
    expect(noticeFor(run({ value: '$42', triggered: false }), entry)).toBeUndefined();
  });

  it('when it fires: the value, the previous one and the page', () => {
    expect(noticeFor(run({ value: '$39.99', previous: '$42.00', triggered: true }), entry)).toEqual({
      title: 'Otto watch "price": below 40',
      message: 'Now: $39.99\nBefore: $42.00\nPage: http://shop.test/p/1',
    });
  });

  it('a failed run still says so', () => {
    expect(noticeFor(run({ outcome: 'failed', reason: 'no element #price' }), entry)?.title).toBe('Otto: price failed');
  });
});
