// @vitest-environment happy-dom
/**
 * #19's gate: the page-start script arms only in a load whose navigation entry carries Otto's `Server-Timing` mark
 * (the worker adds it to the watched tab's responses, page/pageStartMark.ts). The real path is
 * e2e/registration-window.spec.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_START_MARK, pageStartMarked } from '../../src/content/pageStartGate.ts';

const navigation = (entry: unknown) =>
  vi
    .spyOn(performance, 'getEntriesByType')
    .mockImplementation((t) => (t === 'navigation' && entry ? [entry] : []) as never);
afterEach(() => vi.restoreAllMocks());

describe('pageStartMarked', () => {
  it('is the literal name the worker adds', () => {
    expect(PAGE_START_MARK).toBe('otto-page-start');
  });

  it('arms where the mark is among the entries, and not where it is missing or only resembles it', () => {
    navigation({ serverTiming: [{ name: 'cdn-cache' }, { name: 'otto-page-start' }] });
    expect(pageStartMarked()).toBe(true);
    navigation({ serverTiming: [] });
    expect(pageStartMarked()).toBe(false);
    navigation({ serverTiming: [{ name: 'otto-page-start-x' }, { name: 'db', description: 'otto-page-start' }] });
    expect(pageStartMarked()).toBe(false);
  });

  it('a browser without Server-Timing (no entry or no list) arms, leaving the worker disarm as the guard', () => {
    navigation(undefined);
    expect(pageStartMarked()).toBe(true);
    navigation({});
    expect(pageStartMarked()).toBe(true);
  });
});
