/**
 * waitForLoad (tabs pack): the wait of tabs.navigate / back / forward / reload. Chrome can lose a background tab's
 * `complete` event (#46: a scheduled run's navigate timed out at 30 s on a page that had loaded); the wait also reads
 * the tab, and its timeout says what the tab was doing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitForLoad } from '../../src/tools/packs/tabs/chromeTabs.ts';

type Listener = (id: number, info: { status?: string }, tab: chrome.tabs.Tab) => void;

function stubTabs(states: Partial<chrome.tabs.Tab>[]) {
  const listeners = new Set<Listener>();
  let i = 0;
  const tabs = {
    onUpdated: { addListener: (l: Listener) => listeners.add(l), removeListener: (l: Listener) => listeners.delete(l) },
    get: vi.fn(async () => ({ id: 7, ...states[Math.min(i++, states.length - 1)] }) as chrome.tabs.Tab),
  };
  vi.stubGlobal('chrome', { tabs });
  return { listeners, tabs };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('waitForLoad', () => {
  it('resolves on the tab’s complete event', async () => {
    const { listeners } = stubTabs([{ status: 'complete', url: 'about:blank' }]);
    const wait = waitForLoad(7, new AbortController().signal);
    for (const l of listeners) l(7, { status: 'complete' }, { id: 7, url: 'http://shop.test/' } as chrome.tabs.Tab);
    await expect(wait).resolves.toMatchObject({ url: 'http://shop.test/' });
  });

  it('ends when the tab reads complete on a new address although its complete event never came', async () => {
    const { listeners } = stubTabs([
      { status: 'complete', url: 'about:blank' },
      { status: 'complete', url: 'about:blank' },
      { status: 'loading', url: 'http://shop.test/p/1' },
      { status: 'complete', url: 'http://shop.test/p/1' },
    ]);
    const wait = waitForLoad(7, new AbortController().signal, 30_000);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(wait).resolves.toMatchObject({ status: 'complete', url: 'http://shop.test/p/1' });
    expect(listeners.size).toBe(0);
  });

  it('does not end on the page that was there before the navigation started', async () => {
    stubTabs([{ status: 'complete', url: 'http://shop.test/' }]);
    const wait = waitForLoad(7, new AbortController().signal, 3_000);
    const failed = expect(wait).rejects.toThrow(
      'The page did not finish loading within 3 s (the tab is complete at http://shop.test/).',
    );
    await vi.advanceTimersByTimeAsync(3_500);
    await failed;
  });

  it('says what the tab was doing when it times out', async () => {
    stubTabs([{ status: 'loading', url: '', pendingUrl: 'http://slow.test/' }]);
    const wait = waitForLoad(7, new AbortController().signal, 2_000);
    const failed = expect(wait).rejects.toThrow(
      'The page did not finish loading within 2 s (the tab is loading at http://slow.test/).',
    );
    await vi.advanceTimersByTimeAsync(2_500);
    await failed;
  });
});

describe('waitForLoad on a tab Chrome left unloaded', () => {
  it('asks for the navigation again and ends when the page has loaded', async () => {
    let sent = 0;
    const tabs = {
      onUpdated: { addListener: () => undefined, removeListener: () => undefined },
      get: vi.fn(async () =>
        sent === 0
          ? ({ id: 7, status: 'unloaded', url: 'about:blank' } as chrome.tabs.Tab)
          : ({ id: 7, status: 'complete', url: 'http://shop.test/' } as chrome.tabs.Tab),
      ),
    };
    vi.stubGlobal('chrome', { tabs });
    const wait = waitForLoad(7, new AbortController().signal, 30_000, () => sent++);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(wait).resolves.toMatchObject({ status: 'complete', url: 'http://shop.test/' });
    expect(sent).toBe(1);
  });
});
