import { describe, expect, it } from 'vitest';
import { historyFile, type ExportedRun } from '../../src/shared/historyExport.ts';

const runs: ExportedRun[] = [
  {
    schedule: 'price watch',
    startedAt: Date.UTC(2026, 11, 8, 2, 0, 0),
    durationMs: 1234,
    outcome: 'ok',
    late: false,
    output: '$42.00',
    change: '42 is not below 40',
    value: '$42.00',
    previous: null,
    notified: false,
    tokens: 0,
    costUsd: 0,
    error: null,
  },
  {
    schedule: 'price watch',
    startedAt: Date.UTC(2026, 11, 8, 3, 0, 0),
    durationMs: 980,
    outcome: 'ok',
    late: true,
    output: '$39.99',
    change: '39.99 is below 40, was 42',
    value: '$39.99',
    previous: '$42.00',
    notified: true,
    tokens: 0,
    costUsd: 0,
    error: null,
  },
];

describe('historyFile', () => {
  it('CSV: one row per run under a fixed header', () => {
    expect(historyFile('price watch', runs, 'csv')).toEqual({
      filename: 'otto-schedule-price-watch.csv',
      mime: 'text/csv',
      text:
        'schedule,started,duration_s,outcome,late,value,previous,notified,change,output,tokens,cost_usd,error\r\n' +
        'price watch,2026-12-08T02:00:00.000Z,1.2,ok,no,$42.00,,no,42 is not below 40,$42.00,0,0,\r\n' +
        'price watch,2026-12-08T03:00:00.000Z,1,ok,yes,$39.99,$42.00,yes,"39.99 is below 40, was 42",$39.99,0,0,\r\n',
    });
  });

  it('JSON: the same rows as objects', () => {
    const f = historyFile('../evil name', runs.slice(1), 'json');
    expect(f.filename).toBe('otto-schedule--evil-name.json');
    expect(JSON.parse(f.text)).toEqual([
      {
        schedule: 'price watch',
        started: '2026-12-08T03:00:00.000Z',
        duration_s: 1,
        outcome: 'ok',
        late: true,
        value: '$39.99',
        previous: '$42.00',
        notified: true,
        change: '39.99 is below 40, was 42',
        output: '$39.99',
        tokens: 0,
        cost_usd: 0,
        error: null,
      },
    ]);
  });
});
