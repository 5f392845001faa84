/**
 * A watch's condition (#46 part 2): the small grammar a user writes after `watch:` — parsed once, when the schedule
 * is saved, into a typed condition, and evaluated after each run against the value the run read and the one before.
 *
 *   below 40 | under 40 | less than 40        the value's number is below the limit
 *   above 100 | over 100 | more than 100      the value's number is above the limit
 *   changed                                   the value differs from the last one (never on the first run)
 *   contains "shipped" | not contains "…"     the value holds (or lacks) the text, case and spacing ignored
 *   equals 42 | equals "In stock"             the same number, or the same text (case and spacing ignored)
 *
 * A watch fires when its condition starts to hold: "below 40" notifies on the run the price drops under 40, not on
 * every later run while it stays there; it fires again after the value has left the condition and come back.
 * `changed` fires on every change. See docs/decisions/schedules-watches.md.
 */
import { z } from './zod.ts';
import { readNumber } from './readNumber.ts';
import { oneLine } from './oneLine.ts';

export const WatchConditionSchema = z.discriminatedUnion('op', [
  z.object({ op: z.enum(['below', 'above']), limit: z.number().finite() }),
  z.object({ op: z.literal('changed') }),
  z.object({ op: z.enum(['contains', 'not contains', 'equals']), text: z.string().min(1).max(500) }),
]);
export type WatchCondition = z.infer<typeof WatchConditionSchema>;

export class WatchConditionError extends Error {}

const EXAMPLES = 'try: below 40, above 100, changed, contains "shipped", not contains "sold out", equals 42';
const COMPARE: [RegExp, 'below' | 'above'][] = [
  [/^(?:below|under|less than)\s+(.*)$/i, 'below'],
  [/^(?:above|over|more than)\s+(.*)$/i, 'above'],
];
const TEXTUAL: [RegExp, 'contains' | 'not contains' | 'equals'][] = [
  [/^(?:not contains?|does not contain|doesn't contain)\s+(.*)$/i, 'not contains'],
  [/^contains?\s+(.*)$/i, 'contains'],
  [/^(?:equals?|is)\s+(.*)$/i, 'equals'],
];

/** Parses what the user wrote; throws WatchConditionError with a message that says what to write instead. */
export function parseWatchCondition(input: string): WatchCondition {
  const text = input.trim().replace(/\s+/g, ' ');
  if (!text) throw new WatchConditionError(`The watch has no condition — ${EXAMPLES}`);
  if (/^changed$/i.test(text)) return { op: 'changed' };
  for (const [re, op] of COMPARE) {
    const m = re.exec(text);
    if (!m) continue;
    const limit = /\d/.test(m[1]!) ? readNumber(m[1]!) : undefined;
    if (limit === undefined) throw new WatchConditionError(`'${oneLine(text, 60)}' needs a number, e.g. ${op} 40`);
    return { op, limit };
  }
  for (const [re, op] of TEXTUAL) {
    const m = re.exec(text);
    if (!m) continue;
    const operand = unquote(m[1]!);
    if (!operand) throw new WatchConditionError(`'${oneLine(text, 60)}' needs a text, e.g. ${op} "shipped"`);
    if (operand.length > 500) throw new WatchConditionError(`The text after '${op}' is longer than 500 characters`);
    return { op, text: operand };
  }
  throw new WatchConditionError(`Unknown condition '${oneLine(text, 60)}' — ${EXAMPLES}`);
}

function unquote(s: string): string {
  const m = /^(["'“‘])(.*)(["'”’])$/.exec(s.trim());
  return (m ? m[2]! : s).trim();
}

/** The condition written back in the grammar's own words (what the panel shows and the config keeps). */
export function formatWatchCondition(c: WatchCondition): string {
  if (c.op === 'changed') return 'changed';
  if ('limit' in c) return `${c.op} ${c.limit}`;
  return `${c.op} ${JSON.stringify(c.text)}`;
}
