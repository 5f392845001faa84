/**
 * When a schedule runs (#46): the `when` text of a `schedules:` entry, parsed into cron fields, and the next and
 * previous fire times in the browser's local time. Every form the user may write becomes a five-field cron line:
 *
 *   every monday 09:00 · every mon,thu 9:30 · every weekday 08:00 · every day 18:30 · daily 18:30
 *   every 15 minutes · every 2 hours · every hour · hourly · `30 9 * * 1-5` (minute hour day-of-month month weekday)
 *
 * Intervals are aligned to the clock, as cron's steps are ("every 2 hours" fires at 00:00, 02:00, …), so the next
 * time depends only on the text and the clock, never on when the schedule was made. The arithmetic walks local
 * calendar fields with `Date` setters: no fixed "24 h = a day" step, so a day that is 23 or 25 hours long still
 * fires at its wall-clock time. Pure: no chrome, no storage.
 */

export interface CronFields {
  minutes: readonly number[];
  hours: readonly number[];
  days: readonly number[];
  months: readonly number[];
  weekdays: readonly number[];
  /** Cron's rule: when both day fields are restricted, a day matching either fires. */
  dayStar: boolean;
  weekdayStar: boolean;
}

export interface ParsedWhen {
  /** The text as written, trimmed. */
  text: string;
  /** The same schedule as a cron line (shown in the panel and the CLI). */
  cron: string;
  fields: CronFields;
}

/** A `when` text Otto cannot read; the message names the problem in plain words. */
export class WhenError extends Error {
  override name = 'WhenError';
}

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const FORMS = '"every monday 09:00", "daily 18:30", "every 2 hours", "every 15 minutes" or a cron line "30 9 * * 1-5"';

const FIELD_SPECS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES },
  { name: 'weekday', min: 0, max: 7, names: DAY_NAMES.map((d) => d.slice(0, 3)) },
] as const;

/** Parses `when`; throws WhenError naming what is wrong. */
export function parseWhen(input: string): ParsedWhen {
  const text = input.trim().replace(/\s+/g, ' ');
  if (!text) throw new WhenError(`The schedule has no time: write ${FORMS}.`);
  const cron = /^[\d*]/.test(text) ? text : plainToCron(text.toLowerCase());
  return { text, cron, fields: parseCron(cron) };
}

/** A `when` text's problem in plain words, or undefined when it reads (for the config schema). */
export function whenProblem(input: string): string | undefined {
  try {
    parseWhen(input);
    return undefined;
  } catch (error) {
    if (error instanceof WhenError) return error.message;
    throw error;
  }
}

function plainToCron(text: string): string {
  if (text === 'hourly' || text === 'every hour') return '0 * * * *';
  const interval = /^every (\d+) (minute|minutes|hour|hours)$/.exec(text);
  if (interval) return intervalCron(Number(interval[1]), interval[2]!.startsWith('minute') ? 'minute' : 'hour');
  const daily = /^(?:daily|every day)(?: at)? (.+)$/.exec(text);
  if (daily) return timeCron(daily[1]!, '*');
  const weekly = /^every ([a-z, ]+?)(?: at)? (\d{1,2}:\d{2})$/.exec(text);
  if (weekly) return timeCron(weekly[2]!, weekdayList(weekly[1]!));
  if (/^every (\d+) days?\b/.test(text))
    throw new WhenError(`"${text}": a schedule repeats by minutes, hours, days of the week or a cron line; ${FORMS}.`);
  throw new WhenError(`"${text}" is not a time Otto can read; write ${FORMS}.`);
}

function intervalCron(n: number, unit: 'minute' | 'hour'): string {
  const limit = unit === 'minute' ? 59 : 23;
  if (n < 1 || n > limit) throw new WhenError(`every ${n} ${unit}s: the number must be between 1 and ${limit}.`);
  if (unit === 'minute') return n === 1 ? '* * * * *' : `*/${n} * * * *`;
  return n === 1 ? '0 * * * *' : `0 */${n} * * *`;
}

function timeCron(time: string, weekdays: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!m) throw new WhenError(`"${time}" is not a time of day; write it as 09:00 or 18:30.`);
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) throw new WhenError(`"${time}" is not a time of day (00:00 to 23:59).`);
  return `${minute} ${hour} * * ${weekdays}`;
}

function weekdayList(words: string): string {
  const parts = words.split(/\s*(?:,|\band\b)\s*/).filter(Boolean);
  const out: number[] = [];
  for (const word of parts) {
    if (word === 'weekday' || word === 'weekdays') out.push(1, 2, 3, 4, 5);
    else if (word === 'weekend' || word === 'weekends') out.push(6, 0);
    else {
      const at = DAY_NAMES.findIndex((d) => d === word || d.slice(0, 3) === word || `${d}s` === word);
      if (at < 0) throw new WhenError(`"${word}" is not a day of the week (monday … sunday, weekday, weekend).`);
      out.push(at);
    }
  }
  return [...new Set(out)].sort((a, b) => a - b).join(',');
}

function parseCron(cron: string): CronFields {
  const parts = cron.split(' ');
  if (parts.length !== 5)
    throw new WhenError(
      `"${cron}": a cron line has 5 fields (minute hour day-of-month month weekday), this one has ${parts.length}.`,
    );
  const [minutes, hours, days, months, weekdaysRaw] = parts.map((p, i) => parseField(p, FIELD_SPECS[i]!));
  // 7 is Sunday too.
  const weekdays = [...new Set(weekdaysRaw!.map((d) => d % 7))].sort((a, b) => a - b);
  return {
    minutes: minutes!,
    hours: hours!,
    days: days!,
    months: months!,
    weekdays,
    dayStar: parts[2] === '*',
    weekdayStar: parts[4] === '*',
  };
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

function parseField(field: string, spec: FieldSpec): number[] {
  const out = new Set<number>();
  for (const item of field.split(',')) {
    const m = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/i.exec(item);
    if (!m) throw new WhenError(`The ${spec.name} field "${field}" is not a cron value (e.g. 5, 1-5, */2, 1,3).`);
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) throw new WhenError(`The ${spec.name} field "${field}": a step must be 1 or more.`);
    let [lo, hi] = [spec.min, spec.max];
    if (m[1] !== '*') {
      const [a, b] = m[1]!.split('-');
      lo = fieldValue(a!, spec, field);
      hi = b === undefined ? (m[2] === undefined ? lo : spec.max) : fieldValue(b, spec, field);
      if (hi < lo) throw new WhenError(`The ${spec.name} field "${field}": the range ${m[1]} runs backwards.`);
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}

function fieldValue(word: string, spec: FieldSpec, field: string): number {
  const named = spec.names?.indexOf(word.toLowerCase().slice(0, 3)) ?? -1;
  const value = /^\d+$/.test(word) ? Number(word) : named >= 0 ? named + spec.min : NaN;
  if (Number.isNaN(value)) throw new WhenError(`The ${spec.name} field "${field}": "${word}" is not a number.`);
  if (value < spec.min || value > spec.max)
    throw new WhenError(`The ${spec.name} field "${field}": ${value} is outside ${spec.min}-${spec.max}.`);
  return value;
}

function dayMatches(f: CronFields, d: Date): boolean {
  const dom = f.days.includes(d.getDate());
  const dow = f.weekdays.includes(d.getDay());
  if (f.dayStar || f.weekdayStar) return dom && dow;
  return dom || dow;
}

/** Moves `d` (already set to the day wanted; `_moved` is that setter's result) to its first minute. */
function startOfDay(d: Date, _moved: number): void {
  d.setHours(0, 0);
}

function endOfDay(d: Date, _moved: number): void {
  d.setHours(23, 59);
}

/** Enough steps to cross any gap between two fires (a yearly Feb 29 is the longest); more means none exists. */
const MAX_STEPS = 20_000;

/** The first fire time strictly after `after` (epoch ms), in local time. */
export function nextFire(when: ParsedWhen, after: number): number {
  const f = when.fields;
  const d = new Date(after);
  d.setSeconds(0, 0);
  d.setMinutes(d.getMinutes() + 1);
  for (let i = 0; i < MAX_STEPS; i++) {
    if (!f.months.includes(d.getMonth() + 1)) startOfDay(d, d.setMonth(d.getMonth() + 1, 1));
    else if (!dayMatches(f, d)) startOfDay(d, d.setDate(d.getDate() + 1));
    else if (!f.hours.includes(d.getHours())) d.setHours(d.getHours() + 1, 0);
    else if (!f.minutes.includes(d.getMinutes())) d.setMinutes(d.getMinutes() + 1);
    else return d.getTime();
  }
  throw new WhenError(`"${when.text}" never happens (no such day).`);
}

/** The last fire time at or before `atOrBefore`, or undefined when there is none in the last years. */
export function previousFire(when: ParsedWhen, atOrBefore: number): number | undefined {
  const f = when.fields;
  const d = new Date(atOrBefore);
  d.setSeconds(0, 0);
  for (let i = 0; i < MAX_STEPS; i++) {
    if (!f.months.includes(d.getMonth() + 1)) endOfDay(d, d.setDate(0));
    else if (!dayMatches(f, d)) endOfDay(d, d.setDate(d.getDate() - 1));
    else if (!f.hours.includes(d.getHours())) d.setHours(d.getHours() - 1, 59);
    else if (!f.minutes.includes(d.getMinutes())) d.setMinutes(d.getMinutes() - 1);
    else return d.getTime();
  }
  return undefined;
}
