/**
 * #26: tabs.onRemoved listens only while a run goes (background/tabListeners.ts), so a watched tab closed while none
 * went is still in the stored watch list; the next run start forgets it before marking the watched tabs' loads.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/content/devCapture.iife.ts?iife', () => ({ default: 'src/content/devCapture.iife.js' }));

let stored: Record<string, unknown>;
let marked: number[];
beforeEach(() => {
  vi.resetModules();
  stored = { 'otto.devWatch': [1, 2, 3] };
  marked = [];
  vi.stubGlobal('chrome', {
    storage: {
      session: {
        get: async (key: string) => ({ [key]: stored[key] }),
        set: async (o: Record<string, unknown>) => void Object.assign(stored, o),
      },
    },
    // Tab 2 was closed while no run went.
    tabs: { query: async () => [{ id: 1 }, { id: 3 }, { id: 9 }] },
    declarativeNetRequest: {
      RuleActionType: { MODIFY_HEADERS: 'modifyHeaders' },
      HeaderOperation: { APPEND: 'append' },
      ResourceType: { MAIN_FRAME: 'main_frame' },
      async updateSessionRules(o: { addRules?: { id: number }[] }) {
        marked.push(...(o.addRules ?? []).map((r) => r.id));
      },
      getSessionRules: async () => [],
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('the watched tabs at a run start', () => {
  it('a tab closed while no run went is forgotten, and its loads are not marked', async () => {
    const { isWatched, noteRunStatus } = await import('../../src/page/pageDevCapture.ts');
    noteRunStatus('c1', 'running');
    await vi.waitFor(() => expect(marked.sort()).toEqual([1, 3]));
    expect(stored['otto.devWatch']).toEqual([1, 3]);
    expect(await isWatched(2)).toBe(false);
    expect(await isWatched(3)).toBe(true);
    noteRunStatus('c1', 'completed');
  });
});
