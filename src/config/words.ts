/**
 * A validation issue in the user's words (issue 34): "should be a number, not text" instead of zod's
 * "Invalid input: expected number, received string", "a number, not .nan" instead of "received NaN". The key path
 * and the line/column are added by parse.ts; this says what is wrong and what would be right.
 */
import type { z } from '../shared/zod.ts';

type Issue = z.core.$ZodIssue;

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a map (one "key: value" per line)',
  record: 'a map (one "key: value" per line)',
  array: 'a list (one "- item" per line, or [a, b])',
  null: 'empty',
};

/** What the value the user wrote is, in words. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'empty';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan (not a number)';
    if (!Number.isFinite(value)) return 'infinite (.inf)';
    return Number.isInteger(value) ? `the number ${value}` : `the number ${value} (with a fraction)`;
  }
  if (typeof value === 'string') return value === '' ? 'empty text' : 'text';
  if (typeof value === 'boolean') return `${value}`;
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a map';
  return 'something else';
}

function limit(n: number | bigint): string {
  return typeof n === 'bigint' ? n.toString() : n.toLocaleString('en-US');
}

/** The issue's message in plain words. `value` is what the text holds at the issue's path. */
export function plainIssue(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      if (value === undefined) return `is required: write ${expected}`;
      return `should be ${expected}, not ${describeValue(value)}`;
    }
    case 'invalid_value': {
      const options = issue.values.map((v) => String(v));
      return options.length === 1 ? `should be ${options[0]}` : `should be one of: ${options.join(', ')}`;
    }
    case 'too_small': {
      const min = limit(issue.minimum);
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? 'should not be empty' : `should be at least ${min} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `should have at least ${min} items`;
      if (!issue.inclusive && Number(issue.minimum) === 0) return 'should be more than 0';
      return issue.inclusive ? `should be at least ${min}` : `should be more than ${min}`;
    }
    case 'too_big': {
      const max = limit(issue.maximum);
      if (issue.origin === 'string') return `should be at most ${max} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `should have at most ${max} items`;
      return issue.inclusive ? `should be at most ${max}` : `should be less than ${max}`;
    }
    case 'invalid_format':
      if (issue.format === 'url') return 'should be a web address such as https://example.com';
      if (issue.format === 'regex') return issue.message || 'is not written the expected way';
      return `should be ${issue.format}`;
    case 'not_multiple_of':
      return `should be a multiple of ${String(issue.divisor)}`;
    case 'invalid_key':
      return 'has a key that is not allowed here';
    case 'invalid_element':
      return 'has an item that is not allowed here';
    case 'invalid_union':
      return 'is not one of the forms allowed here';
    case 'custom':
      return issue.message;
    default:
      return 'is not a valid value here';
  }
}
