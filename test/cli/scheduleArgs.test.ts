import { describe, expect, it } from 'vitest';
import { parseScheduleArgs } from '../../src/cli/schedule/scheduleArgs.ts';

describe('otto schedule: arguments', () => {
  it('list', () => {
    expect(parseScheduleArgs(['list', '--config', 'otto.yaml'])).toEqual({ command: 'list', config: 'otto.yaml' });
  });

  it('add a snippet schedule with a watch', () => {
    expect(
      parseScheduleArgs([
        'add',
        'price-watch',
        '--when',
        'every 2 hours',
        '--snippet',
        ' $price url=https://shop.test/p/1 ',
        '--watch',
        'below 40',
        '--config',
        'otto.yaml',
      ]),
    ).toEqual({
      command: 'add',
      config: 'otto.yaml',
      name: 'price-watch',
      when: 'every 2 hours',
      run: { snippet: '$price url=https://shop.test/p/1' },
      watch: 'below 40',
    });
  });

  it('add a task schedule', () => {
    expect(
      parseScheduleArgs([
        'add',
        'monday',
        '--when',
        'every Monday 09:00',
        '--task',
        'Summarise the board',
        '--config',
        'c.yaml',
      ]),
    ).toEqual({
      command: 'add',
      config: 'c.yaml',
      name: 'monday',
      when: 'every Monday 09:00',
      run: { task: 'Summarise the board' },
    });
  });

  it('run passes the browser options through', () => {
    expect(parseScheduleArgs(['run', 'price-watch', '--config', 'c.yaml', '--timeout', '30'])).toEqual({
      command: 'run',
      config: 'c.yaml',
      name: 'price-watch',
      pass: ['--timeout', '30'],
    });
  });

  it('help', () => {
    expect(parseScheduleArgs([])).toEqual({ command: 'help' });
    expect(parseScheduleArgs(['add', '--help'])).toEqual({ command: 'help' });
  });

  it.each([
    [['remove', 'x'], "unknown schedule command 'remove': use list, add or run (see --help)"],
    [['list'], "'schedule list' needs --config FILE.yaml (the settings file with the schedules)"],
    [['list', '--config'], '--config needs a value'],
    [['list', '--config', 'c.yaml', '--when', 'x'], "unknown option --when for 'schedule list' (see --help)"],
    [['add', '--config', 'c.yaml'], "'schedule add' needs one schedule name, e.g. price-watch"],
    [
      ['add', 'a b', '--config', 'c.yaml'],
      "'a b' is not a schedule name: letters, digits, - and _, up to 64, e.g. price-watch",
    ],
    [['add', 'x', '--config', 'c.yaml', '--task', 't'], '\'schedule add\' needs --when, e.g. --when "every 2 hours"'],
    [
      ['add', 'x', '--config', 'c.yaml', '--when', 'hourly'],
      "'schedule add' needs one of --snippet '$name k=v' or --task \"what to do\"",
    ],
    [
      ['add', 'x', '--config', 'c.yaml', '--when', 'hourly', '--snippet', 'price'],
      "--snippet takes a snippet call that starts with $, e.g. --snippet '$price url=https://…'",
    ],
  ])('%j → %s', (argv, message) => {
    expect(() => parseScheduleArgs(argv)).toThrow(message);
  });
});
