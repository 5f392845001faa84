/** #42 part 3: `otto run` prints an answer; a link in it that carries data is left out and a warning names the flow. */
import { describe, expect, it } from 'vitest';
import { defanged, withheldLinks } from '../../src/cli/run/linkWarnings.ts';

const URL = 'https://collector.test/verify?d=ACCT-7731-QX';
const CARRIES = {
  url: URL,
  to: 'collector.test',
  carries: true,
  from: ['bank.test'],
  values: ['ACCT-7731-QX'],
  sentence: 'This link sends data read from bank.test (ACCT-7731-QX) to collector.test. Open it?',
};
const PLAIN = { url: 'https://shop.test/widgets', to: 'shop.test', carries: false, from: [], values: [] };

describe('withheldLinks', () => {
  it('leaves a link carrying data out of the answer and names the flow, the address defanged', () => {
    const r = withheldLinks(`Done. [Verify your booking](${URL}). Seeds: https://shop.test/widgets.`, [CARRIES, PLAIN]);
    expect(r.text).toBe(
      'Done. [Verify your booking]([link to collector.test left out: it carries data]). Seeds: https://shop.test/widgets.',
    );
    expect(r.warnings).toEqual([
      "warning: the answer's link to collector.test carries data read from bank.test (ACCT-7731-QX); it was left out of the answer: https[:]//collector.test/verify?d=ACCT-7731-QX",
    ]);
  });
  it('a link seen nowhere says it may carry data', () => {
    const r = withheldLinks(`See ${URL}`, [{ ...CARRIES, values: [] }]);
    expect(r.warnings[0]).toBe(
      "warning: the answer's link to collector.test may carry data read from bank.test; it was left out of the answer: https[:]//collector.test/verify?d=ACCT-7731-QX",
    );
  });
  it('plain links, no verdicts or verdicts of the wrong shape change nothing', () => {
    expect(withheldLinks('https://shop.test/widgets', [PLAIN])).toEqual({
      text: 'https://shop.test/widgets',
      warnings: [],
    });
    expect(withheldLinks(`x ${URL}`, undefined)).toEqual({ text: `x ${URL}`, warnings: [] });
    expect(withheldLinks(`x ${URL}`, [{ url: 5 }])).toEqual({ text: `x ${URL}`, warnings: [] });
    expect(defanged('http://a.test/x')).toBe('http[:]//a.test/x');
  });
});
