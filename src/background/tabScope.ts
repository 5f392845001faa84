/**
 * Otto's tab group and the run's reach (#27). Each conversation works in a tab group of its own ("Otto", one colour),
 * one group per window it has tabs in. The group starts with the tab the user asked from; tabs the run opens join it;
 * a tab the user drags in joins, one dragged out or closed leaves: the group's membership in Chrome is the truth, so
 * nothing needs syncing. Group ids are kept in `chrome.storage.session` (they live as long as the browser session,
 * and survive a worker restart); sites shared "always" are kept in IndexedDB (SharedSites).
 *
 * Scope (config `tabs.scope`): `group` (default) — the group's tabs; `window` — also every tab of a window the group
 * is in; `all` — every tab, no questions. The group's title follows the run: "Otto · working", "Otto · waiting for
 * you", "Otto".
 */
import type { TabAccess, TabShareRequest } from '../agent/tabAccess.ts';
import type { RunStatus } from '../storage/runRecords.ts';
import type { SharedSites } from '../storage/sharedSites.ts';
import type { AnyTool } from '../tools/Tool.ts';
import { tabOfCall, type CallTargets } from './tabTargets.ts';
import { originOf } from '../shared/origin.ts';

export type TabScopeSetting = 'group' | 'window' | 'all';

export const GROUP_COLOR = 'cyan';
const STORAGE_KEY = 'tabScope';
const NO_GROUP = -1;

export function groupTitle(status: RunStatus | undefined): string {
  if (status === 'running') return 'Otto · working';
  if (status === 'awaiting_approval') return 'Otto · waiting for you';
  return 'Otto';
}

/** The tab's host as the share card names it, and its origin (none for about:blank, data: and the like). */
function siteOf(url: string | undefined): { host: string; origin?: string } {
  const origin = originOf(url);
  let host = '';
  try {
    host = new URL(url ?? '').host;
  } catch {
    // not a URL: no host to name
  }
  return { host, ...(origin ? { origin } : {}) };
}

export class TabNotSharedError extends Error {
  override readonly name = 'TabNotSharedError';
  constructor(readonly tabId: number) {
    super(
      `Tab ${tabId} is not shared with Otto, so nothing was read from it or done to it. Only the tabs in Otto's group are in reach (tabs.list). ` +
        `Call the tool on it directly with a literal tab_id (e.g. dom.text(tab_id=${tabId})) so Otto can ask the user to share it.`,
    );
  }
}

interface Persisted {
  /** conversationId → its group ids (one per window). */
  groups: Record<string, number[]>;
  /** conversationId → tabs shared that Chrome would not put in a group (in reach until closed). */
  loose: Record<string, number[]>;
}

export interface TabScopeDeps {
  scope: () => Promise<TabScopeSetting>;
  sites: SharedSites;
  /** Which tabs a call targets (tabTargets.ts, over the current registry and config). */
  targets: (qualifiedName: string, args: unknown) => CallTargets | Promise<CallTargets>;
  /** The tab the conversation's run acts on by default. */
  runTab: (conversationId: string) => Promise<chrome.tabs.Tab | undefined>;
  storage?: chrome.storage.StorageArea;
  /** A group was made or a conversation's groups forgotten: whether any Otto group exists may have changed. */
  onGroupsChanged?: () => void;
}

export class TabScope implements TabAccess {
  readonly #deps: TabScopeDeps;
  #state: Promise<Persisted> | undefined;
  readonly #status = new Map<string, RunStatus>();
  /** Tabs Otto itself is putting into a group (so the page-opened-tab rule below leaves them alone). */
  readonly #admitted = new Set<number>();
  /** Group changes one at a time: two joins at once must not make two groups in one window. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(deps: TabScopeDeps) {
    this.#deps = deps;
  }

  get #storage(): chrome.storage.StorageArea {
    return this.#deps.storage ?? chrome.storage.session;
  }

  #load(): Promise<Persisted> {
    return (this.#state ??= this.#storage
      .get(STORAGE_KEY)
      .then((r) => {
        const v = r[STORAGE_KEY] as Partial<Persisted> | undefined;
        return { groups: { ...(v?.groups ?? {}) }, loose: { ...(v?.loose ?? {}) } };
      })
      .catch(() => ({ groups: {}, loose: {} })));
  }

  async #save(): Promise<void> {
    const state = await this.#load();
    await this.#storage.set({ [STORAGE_KEY]: state });
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** The conversation's groups that still exist, with their windows (a group whose last tab left is gone). */
  async groups(conversationId: string): Promise<chrome.tabGroups.TabGroup[]> {
    const state = await this.#load();
    const ids = state.groups[conversationId] ?? [];
    const found = await Promise.all(ids.map((id) => chrome.tabGroups.get(id).catch(() => undefined)));
    const live = found.filter((g): g is chrome.tabGroups.TabGroup => !!g);
    if (live.length !== ids.length) {
      state.groups[conversationId] = live.map((g) => g.id);
      await this.#save();
    }
    return live;
  }

  /**
   * Whether any conversation has an Otto group with tabs in it: while one does, a page in it can open tabs that
   * Chrome puts into it, so the worker must hear of page-opened tabs even between runs (onPageOpened; tabListeners.ts).
   */
  async hasGroups(): Promise<boolean> {
    const state = await this.#load();
    for (const conversationId of Object.keys(state.groups)) if ((await this.groups(conversationId)).length) return true;
    return false;
  }

  /** A predicate over tabs: in the run's reach under the current scope. */
  async #reach(conversationId: string): Promise<(tab: chrome.tabs.Tab) => boolean> {
    const scope = await this.#deps.scope();
    if (scope === 'all') return () => true;
    const groups = await this.groups(conversationId);
    const ids = new Set(groups.map((g) => g.id));
    const windows = new Set(scope === 'window' ? groups.map((g) => g.windowId) : []);
    const loose = new Set((await this.#load()).loose[conversationId] ?? []);
    return (tab) =>
      (tab.groupId !== NO_GROUP && ids.has(tab.groupId)) ||
      windows.has(tab.windowId) ||
      (tab.id !== undefined && loose.has(tab.id));
  }

  async inReach(conversationId: string, tab: chrome.tabs.Tab): Promise<boolean> {
    return (await this.#reach(conversationId))(tab);
  }

  /** The tabs a run may see, and how many others there are (tabs.list). */
  async visibleTabs(conversationId: string): Promise<{ tabs: chrome.tabs.Tab[]; others: number }> {
    const [all, reach] = await Promise.all([chrome.tabs.query({}), this.#reach(conversationId)]);
    const tabs = all.filter(reach);
    return { tabs, others: all.length - tabs.length };
  }

  /** The tab joins the conversation's group in its window (made when there is none). No question: the caller decided. */
  join(conversationId: string, tabId: number): Promise<chrome.tabs.Tab> {
    this.#admitted.add(tabId);
    return this.#serial(async () => {
      const tab = await chrome.tabs.get(tabId);
      try {
        await this.#group(conversationId, tab);
      } catch {
        // Chrome would not group it (a window type without a tab strip): shared all the same, without the group.
        const state = await this.#load();
        const loose = state.loose[conversationId] ?? [];
        if (!loose.includes(tabId)) state.loose[conversationId] = [...loose, tabId];
        await this.#save();
      }
      return chrome.tabs.get(tabId);
    });
  }

  /** Into the conversation's group in the tab's window (made when there is none): never across windows. */
  async #group(conversationId: string, tab: chrome.tabs.Tab): Promise<void> {
    const tabId = tab.id!;
    const groups = await this.groups(conversationId);
    if (groups.some((g) => g.id === tab.groupId)) return;
    const here = groups.find((g) => g.windowId === tab.windowId);
    if (here) {
      await chrome.tabs.group({ groupId: here.id, tabIds: [tabId] });
      return;
    }
    const groupId = await chrome.tabs.group({ tabIds: [tabId], createProperties: { windowId: tab.windowId } });
    const state = await this.#load();
    state.groups[conversationId] = [...(state.groups[conversationId] ?? []), groupId];
    await this.#save();
    this.#deps.onGroupsChanged?.();
    await chrome.tabGroups.update(groupId, { title: groupTitle(this.#status.get(conversationId)), color: GROUP_COLOR });
  }

  /**
   * Chrome puts a tab opened from a grouped tab (a link with target=_blank, `window.open`) into the opener's group. In
   * Otto's group that would let a page share tabs of its choosing — `window.open('https://bank.example')` — without
   * the user. So a new tab that lands in an Otto group without Otto putting it there is taken back out: it is the
   * user's until they share it (drag it in, Share this tab, or answer the question when the run wants it). While a
   * run goes, every new tab with an opener is judged this way (tabs.onCreated).
   */
  async onCreated(tab: chrome.tabs.Tab): Promise<void> {
    // Only a tab opened from another tab has an opener; a tab the user opened and then dragged into the group
    // (even within a second) is theirs to share, and stays.
    if (tab.id === undefined || tab.openerTabId === undefined) return;
    await this.#takeBackOut(tab.id);
  }

  /**
   * The same rule between runs, told by webNavigation.onCreatedNavigationTarget: a page (or a link in it) opened this
   * tab. That event never fires for a tab the user opens from the tab strip, the keyboard, a bookmark or the address
   * bar, so listening to it rather than to every new tab spares an idle worker those starts (tabListeners.ts). Should
   * it come before Chrome has the tab in its strip (Chromium 156 had it there, grouped), a tab not found is looked
   * for again.
   */
  async onPageOpened(tabId: number): Promise<void> {
    await this.#takeBackOut(tabId);
  }

  async #takeBackOut(id: number): Promise<void> {
    if (this.#admitted.has(id)) return;
    const state = await this.#load();
    if (!Object.values(state.groups).some((g) => g.length)) return;
    const owned = () => new Set(Object.values(state.groups).flat());
    // Chrome may group it a moment after creating it: look at once and again shortly after.
    for (const wait of [0, 250, 1000]) {
      if (wait) await new Promise((r) => setTimeout(r, wait));
      if (this.#admitted.has(id)) return;
      const now = await chrome.tabs.get(id).catch(() => undefined);
      if (now && now.groupId !== NO_GROUP && owned().has(now.groupId)) {
        await chrome.tabs.ungroup(id).catch(() => undefined);
        return;
      }
    }
  }

  /** A run starts from the tab the user asked from: it joins the group (the user's message is their consent). */
  async begin(conversationId: string): Promise<void> {
    this.#status.set(conversationId, 'running');
    const tab = await this.#deps.runTab(conversationId);
    if (tab?.id !== undefined) await this.join(conversationId, tab.id);
  }

  // ---- TabAccess (the run loop) ----------------------------------------------------------------------------------

  async check(conversationId: string, qualifiedName: string, args: unknown): Promise<TabShareRequest | undefined> {
    const targets = await this.#deps.targets(qualifiedName, args);
    const ids = [...targets.ids];
    if (targets.runTab) {
      const id = (await this.#deps.runTab(conversationId))?.id;
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    if (!ids.length) return undefined;
    const reach = await this.#reach(conversationId);
    for (const id of ids) {
      const tab = await chrome.tabs.get(id).catch(() => undefined);
      if (!tab || reach(tab)) continue; // no such tab: the tool says so itself
      const site = siteOf(tab.url ?? tab.pendingUrl);
      if (await this.#deps.sites.has(site.origin)) {
        await this.join(conversationId, id);
        continue;
      }
      return { tabId: id, title: tab.title ?? '', ...site };
    }
    return undefined;
  }

  async share(conversationId: string, tabId: number, scope: 'once' | 'site'): Promise<void> {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab) return; // closed meanwhile: the call will say there is no such tab
    const { origin } = siteOf(tab.url ?? tab.pendingUrl);
    if (scope === 'site' && origin) await this.#deps.sites.add(origin);
    await this.join(conversationId, tabId);
  }

  /**
   * The gate every call of a run passes (the interceptor's `gate`, for the model's calls and for every call inside
   * code mode and snippets): a tool aimed at a tab out of reach is refused before it reads anything.
   */
  async guard(conversationId: string, tool: AnyTool, args: unknown, runTabId: number | undefined): Promise<void> {
    const id = tabOfCall(tool, args, runTabId);
    if (id === undefined) return;
    const tab = await chrome.tabs.get(id).catch(() => undefined);
    if (!tab || (await this.inReach(conversationId, tab))) return;
    if (await this.#deps.sites.has(siteOf(tab.url ?? tab.pendingUrl).origin)) {
      await this.join(conversationId, id);
      return;
    }
    throw new TabNotSharedError(id);
  }

  /** The conversation was deleted: its tabs leave Otto's groups (they are the user's again) and its record goes. */
  forget(conversationId: string): Promise<void> {
    return this.#serial(async () => {
      const groups = await this.groups(conversationId).catch(() => []);
      for (const g of groups) {
        const tabs = await chrome.tabs.query({ groupId: g.id }).catch(() => []);
        const ids = tabs.map((t) => t.id).filter((id): id is number => id !== undefined);
        if (ids.length) await chrome.tabs.ungroup(ids as [number, ...number[]]).catch(() => undefined);
      }
      const state = await this.#load();
      delete state.groups[conversationId];
      delete state.loose[conversationId];
      this.#status.delete(conversationId);
      await this.#save();
      this.#deps.onGroupsChanged?.();
    });
  }

  /** The run's status changed: the group's title says so in the tab strip. */
  async status(conversationId: string, status: RunStatus): Promise<void> {
    this.#status.set(conversationId, status);
    const title = groupTitle(status);
    const groups = await this.groups(conversationId).catch(() => []);
    await Promise.all(groups.map((g) => chrome.tabGroups.update(g.id, { title }).catch(() => undefined)));
  }
}
