import { describe, expect, it } from 'vitest';
import { readNumber } from '../../src/shared/readNumber.ts';

describe('readNumber', () => {
  it.each([
    ['$39.99', 39.99],
    ['39,99 €', 39.99],
    ['1,299.00', 1299],
    ['1.299,00 €', 1299],
    ['1 299,50 €', 1299.5],
    ['1\u202f299,50\u00a0€', 1299.5],
    ["CHF 1'299.95", 1299.95],
    ['12.345.678', 12345678],
    ['1,299', 1299],
    ['1.299 €', 1299],
    ['0.125', 0.125],
    ['Price: 42', 42],
    ['−5 °C', -5],
    ['-3,5', -3.5],
    ['Now $38.50, was $45.00', 38.5],
    ['Only 3 left', 3],
  ])('%s → %d', (text, n) => {
    expect(readNumber(text)).toBe(n);
  });

  it('is undefined when the text shows no number', () => {
    expect(readNumber('Out of stock')).toBeUndefined();
    expect(readNumber('')).toBeUndefined();
  });
});
