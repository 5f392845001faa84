/**
 * Which tool outputs describe a tab's page (observations), which calls replace the page (so what was observed of it
 * is out of date), and which tab a call is about.
 */

/** Outputs that show what a page holds. A newer one of the same tab supersedes them (#23). */
export const OBSERVATIONS: ReadonlySet<string> = new Set([
  'dom.snapshot',
  'dom.text',
  'dom.read',
  'dom.find',
  'dom.query',
  'tabs.screenshot',
]);

/** Calls after which the tab shows another page: earlier observations of it describe a page that is gone. */
export const PAGE_CHANGES: ReadonlySet<string> = new Set(['tabs.navigate', 'tabs.back', 'tabs.forward', 'tabs.reload']);

/** The tab a call targets, as the stub names it: `tab 12`, or the run's tab when the call named none. */
export function tabOf(args: unknown): string {
  let parsed: unknown = args;
  if (typeof args === 'string') {
    try {
      parsed = JSON.parse(args);
    } catch {
      parsed = undefined;
    }
  }
  const id = (parsed as { tab_id?: unknown } | undefined)?.tab_id;
  return typeof id === 'number' || (typeof id === 'string' && id) ? `tab ${id}` : "the run's tab";
}

/** The page URL an observation names (`url: …` in a snapshot's header), if any. */
export function urlIn(text: string): string | undefined {
  const m = /(?:^|\n)\s*url: (\S+)/.exec(text.slice(0, 4000));
  return m?.[1];
}
