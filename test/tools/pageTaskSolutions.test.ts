// #43's fixture tasks (e2e/support/pageTasks.ts): each minimal solution, as bench page_tasks counts it, uses only
// tools known from the first request of the default tool set — a full definition, or a line in ot.call's
// description for one it runs through ot.call — and no ot.help, so its request budget is its tool-calling turns
// plus the answer. The e2e (e2e/page-tasks.spec.ts) runs them and holds the counts and the page states.
import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/background/registry.ts';
import { modeDefinitions } from '../../src/background/codeMode.ts';
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { pageTasks } from '../../e2e/support/pageTasks.ts';

const registry = buildRegistry(DEFAULT_CONFIG);
const defs = modeDefinitions(registry, 'tools');
const sent = new Set(defs.map((d) => d.function.name));
const callDescription = defs.find((d) => d.function.name === registry.apiNameOf('ot.call'))!.function.description;

describe('the page tasks’ minimal solutions need no discovery request', () => {
  it('covers the five fixture tasks of #43', () => {
    expect(pageTasks().map((t) => t.name)).toEqual([
      'drag_list_item',
      'hover_moving_target',
      'answer_from_scanned_pdf',
      'download_from_portal',
      'like_feed_post',
    ]);
  });

  for (const task of pageTasks()) {
    it(`${task.name}: every call is to a tool the first request makes known, and the budget is calls + answer`, () => {
      expect(task.budget).toBe(task.calls.length + 1);
      expect(task.turns()).toHaveLength(task.budget);
      for (const c of task.calls) {
        expect(c).not.toMatch(/^ot__help|ot\.help/);
        const via = /^ot__call:(.+)$/.exec(c);
        if (!via) {
          expect(sent.has(c), `${c} is not sent in full`).toBe(true);
          continue;
        }
        // Run through ot.call: not sent in full, listed on a line of ot.call's description under its wire name.
        const wire = registry.apiNameOf(via[1]!)!;
        expect(wire, `${via[1]} is not a registered tool`).toBeDefined();
        expect(sent.has(wire), `${wire} is sent in full: call it directly`).toBe(false);
        expect(
          callDescription.split('\n').some((l) => l.startsWith(`${wire}(`)),
          `${wire} is not listed`,
        ).toBe(true);
      }
    });
  }
});
