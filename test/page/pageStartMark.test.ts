/**
 * #19's mark with a `chrome.declarativeNetRequest` stand-in: one session rule per watched tab, limited to that tab's
 * top-level responses, adding only the `Server-Timing` entry; removed per tab and all at worker start.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLoadMarks, markTabLoads, unmarkTabLoads } from '../../src/page/pageStartMark.ts';

type Rule = { id: number } & Record<string, unknown>;
let rules: Rule[];
const updates: unknown[] = [];
beforeEach(() => {
  rules = [];
  updates.length = 0;
  vi.stubGlobal('chrome', {
    declarativeNetRequest: {
      RuleActionType: { MODIFY_HEADERS: 'modifyHeaders' },
      HeaderOperation: { APPEND: 'append' },
      ResourceType: { MAIN_FRAME: 'main_frame' },
      async updateSessionRules(o: { removeRuleIds?: number[]; addRules?: Rule[] }) {
        updates.push(o);
        rules = rules.filter((r) => !o.removeRuleIds?.includes(r.id)).concat(o.addRules ?? []);
      },
      async getSessionRules() {
        return rules;
      },
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('page-start mark rules', () => {
  it("a watched tab's rule: its top-level responses only, one header appended, nothing else changed", async () => {
    await markTabLoads(42);
    await markTabLoads(42); // again: replaced, not doubled
    expect(rules).toEqual([
      {
        id: 42,
        priority: 1,
        action: {
          type: 'modifyHeaders',
          responseHeaders: [{ header: 'Server-Timing', operation: 'append', value: 'otto-page-start' }],
        },
        condition: { tabIds: [42], resourceTypes: ['main_frame'] },
      },
    ]);
  });

  it('removed per tab, and all at worker start', async () => {
    await markTabLoads(1);
    await markTabLoads(2);
    await markTabLoads(3);
    await unmarkTabLoads(2);
    expect(rules.map((r) => r.id)).toEqual([1, 3]);
    await clearLoadMarks();
    expect(rules).toEqual([]);
    updates.length = 0;
    await clearLoadMarks(); // nothing left: no call
    expect(updates).toEqual([]);
  });

  it('a tab marked while the sweep is under way keeps its rule (the sweep is not undone by its own late removal)', async () => {
    await markTabLoads(1);
    const sweep = clearLoadMarks();
    const marking = markTabLoads(2);
    await Promise.all([sweep, marking]);
    expect(rules.map((r) => r.id)).toEqual([2]);
  });

  it('a failing API call (the tab is gone) is not an error of the run', async () => {
    (chrome.declarativeNetRequest as unknown as { updateSessionRules: () => Promise<void> }).updateSessionRules = () =>
      Promise.reject(new Error('No tab with id: 9'));
    await expect(markTabLoads(9)).resolves.toBeUndefined();
  });
});
