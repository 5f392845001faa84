// @vitest-environment happy-dom
/**
 * #46 part 4: the Schedules tab rendered with Preact against a stand-in for the worker's requests — the rows say
 * the next run and the last outcome, the history shows what changed, an edit with a bad watch shows the parser's
 * words, and the actions reach the worker with the schedule's name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { SchedulesView } from '../../src/sidepanel/components/SchedulesView.tsx';
import { useSchedules, type ScheduleRequests, type ScheduleRow } from '../../src/sidepanel/state/schedules.ts';
import type { ExportedRun } from '../../src/shared/historyExport.ts';
import { parseWatchCondition } from '../../src/shared/watchCondition.ts';
import { nextRunText, outcomeText, costText } from '../../src/sidepanel/lib/scheduleText.ts';

const run: ExportedRun = {
  schedule: 'price',
  startedAt: Date.now() - 5 * 60_000,
  durationMs: 1200,
  outcome: 'ok',
  late: false,
  output: '$39.99',
  change: '39.99 is below 40, was 42',
  value: '$39.99',
  previous: '$42.00',
  notified: true,
  tokens: 0,
  costUsd: 0,
  error: null,
};
const row: ScheduleRow = {
  name: 'price',
  when: 'every 2 hours',
  kind: 'snippet',
  what: '$price url=http://shop.test/p',
  watch: 'below 40',
  paused: false,
  notify: true,
  nextRunAt: Date.now() + 90 * 60_000 + 5000,
  last: run,
};

function fake(calls: string[]): ScheduleRequests {
  return {
    list: async () => [row],
    history: async (n) => (calls.push(`history ${n}`), [run]),
    runNow: async (n) => void calls.push(`run ${n}`),
    setPaused: async (n, p) => void calls.push(`pause ${n} ${p}`),
    remove: async (n) => void calls.push(`delete ${n}`),
    update: async (n, e) => {
      calls.push(`update ${n} ${e.when}`);
      try {
        if (e.watch) parseWatchCondition(e.watch);
      } catch (err) {
        return (err as Error).message;
      }
      return undefined;
    },
  };
}

let root: HTMLElement;
afterEach(() => {
  render(null, root);
  root.remove();
});

function Host({ api }: { api: ScheduleRequests }) {
  return h(SchedulesView, { schedules: useSchedules(api) });
}

async function mount(api: ScheduleRequests): Promise<HTMLElement> {
  root = document.createElement('div');
  document.body.append(root);
  await act(async () => render(h(Host, { api }), root));
  await act(async () => new Promise((r) => setTimeout(r, 0)));
  return root;
}

const $ = (el: Element, id: string) => el.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
const click = (el: Element) => act(async () => (el as HTMLElement).click());
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

describe('Schedules tab', () => {
  it('lists a schedule with its next run, last outcome and watch', async () => {
    const el = await mount(fake([]));
    expect($(el, 'schedule-row').dataset.name).toBe('price');
    expect($(el, 'schedule-watch').textContent).toBe(' · watch: below 40');
    expect($(el, 'schedule-status').textContent).toBe('Next: in 2 h · last: ok · 1.2 s · notified 5 min ago');
  });

  it('opens the history: when, outcome, what changed, output, tokens', async () => {
    const calls: string[] = [];
    const el = await mount(fake(calls));
    await click($(el, 'schedule-history-toggle'));
    await settle();
    expect(calls).toEqual(['history price']);
    expect($(el, 'schedule-run-change').textContent).toBe('39.99 is below 40, was 42');
    expect($(el, 'schedule-run-output').textContent).toBe('$39.99');
    expect($(el, 'schedule-run').textContent).toContain('ok · 1.2 s · notified');
    expect($(el, 'schedule-run').textContent).toContain('0 tokens');
  });

  it('run now, pause and delete reach the worker with the name', async () => {
    const calls: string[] = [];
    const el = await mount(fake(calls));
    await click($(el, 'schedule-run-now'));
    await click($(el, 'schedule-pause'));
    await click(el.querySelector('[aria-label="Delete price"]')!);
    await settle();
    expect(calls).toEqual(['run price', 'pause price true', 'delete price']);
  });

  it("an edit with a bad watch shows the parser's words and stays open", async () => {
    const calls: string[] = [];
    const el = await mount(fake(calls));
    await click(el.querySelector('[aria-label="Edit price"]')!);
    const watch = $(el, 'schedule-edit-watch') as HTMLInputElement;
    await act(async () => {
      watch.value = 'bellow 40';
      watch.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => $(el, 'schedule-edit-save').closest('form')!.requestSubmit());
    await settle();
    expect(calls).toEqual(['update price every 2 hours']);
    expect($(el, 'schedule-edit-error').textContent).toBe(
      'Unknown condition \'bellow 40\' — try: below 40, above 100, changed, contains "shipped", not contains "sold out", equals 42',
    );
  });
});

describe('schedule words', () => {
  it('next run, outcome and cost', () => {
    const now = Date.UTC(2026, 11, 8, 3, 0, 0);
    expect(nextRunText(now + 30_000, false, now)).toBe('in less than a minute');
    expect(nextRunText(now + 25 * 60_000, false, now)).toBe('in 25 min');
    expect(nextRunText(now - 1, false, now)).toBe('due now');
    expect(nextRunText(now + 60_000, true, now)).toBe('paused');
    expect(nextRunText(null, false, now)).toBe('not scheduled');
    expect(outcomeText({ outcome: 'failed', durationMs: 65_000, late: true, notified: false })).toBe(
      'failed · 1 min 5 s · late',
    );
    expect(costText(0, 0)).toBe('0 tokens');
    expect(costText(1234, 0.0021)).toBe('1,234 tokens · $0.0021');
  });
});
