import { describe, expect, it } from 'vitest';
import { nextFire, parseWhen, previousFire, whenProblem } from '../../src/shared/scheduleWhen.ts';

/** Local wall-clock time → epoch ms (the parser works in local time). */
const at = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi).getTime();
const local = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

describe('parseWhen: the plain forms become cron lines', () => {
  it.each([
    ['every monday 09:00', '0 9 * * 1'],
    ['Every Mon at 9:30', '30 9 * * 1'],
    ['every mon,thu 07:05', '5 7 * * 1,4'],
    ['every weekday 08:00', '0 8 * * 1,2,3,4,5'],
    ['every weekend 10:00', '0 10 * * 0,6'],
    ['daily 18:30', '30 18 * * *'],
    ['every day 00:00', '0 0 * * *'],
    ['every 2 hours', '0 */2 * * *'],
    ['every hour', '0 * * * *'],
    ['hourly', '0 * * * *'],
    ['every 15 minutes', '*/15 * * * *'],
    ['30 9 * * 1-5', '30 9 * * 1-5'],
  ])('%s → %s', (text, cron) => {
    expect(parseWhen(text).cron).toBe(cron);
  });
});

describe('parseWhen: bad input says what is wrong', () => {
  it.each([
    ['every funday 09:00', '"funday" is not a day of the week (monday … sunday, weekday, weekend).'],
    ['daily 25:00', '"25:00" is not a time of day (00:00 to 23:59).'],
    ['every 90 minutes', 'every 90 minutes: the number must be between 1 and 59.'],
    ['', 'The schedule has no time: write'],
    ['61 * * * *', 'The minute field "61": 61 is outside 0-59.'],
    ['0 9 * *', '"0 9 * *": a cron line has 5 fields (minute hour day-of-month month weekday), this one has 4.'],
    ['0 9-5 * * *', 'The hour field "9-5": the range 9-5 runs backwards.'],
    ['0 9 * * x', 'The weekday field "x": "x" is not a number.'],
    ['sometimes', '"sometimes" is not a time Otto can read; write'],
    ['every 3 days', '"every 3 days": a schedule repeats by minutes, hours, days of the week or a cron line'],
  ])('%j', (text, message) => {
    expect(whenProblem(text)).toContain(message);
  });
});

describe('nextFire and previousFire (local time)', () => {
  it('every monday 09:00: from a Wednesday, the next Monday; at 09:00 exactly, the week after', () => {
    const when = parseWhen('every monday 09:00');
    // 2026-01-07 is a Wednesday.
    expect(local(nextFire(when, at(2026, 1, 7, 12)))).toBe('2026-01-12 09:00');
    expect(local(nextFire(when, at(2026, 1, 12, 9)))).toBe('2026-01-19 09:00');
    expect(local(previousFire(when, at(2026, 1, 12, 9))!)).toBe('2026-01-12 09:00');
    expect(local(previousFire(when, at(2026, 1, 12, 8, 59))!)).toBe('2026-01-05 09:00');
  });

  it('every 2 hours is aligned to the clock, and crosses midnight and the year', () => {
    const when = parseWhen('every 2 hours');
    expect(local(nextFire(when, at(2026, 3, 1, 13, 10)))).toBe('2026-03-01 14:00');
    expect(local(nextFire(when, at(2026, 12, 31, 23, 1)))).toBe('2027-01-01 00:00');
  });

  it('cron ranges, lists and steps', () => {
    const when = parseWhen('10-20/5 8,17 * 1-3 *');
    expect(parseWhen('10-20/5 8,17 * 1-3 *').fields.minutes).toEqual([10, 15, 20]);
    expect(local(nextFire(when, at(2026, 3, 31, 17, 20)))).toBe('2027-01-01 08:10');
    expect(local(nextFire(when, at(2026, 2, 3, 8, 12)))).toBe('2026-02-03 08:15');
  });

  it('day of month and weekday both set: either fires (cron rule); 7 is Sunday', () => {
    const when = parseWhen('0 12 1 * 7');
    // 2026-02-01 is a Sunday; then Sunday the 8th; then 1 March (a Sunday too),
    expect(local(nextFire(when, at(2026, 1, 31, 12)))).toBe('2026-02-01 12:00');
    expect(local(nextFire(when, at(2026, 2, 2)))).toBe('2026-02-08 12:00');
  });

  it('month ends and leap days: the 31st skips short months; Feb 29 waits for a leap year', () => {
    expect(local(nextFire(parseWhen('0 6 31 * *'), at(2026, 4, 1)))).toBe('2026-05-31 06:00');
    expect(local(nextFire(parseWhen('0 0 29 2 *'), at(2026, 3, 1)))).toBe('2028-02-29 00:00');
    expect(local(previousFire(parseWhen('0 0 29 2 *'), at(2026, 3, 1))!)).toBe('2024-02-29 00:00');
  });

  it('a day that cannot exist never fires, and says so', () => {
    expect(() => nextFire(parseWhen('0 0 31 2 *'), at(2026, 1, 1))).toThrow('never happens');
    expect(previousFire(parseWhen('0 0 31 2 *'), at(2026, 1, 1))).toBeUndefined();
  });
});
