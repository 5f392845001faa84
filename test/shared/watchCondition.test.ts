import { describe, expect, it } from 'vitest';
import { formatWatchCondition, parseWatchCondition, WatchConditionSchema } from '../../src/shared/watchCondition.ts';
import { watchVerdict } from '../../src/shared/watchVerdict.ts';

describe('parseWatchCondition', () => {
  it.each([
    ['below 40', { op: 'below', limit: 40 }],
    ['under 39.99', { op: 'below', limit: 39.99 }],
    ['Less than  1,299.00', { op: 'below', limit: 1299 }],
    ['above 100', { op: 'above', limit: 100 }],
    ['over 39,5', { op: 'above', limit: 39.5 }],
    ['more than $5', { op: 'above', limit: 5 }],
    ['changed', { op: 'changed' }],
    ['contains "shipped"', { op: 'contains', text: 'shipped' }],
    ["contains 'Out for delivery'", { op: 'contains', text: 'Out for delivery' }],
    ['contains shipped', { op: 'contains', text: 'shipped' }],
    ['not contains "sold out"', { op: 'not contains', text: 'sold out' }],
    ["doesn't contain sold out", { op: 'not contains', text: 'sold out' }],
    ['equals 42', { op: 'equals', text: '42' }],
    ['equals "In stock"', { op: 'equals', text: 'In stock' }],
  ])('%s', (input, want) => {
    const c = parseWatchCondition(input);
    expect(c).toEqual(want);
    expect(WatchConditionSchema.parse(c)).toEqual(want);
    expect(parseWatchCondition(formatWatchCondition(c))).toEqual(want);
  });

  it.each([
    [
      'bellow 40',
      'Unknown condition \'bellow 40\' — try: below 40, above 100, changed, contains "shipped", not contains "sold out", equals 42',
    ],
    [
      '',
      'The watch has no condition — try: below 40, above 100, changed, contains "shipped", not contains "sold out", equals 42',
    ],
    ['below forty', "'below forty' needs a number, e.g. below 40"],
    [
      'above',
      'Unknown condition \'above\' — try: below 40, above 100, changed, contains "shipped", not contains "sold out", equals 42',
    ],
    ['contains ""', '\'contains ""\' needs a text, e.g. contains "shipped"'],
  ])('refuses %j in plain words', (input, message) => {
    expect(() => parseWatchCondition(input)).toThrow(message);
  });

  it('writes a condition back in the grammar', () => {
    expect(formatWatchCondition({ op: 'below', limit: 39.99 })).toBe('below 39.99');
    expect(formatWatchCondition({ op: 'contains', text: 'shipped' })).toBe('contains "shipped"');
  });
});

describe('watchVerdict', () => {
  const below40 = parseWatchCondition('below 40');

  it('fires on the run the price drops under the limit, not before and not again while it stays there', () => {
    expect(watchVerdict(below40, '$45.00', undefined)).toEqual({
      holds: false,
      fires: false,
      note: '45 is not below 40',
    });
    expect(watchVerdict(below40, '$42.00', '$45.00')).toEqual({
      holds: false,
      fires: false,
      note: '42 is not below 40, was 45',
    });
    expect(watchVerdict(below40, '$39.99', '$42.00')).toEqual({
      holds: true,
      fires: true,
      note: '39.99 is below 40, was 42',
    });
    expect(watchVerdict(below40, '$38.00', '$39.99')).toEqual({
      holds: true,
      fires: false,
      note: '38 is below 40, was 39.99 (held last run too)',
    });
    expect(watchVerdict(below40, '$41', '$38.00').fires).toBe(false);
    expect(watchVerdict(below40, '$35', '$41').fires).toBe(true);
  });

  it('fires on the first run when the condition already holds', () => {
    expect(watchVerdict(below40, '39,99 €', undefined)).toEqual({
      holds: true,
      fires: true,
      note: '39.99 is below 40',
    });
  });

  it('does not fire on a value without a number, and says so', () => {
    expect(watchVerdict(below40, 'Out of stock', '$42')).toEqual({
      holds: false,
      fires: false,
      note: 'no number in "Out of stock"',
    });
  });

  it('above compares the other way', () => {
    expect(watchVerdict(parseWatchCondition('above 1,000'), '1.299,00 €', '999 €')).toEqual({
      holds: true,
      fires: true,
      note: '1299 is above 1000, was 999',
    });
  });

  it('changed never fires on the first run, then fires on each change', () => {
    const c = parseWatchCondition('changed');
    expect(watchVerdict(c, 'Pending', undefined)).toEqual({
      holds: false,
      fires: false,
      note: 'first value: nothing to compare with yet',
    });
    expect(watchVerdict(c, 'pending ', 'Pending')).toEqual({ holds: false, fires: false, note: 'unchanged' });
    expect(watchVerdict(c, 'Shipped', 'Pending')).toEqual({ holds: true, fires: true, note: 'changed from "Pending"' });
  });

  it('contains and not contains ignore case and spacing', () => {
    const c = parseWatchCondition('contains "shipped"');
    expect(watchVerdict(c, 'Order status:  SHIPPED', 'Order status: packing')).toEqual({
      holds: true,
      fires: true,
      note: 'holds: contains "shipped"',
    });
    expect(watchVerdict(c, 'Order status: packing', undefined)).toEqual({
      holds: false,
      fires: false,
      note: 'does not hold: contains "shipped"',
    });
    const n = parseWatchCondition('not contains "sold out"');
    expect(watchVerdict(n, 'In stock', 'Sold out')).toEqual({
      holds: true,
      fires: true,
      note: 'holds: not contains "sold out"',
    });
  });

  it('equals compares numbers as numbers and text as text', () => {
    expect(watchVerdict(parseWatchCondition('equals 42'), '42.00', '41').fires).toBe(true);
    expect(watchVerdict(parseWatchCondition('equals "In stock"'), ' in  stock', 'Sold out').fires).toBe(true);
    expect(watchVerdict(parseWatchCondition('equals "In stock"'), 'In stock soon', 'Sold out').fires).toBe(false);
  });
});
