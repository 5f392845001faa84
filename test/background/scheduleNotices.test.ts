import { describe, expect, it } from 'vitest';
import { noticeFor } from '../../src/background/scheduleNotices.ts';
import { snippetCall } from '../../src/background/scheduleRun.ts';
import { scheduleScope } from '../../src/background/scheduleScope.ts';
import { ScheduleRunRecord } from '../../src/storage/scheduleRunRecord.ts';

const record = (over: Record<string, unknown>) =>
  ScheduleRunRecord.parse({ id: 'inbox:1', scheduleId: 'inbox', due: 1, started: 1, outcome: 'done', ...over });

describe('what a scheduled run says on the desktop', () => {
  it('waiting for the user: always, in the words of the card', () => {
    expect(noticeFor(record({ outcome: 'paused-waiting', reason: 'wants to delete' }), { notify: false })).toEqual({
      title: 'Otto is waiting for you',
      message: 'inbox wants to delete.',
    });
  });

  it('failed: the step and why, and whether it ran late', () => {
    expect(
      noticeFor(record({ outcome: 'failed', late: true, failedStep: 'line 4', reason: 'no button "Log in"' }), {
        notify: false,
      }),
    ).toEqual({
      title: 'Otto: inbox failed (late: Chrome was closed at its time)',
      message: 'line 4: no button "Log in"',
    });
  });

  it('done: only when the schedule asks for it; a triggered watch always', () => {
    expect(noticeFor(record({ output: 'Two emails.' }), { notify: true })).toEqual({
      title: 'Otto: inbox done',
      message: 'Two emails.',
    });
    expect(noticeFor(record({ output: 'Two emails.' }), { notify: false })).toBeUndefined();
    expect(
      noticeFor(record({ triggered: true, value: '39.90' }), { notify: false, watch: { condition: 'below 40' } }),
    ).toEqual({
      title: 'Otto watch "inbox": below 40',
      message: 'Now: 39.90\nFirst value read',
    });
    expect(noticeFor(record({ outcome: 'running' }), { notify: true })).toBeUndefined();
  });
});

describe('a scheduled snippet and its scope', () => {
  it('runs as `$name k=v` with quoted text', () => {
    expect(snippetCall('shop', { password: 'hun "ter" 2', quantity: 3, gift: false })).toBe(
      '$shop password="hun \\"ter\\" 2" quantity=3 gift=false',
    );
  });

  it("a task's scope comes from its words and start page; a snippet's from the sites it names", () => {
    expect(scheduleScope({ task: 'Summarise my inbox.', url: 'https://www.mail.example/', args: {} })).toEqual({
      effects: ['read', 'fill'],
      sites: ['mail.example'],
    });
    const s = scheduleScope(
      { snippet: 'shop', args: { url: 'https://shop.example/cart' } },
      'tabs.navigate(url="{{ url }}")',
    );
    expect(s.sites).toEqual(['shop.example']);
    expect(s.effects).toContain('buy');
  });
});
