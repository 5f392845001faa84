// @vitest-environment happy-dom
/**
 * #19's registration window: a tab Otto is not working on that got the page-start script is disarmed — the natives
 * are back, what was recorded is gone, no slot stays; a page without the script is left alone. The two-world path in
 * real Chromium is e2e/registration-window.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { devCapture, devRead } from '../../src/content/contentDevCapture.ts';
import { LISTENER_REQUEST, listenerRegistry } from '../../src/content/listenerRegistry.ts';
import { pageStartDisarm } from '../../src/content/pageStartDisarm.ts';

const slots = () => [Symbol.for('otto.devlog') in window, Symbol.for('otto.listeners') in window];

describe('pageStartDisarm', () => {
  it('after the page-start script: natives back, recordings dropped, slots removed; kept wrappers pass through', () => {
    let EventTargetProto: object = HTMLElement.prototype;
    while (!Object.prototype.hasOwnProperty.call(EventTargetProto, 'addEventListener'))
      EventTargetProto = Object.getPrototypeOf(EventTargetProto) as object;
    const natives = {
      log: console.log,
      fetch: window.fetch,
      open: XMLHttpRequest.prototype.open,
      add: (EventTargetProto as EventTarget).addEventListener,
    };
    expect(devCapture('load')).toBe(true);
    expect(listenerRegistry('load', LISTENER_REQUEST)).toBe(true);
    const kept = console.log; // a page's own reference to the wrapper
    expect(kept).not.toBe(natives.log);
    console.log('before the disarm');
    expect(devRead().console.map((c) => c.text)).toEqual(['before the disarm']);
    pageStartDisarm();
    expect(console.log).toBe(natives.log);
    expect(window.fetch).toBe(natives.fetch);
    expect(XMLHttpRequest.prototype.open).toBe(natives.open);
    expect((EventTargetProto as EventTarget).addEventListener).toBe(natives.add);
    expect(slots()).toEqual([false, false]);
    kept('after the disarm');
    expect(devRead()).toMatchObject({ mode: 'none', console: [] });
    // A run that works on the tab later may still capture it (late).
    expect(devCapture('late')).toBe(true);
    expect(devRead().mode).toBe('late');
    pageStartDisarm();
    expect(slots()).toEqual([false, false]);
  });

  it('before the page-start script: a marker keeps it out, and is gone once the page is parsed', () => {
    const log = console.log;
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    pageStartDisarm();
    expect(slots()).toEqual([true, true]);
    expect(devCapture('load')).toBe(false);
    expect(listenerRegistry('load', LISTENER_REQUEST)).toBe(false);
    expect(console.log).toBe(log);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(slots()).toEqual([false, false]);
    delete (document as unknown as { readyState?: string }).readyState;
  });
});
