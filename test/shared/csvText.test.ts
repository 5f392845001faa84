import { describe, expect, it } from 'vitest';
import { csvText } from '../../src/shared/csvText.ts';
import { parseCsv } from '../../src/cli/run/csv.ts';

describe('csvText', () => {
  it('writes a header and one quoted-where-needed row per record, CRLF', () => {
    expect(
      csvText(
        ['when', 'outcome', 'output'],
        [
          { when: '2026-12-08T02:00:00.000Z', outcome: 'ok', output: 'Price: $39.99, was "$42"' },
          { when: '2026-12-08T03:00:00.000Z', outcome: 'failed', output: 'line 1\nline 2' },
          { when: '2026-12-08T04:00:00.000Z', outcome: null },
        ],
      ),
    ).toBe(
      'when,outcome,output\r\n' +
        '2026-12-08T02:00:00.000Z,ok,"Price: $39.99, was ""$42"""\r\n' +
        '2026-12-08T03:00:00.000Z,failed,"line 1\nline 2"\r\n' +
        '2026-12-08T04:00:00.000Z,,\r\n',
    );
  });

  it('defuses page text a spreadsheet would run as a formula, but keeps numbers', () => {
    expect(
      csvText(['v'], [{ v: '=HYPERLINK("http://x")' }, { v: '@SUM(A1)' }, { v: '-5' }, { v: -5 }, { v: '+1 555' }]),
    ).toBe('v\r\n"\'=HYPERLINK(""http://x"")"\r\n\'@SUM(A1)\r\n-5\r\n-5\r\n\'+1 555\r\n');
  });

  it('reads back with the CLI reader', () => {
    const text = csvText(['a', 'b'], [{ a: 'x, "y"', b: 'z\r\nw' }]);
    expect(parseCsv(text)).toEqual([{ a: 'x, "y"', b: 'z\r\nw' }]);
  });
});
