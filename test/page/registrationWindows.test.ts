/**
 * #19's registration window across worker restarts: the windows are stored in `chrome.storage.session`, so a fresh
 * worker (its memory empty) still finds a URL in a window the stopped worker opened, and closes live windows at
 * start with the grace. The real restart in Chromium is e2e/registration-window.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  WINDOW_GRACE_MS,
  closeAllAtStart,
  closeWindow,
  forgetInMemory,
  inRegistrationWindow,
  openWindow,
} from '../../src/page/registrationWindows.ts';
import { memoryStorage, type MemoryStorage } from '../support/memoryStorage.ts';

let session: MemoryStorage;
beforeEach(() => {
  session = memoryStorage();
  vi.stubGlobal('chrome', { storage: { session } });
  forgetInMemory();
});
afterEach(() => {
  forgetInMemory();
  vi.unstubAllGlobals();
});

const PREFIX = 'http://127.0.0.1/win/page.html';

describe('registration windows', () => {
  it('a URL on the registered path (any port, any query) is in the window; another path or host is not', async () => {
    await openWindow(7, PREFIX);
    expect(await inRegistrationWindow('http://127.0.0.1:8080/win/page.html?other')).toBe(true);
    expect(await inRegistrationWindow('http://127.0.0.1/win/page.html')).toBe(true);
    expect(await inRegistrationWindow('http://127.0.0.1/win/other.html')).toBe(false);
    expect(await inRegistrationWindow('http://localhost/win/page.html')).toBe(false);
    expect(await inRegistrationWindow('not a url')).toBe(false);
  });

  it('is stored before the caller registers, and a fresh worker (memory empty) still finds it', async () => {
    await openWindow(7, PREFIX);
    expect(session.data['otto.devWindows']).toEqual([{ tabId: 7, prefix: PREFIX }]);
    forgetInMemory(); // the worker stopped; Chrome kept the registration
    expect(await inRegistrationWindow('http://127.0.0.1:9/win/page.html?x')).toBe(true);
  });

  it('closing keeps the window for the grace, then drops it from the store too', async () => {
    await openWindow(7, PREFIX);
    await closeWindow(7, 1_000);
    expect(session.data['otto.devWindows']).toEqual([{ tabId: 7, prefix: PREFIX, until: 1_000 + WINDOW_GRACE_MS }]);
    forgetInMemory();
    expect(await inRegistrationWindow(`${PREFIX}?x`, 1_000 + WINDOW_GRACE_MS)).toBe(true);
    expect(await inRegistrationWindow(`${PREFIX}?x`, 1_001 + WINDOW_GRACE_MS)).toBe(false);
    expect(session.data['otto.devWindows']).toEqual([]);
  });

  it('at worker start the live windows close with the grace from then; closed ones keep their end', async () => {
    await openWindow(7, PREFIX);
    await openWindow(8, 'https://example.com/a');
    await closeWindow(8, 500);
    forgetInMemory();
    await closeAllAtStart(60_000);
    expect(session.data['otto.devWindows']).toEqual([
      { tabId: 7, prefix: PREFIX, until: 60_000 + WINDOW_GRACE_MS },
      { tabId: 8, prefix: 'https://example.com/a', until: 500 + WINDOW_GRACE_MS },
    ]);
    expect(await inRegistrationWindow(`${PREFIX}?x`, 60_000 + WINDOW_GRACE_MS)).toBe(true);
    expect(await inRegistrationWindow('https://example.com/a', 60_000)).toBe(false);
  });

  it('a stored value of the wrong shape counts as no window', async () => {
    session.data['otto.devWindows'] = [{ tabId: '7', prefix: PREFIX }];
    expect(await inRegistrationWindow(`${PREFIX}?x`)).toBe(false);
  });

  it('without chrome.storage.session (no extension context) it still works in memory', async () => {
    vi.stubGlobal('chrome', {});
    await openWindow(7, PREFIX);
    expect(await inRegistrationWindow(`${PREFIX}?x`)).toBe(true);
  });
});
