/**
 * A watch's verdict after a run (#46 part 2): does the condition hold for the value just read, did it hold for the
 * last one, and so does the watch fire — with a one-line note for the history ("39.99 is below 40, was 42").
 * Pure: the engine passes the value this run read and the one the last run kept.
 */
import { readNumber } from './readNumber.ts';
import { oneLine } from './oneLine.ts';
import type { WatchCondition } from './watchCondition.ts';

export interface WatchVerdict {
  /** The condition holds for this value. */
  holds: boolean;
  /** The watch notifies: the condition holds now and did not for the last value (`changed`: any change). */
  fires: boolean;
  /** What the history shows, one line. */
  note: string;
}

const fold = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const show = (s: string) => JSON.stringify(oneLine(s, 60));

export function watchVerdict(c: WatchCondition, value: string, previous: string | undefined): WatchVerdict {
  if (c.op === 'changed') {
    if (previous === undefined) return { holds: false, fires: false, note: 'first value: nothing to compare with yet' };
    const holds = fold(value) !== fold(previous);
    return { holds, fires: holds, note: holds ? `changed from ${show(previous)}` : 'unchanged' };
  }
  if ('limit' in c) return compare(c.op, c.limit, value, previous);
  const holds = textHolds(c, value);
  const before = previous !== undefined && textHolds(c, previous);
  const condition = `${c.op} ${show(c.text)}`;
  const again = holds && before ? ' (held last run too)' : '';
  return { holds, fires: holds && !before, note: `${holds ? 'holds' : 'does not hold'}: ${condition}${again}` };
}

function textHolds(c: { op: 'contains' | 'not contains' | 'equals'; text: string }, value: string): boolean {
  if (c.op === 'equals') {
    const [a, b] = [readNumber(value), readNumber(c.text)];
    if (a !== undefined && b !== undefined && /^[^a-z]*$/i.test(c.text)) return a === b;
    return fold(value) === fold(c.text);
  }
  const has = fold(value).includes(fold(c.text));
  return c.op === 'contains' ? has : !has;
}

function compare(op: 'below' | 'above', limit: number, value: string, previous: string | undefined): WatchVerdict {
  const n = readNumber(value);
  if (n === undefined) return { holds: false, fires: false, note: `no number in ${show(value)}` };
  const test = (x: number) => (op === 'below' ? x < limit : x > limit);
  const p = previous === undefined ? undefined : readNumber(previous);
  const holds = test(n);
  const before = p !== undefined && test(p);
  const was = p === undefined ? '' : `, was ${p}`;
  const note = `${n} is ${holds ? '' : 'not '}${op} ${limit}${was}${holds && before ? ' (held last run too)' : ''}`;
  return { holds, fires: holds && !before, note };
}
