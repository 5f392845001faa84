/**
 * #26: the worker's webNavigation listeners are attached only while a run goes (and a grace after), so an idle Otto's
 * stopped worker is not started by every navigation of every frame (src/background/navigationListeners.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigationListeners, type NavigationEvents } from '../../src/background/navigationListeners.ts';

type Nav = { tabId: number; frameId: number; url: string };

function fakeEvents() {
  const made = () => {
    const listeners = new Set<(d: Nav) => void>();
    return {
      listeners,
      addListener: (cb: (d: Nav) => void) => void listeners.add(cb),
      removeListener: (cb: (d: Nav) => void) => void listeners.delete(cb),
      fire: (d: Nav) => listeners.forEach((cb) => cb(d)),
    };
  };
  const e = { onBeforeNavigate: made(), onCommitted: made(), onDOMContentLoaded: made(), onErrorOccurred: made() };
  const count = () => Object.values(e).reduce((n, x) => n + x.listeners.size, 0);
  return { events: e as NavigationEvents & typeof e, count };
}

const NAV: Nav = { tabId: 7, frameId: 0, url: 'https://example.test/a' };

describe('navigationListeners', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('registers nothing until a run goes; then all four; off again only after the grace', () => {
    const { events, count } = fakeEvents();
    const seen: string[] = [];
    let detached = 0;
    const nav = navigationListeners(
      {
        onBeforeNavigate: () => seen.push('before'),
        onCommitted: () => seen.push('committed'),
        onLoadSettled: () => seen.push('settled'),
        onDetached: () => detached++,
      },
      { events, graceMs: 10_000 },
    );
    expect(count()).toBe(0);
    nav.update(false);
    expect(count()).toBe(0);

    nav.update(true);
    nav.update(true);
    expect(count()).toBe(4);
    events.onBeforeNavigate.fire(NAV);
    events.onCommitted.fire(NAV);
    events.onDOMContentLoaded.fire(NAV);
    events.onErrorOccurred.fire(NAV);
    expect(seen).toEqual(['before', 'committed', 'settled', 'settled']);

    nav.update(false);
    vi.advanceTimersByTime(9_999);
    expect(count()).toBe(4);
    expect(nav.attached()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(count()).toBe(0);
    expect(nav.attached()).toBe(false);
    expect(detached).toBe(1);
  });

  it('a run starting inside the grace keeps the listeners (no gap, no second set)', () => {
    const { events, count } = fakeEvents();
    const nav = navigationListeners(
      { onBeforeNavigate() {}, onCommitted() {}, onLoadSettled() {}, onDetached() {} },
      { events, graceMs: 10_000 },
    );
    nav.update(true);
    nav.update(false);
    vi.advanceTimersByTime(5_000);
    nav.update(true);
    vi.advanceTimersByTime(20_000);
    expect(count()).toBe(4);
    nav.update(false);
    vi.advanceTimersByTime(10_000);
    expect(count()).toBe(0);
  });
});
