import { describe, expect, it } from 'vitest';
import { formatProblem, parseConfigYaml } from '../../src/config/parse.ts';

const problems = (yaml: string) => {
  const out = parseConfigYaml(yaml);
  return out.ok ? [] : out.problems.map(formatProblem);
};

describe('config schedules:', () => {
  it('reads a snippet schedule and a task schedule, with defaults', () => {
    const out = parseConfigYaml(
      [
        'snippets:',
        '  report: { body: "tabs.list()" }',
        'schedules:',
        '  monday-report:',
        '    when: every monday 09:00',
        '    snippet: report',
        '    args: { week: 3 }',
        '  prices:',
        '    when: every 2 hours',
        '    task: read the price on shop.example',
        '    scope: { effects: [read], sites: [shop.example] }',
        '    watch: { condition: below 40 }',
      ].join('\n'),
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.value.schedules['monday-report']).toEqual({
      when: 'every monday 09:00',
      snippet: 'report',
      args: { week: 3 },
      paused: false,
      notify: true,
    });
    expect(out.value.schedules.prices!.scope).toEqual({ effects: ['read'], sites: ['shop.example'] });
    expect(out.value.schedules.prices!.watch).toEqual({ condition: 'below 40' });
  });

  it('no schedules: an empty map (a version 2 config needs no edit)', () => {
    const out = parseConfigYaml('version: 2\n');
    expect(out.ok && out.value.schedules).toEqual({});
  });

  it('a bad time, both or neither of snippet and task, and a bad name are errors in plain words', () => {
    expect(problems('schedules:\n  a:\n    when: every funday 9:00\n    task: x\n').join('\n')).toContain(
      '"funday" is not a day of the week',
    );
    expect(problems('schedules:\n  a:\n    when: daily 09:00\n').join('\n')).toContain(
      'a schedule runs either `snippet` or `task`, exactly one of them',
    );
    expect(problems('schedules:\n  a:\n    when: daily 09:00\n    task: x\n    snippet: y\n').join('\n')).toContain(
      'exactly one of them',
    );
    expect(problems('schedules:\n  "a b":\n    when: daily 09:00\n    task: x\n').join('\n')).toContain(
      'schedule names are letters, digits, - and _',
    );
  });
});
