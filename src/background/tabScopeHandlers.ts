/**
 * Panel and settings requests about Otto's tab group (#27): "Share this tab" (the tab the user is looking at joins the
 * conversation's group), and the sites whose tabs are shared "always", which settings lists and can revoke.
 */
import type { Handlers } from './panelPort.ts';
import type { TabScope } from './tabScope.ts';
import type { SharedSites } from '../storage/sharedSites.ts';
import type { ConversationStore } from '../storage/conversations.ts';

type TabScopeHandlers = Pick<Handlers, 'tabs.share' | 'tabs.shared_sites' | 'tabs.unshare_site'>;

/** The tab the user is looking at: the active tab of the focused window that is not one of Otto's own pages. */
async function lookingAt(): Promise<chrome.tabs.Tab | undefined> {
  const candidates = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return candidates.find((t) => !t.url?.startsWith(`chrome-extension://${chrome.runtime.id}/`));
}

export function tabScopeHandlers(deps: {
  tabScope: TabScope;
  sites: SharedSites;
  store: ConversationStore;
}): TabScopeHandlers {
  return {
    'tabs.share': async (req) => {
      if (!(await deps.store.get(req.conversationId))) throw new Error(`No conversation ${req.conversationId}.`);
      const target =
        req.tabId !== undefined ? await chrome.tabs.get(req.tabId).catch(() => undefined) : await lookingAt();
      if (!target?.id)
        throw new Error('There is no tab to share: open the page you want Otto to see, then press Share this tab.');
      const tab = await deps.tabScope.join(req.conversationId, target.id);
      return { tab: { id: tab.id, title: tab.title ?? '', url: tab.url ?? '' } };
    },
    'tabs.shared_sites': async () => ({ sites: await deps.sites.list() }),
    'tabs.unshare_site': async (req) => ({ revoked: await deps.sites.revoke(req.origin) }),
  };
}
