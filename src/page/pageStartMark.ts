/**
 * The page-start script's "this load is Otto's" mark (#19/#14). The script is registered by URL, so another tab
 * loading the same path gets it too, and a `document_start` script in the page's world cannot ask which tab it is in
 * (no extension API there; registered scripts take no arguments). What it can read at once is its own document's
 * response: for the load of a watched tab, a declarativeNetRequest session rule — which, unlike a script
 * registration, can be limited to one tab — adds a `Server-Timing` entry named `PAGE_START_MARK` to that tab's
 * main-frame responses, and the script wraps nothing in a page whose navigation entry lacks it
 * (content/pageStartGate.ts).
 *
 * The mark is a gate for honest pages, not a secret: a server can send the same entry itself, which only opts its
 * own page into Otto's wrappers for a moment. The worker's disarm (content/pageStartDisarm.ts) still takes Otto out
 * of any tab that is not watched.
 *
 * The rule lives while a run goes and the tab is watched (page/pageDevCapture.ts), not only for the registration:
 * Chrome settles which header rules apply to a request when the request starts, and the worker hears of a
 * navigation (`onBeforeNavigate`) only after that — a rule added then missed the very load it was for (measured in
 * e2e/registration-window.spec.ts). Chrome keeps session rules when the worker stops; a fresh worker, which knows of
 * no run going, removes them all (Otto adds no other rule).
 */
import { PAGE_START_MARK } from '../content/pageStartGate.ts';

/**
 * The worker-start sweep, once it has begun: a rule set after it (a run that resumed at once) must not be swept
 * away by its late removal, so marking waits for it.
 */
let swept: Promise<void> = Promise.resolve();

/** One rule per watched tab (tab ids are positive integers, as rule ids must be). */
export async function markTabLoads(tabId: number): Promise<void> {
  await swept;
  await chrome.declarativeNetRequest
    .updateSessionRules({
      removeRuleIds: [tabId],
      addRules: [
        {
          id: tabId,
          priority: 1,
          action: {
            type: chrome.declarativeNetRequest.RuleActionType.MODIFY_HEADERS,
            responseHeaders: [
              {
                header: 'Server-Timing',
                operation: chrome.declarativeNetRequest.HeaderOperation.APPEND,
                value: PAGE_START_MARK,
              },
            ],
          },
          // Every top-level response in that tab, whatever its URL: a redirect to another path is still the load a
          // run works on (the registration misses it; the capture injected at commit then finds the mark).
          condition: { tabIds: [tabId], resourceTypes: [chrome.declarativeNetRequest.ResourceType.MAIN_FRAME] },
        },
      ],
    })
    .catch(() => undefined);
}

export async function unmarkTabLoads(tabId: number): Promise<void> {
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [tabId] }).catch(() => undefined);
}

/** At worker start (the rules a stopped worker left), and when no run goes any more. */
export function clearLoadMarks(): Promise<void> {
  const sweep = (async () => {
    await swept;
    const rules = await chrome.declarativeNetRequest.getSessionRules().catch(() => []);
    if (rules.length)
      await chrome.declarativeNetRequest
        .updateSessionRules({ removeRuleIds: rules.map((r) => r.id) })
        .catch(() => undefined);
  })();
  swept = sweep;
  return sweep;
}
