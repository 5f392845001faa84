/**
 * Whether the page-start script is in a load Otto works on (#19/#14). The script is registered by URL, so a tab
 * Otto is not working on can get it; the worker marks only the watched tab's responses (page/pageStartMark.ts) with
 * a `Server-Timing` entry, which the document's own navigation entry shows at `document_start`, before any of the
 * page's scripts. Without the mark the script wraps nothing.
 */
export const PAGE_START_MARK = 'otto-page-start';

export function pageStartMarked(): boolean {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  // A browser that does not expose Server-Timing: the worker's disarm (pageStartDisarm.ts) stays the only guard.
  if (!nav || !Array.isArray(nav.serverTiming)) return true;
  return nav.serverTiming.some((e) => e.name === PAGE_START_MARK);
}
