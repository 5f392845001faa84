import { describe, expect, it } from 'vitest';
import { formatProblem, parseConfigYaml } from '../../src/config/parse.ts';

const problems = (condition: string) => {
  const out = parseConfigYaml(
    [
      'schedules:',
      '  prices:',
      '    when: every 2 hours',
      '    task: read the price',
      `    watch: { condition: '${condition}' }`,
    ].join('\n'),
  );
  return out.ok ? [] : out.problems.map(formatProblem);
};

describe('config schedules.*.watch', () => {
  it('takes a condition in the watch grammar', () => {
    expect(problems('below 40')).toEqual([]);
    expect(problems('contains "shipped"')).toEqual([]);
  });

  it('refuses a condition it cannot read, with the forms to write', () => {
    expect(problems('bellow 40')).toEqual([
      'line 5, column 25: schedules.prices.watch.condition: Unknown condition \'bellow 40\' — try: below 40, above 100, changed, contains "shipped", not contains "sold out", equals 42',
    ]);
  });
});
