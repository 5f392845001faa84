// @vitest-environment happy-dom
/** #46 part 4: "Schedule a snippet" sends the snippet, its arguments as typed, when and watch to schedules.save. */
import { afterEach, describe, expect, it } from 'vitest';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { ScheduleSnippet } from '../../src/sidepanel/components/ScheduleSnippet.tsx';
import type { PortClient } from '../../src/port/portClient.ts';

let root: HTMLElement | undefined;
afterEach(() => {
  if (!root) return;
  render(null, root);
  root.remove();
});
const $ = (id: string) => root!.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!;
async function type(id: string, value: string) {
  await act(async () => {
    $(id).value = value;
    $(id).dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('Schedule a snippet', () => {
  it('saves $price with its arguments; a bad argument list is refused in plain words', async () => {
    const sent: unknown[] = [];
    let saved = 0;
    const client = {
      request: async (b: { type: string }) =>
        b.type === 'command.vocabulary' ? { snippets: { price: 'Read the price' } } : (sent.push(b), {}),
    } as unknown as PortClient;
    root = document.createElement('div');
    document.body.append(root);
    await act(async () => render(h(ScheduleSnippet, { client, onSaved: () => saved++ }), root!));
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    await type('schedule-snippet-args', 'url="http://shop.test/p 1"');
    await type('schedule-snippet-when', 'every 2 hours');
    await type('schedule-snippet-watch', 'below 40');
    await act(async () => $('schedule-snippet-save').closest('form')!.requestSubmit());
    expect(sent).toEqual([
      {
        type: 'schedules.save',
        scheduleId: 'price',
        when: 'every 2 hours',
        snippet: 'price',
        args: { url: 'http://shop.test/p 1' },
        watch: { condition: 'below 40' },
      },
    ]);
    expect(saved).toBe(1);
    await type('schedule-snippet-args', 'url="unterminated');
    await act(async () => $('schedule-snippet-save').closest('form')!.requestSubmit());
    expect(sent).toHaveLength(1);
    expect($('schedule-snippet-error').textContent).not.toBe('');
  });
});
