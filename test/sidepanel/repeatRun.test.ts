// @vitest-environment happy-dom
/** #46 part 4: "Repeat this" under a finished run sends the run's own words to schedules.save, with its when and watch. */
import { afterEach, describe, expect, it } from 'vitest';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { canRepeat, nameFromTask, RepeatRun } from '../../src/sidepanel/components/RepeatRun.tsx';
import type { ChatState } from '../../src/sidepanel/state/chat.ts';
import type { PortClient } from '../../src/port/portClient.ts';

const chat = {
  conversationId: 'c1',
  active: false,
  status: 'completed',
  items: [{ seq: 1, item: { type: 'message', role: 'user', content: 'Check the price of the Widget on shop.test' } }],
} as unknown as ChatState;

let root: HTMLElement;
afterEach(() => {
  if (!root) return;
  render(null, root);
  root.remove();
});

const $ = (id: string) => root.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!;
async function type(id: string, value: string) {
  await act(async () => {
    $(id).value = value;
    $(id).dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('Repeat this', () => {
  it('is offered under a completed run with the user’s words', () => {
    expect(canRepeat(chat)).toBe(true);
    expect(canRepeat({ ...chat, active: true } as ChatState)).toBe(false);
    expect(canRepeat({ ...chat, status: 'error' } as ChatState)).toBe(false);
    expect(nameFromTask('Check the price of the Widget on shop.test')).toBe('check-the-price-of');
  });

  it('saves the run’s task with the chosen when and watch; a bad watch is refused before sending', async () => {
    const sent: unknown[] = [];
    const client = { request: async (b: unknown) => (sent.push(b), {}) } as unknown as PortClient;
    root = document.createElement('div');
    document.body.append(root);
    await act(async () => render(h(RepeatRun, { chat, client }), root));
    await act(async () => $('repeat-run').click());
    await type('repeat-run-when', 'every 2 hours');
    await type('repeat-run-watch', 'bellow 40');
    await act(async () => $('repeat-run-confirm').closest('form')!.requestSubmit());
    expect(sent).toEqual([]);
    expect($('repeat-run-error').textContent).toMatch(/^Unknown condition 'bellow 40'/);
    await type('repeat-run-watch', 'below 40');
    await act(async () => $('repeat-run-confirm').closest('form')!.requestSubmit());
    expect(sent).toEqual([
      {
        type: 'schedules.save',
        scheduleId: 'check-the-price-of',
        when: 'every 2 hours',
        task: 'Check the price of the Widget on shop.test',
        watch: { condition: 'below 40' },
      },
    ]);
    expect($('repeat-run-saved').textContent).toBe(
      ' Scheduled “check-the-price-of” (every 2 hours); see Stats and files → Schedules.',
    );
  });
});
