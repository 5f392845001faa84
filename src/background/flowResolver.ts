/**
 * The data-flow guard's view of the browser (OriginResolver, src/tools/guard/resolver.ts), kept minimal: which
 * origins a tab's content comes from (top frame and every frame), where acting on an element sends (its frame's
 * origin, and a link's destination), and the origins of all tabs. A frame without an origin of its own
 * (about:blank, about:srcdoc) shares its parent's, so it adds nothing.
 */
import { labelsOf, NO_LABELS, urlLabel } from '../tools/guard/labels.ts';
import type { ElementTarget, OriginResolver } from '../tools/guard/resolver.ts';
import { frameOfRef, resolveTabId } from '../page/contentRouter.ts';
import { describeInPage, queryPage } from '../page/pageSnapshot.ts';

/**
 * A label for a frame or tab URL. Documents without an origin of their own (about:blank, about:srcdoc) and the
 * browser's own pages (chrome:, chrome-extension:, devtools:) give none: they hold no site's data.
 */
const BROWSER_PAGES = /^(?:about|chrome|chrome-extension|chrome-untrusted|devtools|edge):/i;
function docLabel(url: string | undefined): string | undefined {
  if (!url || BROWSER_PAGES.test(url)) return undefined;
  return urlLabel(url);
}

const ABSOLUTE_URL = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/i;

async function tabUrl(tabId: number): Promise<string | undefined> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  return tab?.url || tab?.pendingUrl;
}

/** The ref the action will reach: the given ref, or the first (visible) match of the selector in the top frame. */
async function refOf(tabId: number, target: ElementTarget): Promise<string | undefined> {
  if (target.ref) return target.ref;
  if (!target.selector) return undefined;
  const q = await queryPage(tabId, target.selector, { frameId: 0, limit: 20 });
  return (q.matches.find((m) => m.visible) ?? q.matches[0])?.ref;
}

/** Where a link or area element sends when activated: an absolute href as the outline shows it, else its frame. */
async function linkDestination(tabId: number, frameId: number, ref: string): Promise<string | undefined> {
  const q = await queryPage(tabId, 'a[href], area[href]', { frameId, limit: 500 });
  const m = q.matches.find((x) => x.ref === ref);
  if (m) return urlLabel(ABSOLUTE_URL.exec(m.line)?.[0]);
  // Not among the links listed: none on the page, or it lies past the 500 listed or past the part of a big page the
  // query searched (#24): then the element itself says the link it is in.
  if (!q.partial && q.total <= q.matches.length) return undefined;
  const d = await describeInPage(tabId, { ref });
  return urlLabel(ABSOLUTE_URL.exec(d.href ?? '')?.[0]);
}

export const browserOrigins: OriginResolver = {
  async tabOrigins(tabId) {
    const id = await resolveTabId(tabId);
    const [top, frames] = await Promise.all([
      tabUrl(id),
      chrome.webNavigation.getAllFrames({ tabId: id }).catch(() => null),
    ]);
    return labelsOf([docLabel(top), ...(frames ?? []).map((f) => docLabel(f.url))]);
  },

  async targetOrigins(tabId, target) {
    const id = await resolveTabId(tabId);
    const ref = await refOf(id, target).catch(() => undefined);
    const frameId = ref ? frameOfRef(ref) : 0;
    let frameUrl: string | undefined;
    if (frameId !== 0) {
      const frame = await chrome.webNavigation.getFrame({ tabId: id, frameId }).catch(() => null);
      frameUrl = frame?.url;
    }
    // A frame without an origin of its own (about:blank) is its parent's: the top's is the safe guess.
    const at = docLabel(frameUrl) ?? docLabel(await tabUrl(id));
    const link = ref ? await linkDestination(id, frameId, ref).catch(() => undefined) : undefined;
    // The link's destination first: it is where the data would go furthest, so the card names it.
    return [...new Set([link, at].filter((l): l is string => !!l))];
  },

  async allTabOrigins() {
    const tabs = await chrome.tabs.query({}).catch(() => []);
    return tabs.length ? labelsOf(tabs.map((t) => docLabel(t.url || t.pendingUrl))) : NO_LABELS;
  },
};
