/**
 * Otto's service worker: the composition root. Every listener is registered synchronously at the top level, as MV3
 * requires, so events that wake a stopped worker find their handler; those an idle Otto does not need come off again
 * (navigationListeners.ts, tabListeners.ts). Wiring only; logic lives in the layer folders.
 */
import '../shared/zod.ts';
import { acceptPanelPort, type Handlers } from './panelPort.ts';
import { observeInjections, pingFrames } from '../page/contentRouter.ts';
import { pageApi, pageDebug } from '../page/index.ts';
import { reject, traffic } from './traffic.ts';
import { isFromThisExtension } from '../shared/origin.ts';
import { loadConfig, saveConfig, saveSecrets } from '../config/configStore.ts';
import { formatProblems } from '../config/parse.ts';
import { configStatus } from '../config/status.ts';
import { getMeta, putMeta } from '../storage/meta.ts';
import { seedSettings } from '../config/seed.ts';
import { settings, watchSettings, redact, invalidateSettings, blockedByConfig } from './settings.ts';
import { buildRegistry } from './registry.ts';
import { createToolHost } from './workerToolHost.ts';
import { browserOrigins } from './flowResolver.ts';
import { configuredModelClient } from './modelClient.ts';
import { agentHandlers } from './agentHandlers.ts';
import { settingsHandlers } from './settingsHandlers.ts';
import { exportHandlers } from './exportHandlers.ts';
import { commandHandlers } from './commandHandlers.ts';
import { dataHandlers } from './dataHandlers.ts';
import { logHandlers } from './logHandlers.ts';
import { mcp, mcpHandlers, onMcpChange, syncMcp } from './mcp.ts';
import { checkDeps } from '../sdk/index.ts';
import type { AgentMode } from './codeMode.ts';
import { storesOver, type OtRuntime } from '../tools/packs/ot/index.ts';
import { snippetStore } from './snippetStore.ts';
import { replayHandlers } from './replayHandlers.ts';
import { addPanel, broadcast } from './panelHub.ts';
import {
  clearStaleRegistrations,
  noteRunStatus,
  onBeforeNavigate,
  onCommitted,
  onLoadSettled,
  onTabRemoved,
  runGoing,
  watchTab,
} from '../page/pageDevCapture.ts';
import { WINDOW_GRACE_MS } from '../page/registrationWindows.ts';
import { navigationListeners } from './navigationListeners.ts';
import { ALL_TAB_LISTENERS, tabListeners, tabNeeds } from './tabListeners.ts';
import { runOrigin, runTab } from './runTabs.ts';
import { TabScope } from './tabScope.ts';
import { callTargets } from './tabTargets.ts';
import { tabScopeHandlers } from './tabScopeHandlers.ts';
import { scheduleService } from './scheduleService.ts';
import { SharedSites } from '../storage/sharedSites.ts';
import { AgentRunner } from '../agent/runner.ts';
import type { AgentEvent } from '../agent/agentEvents.ts';
import { createBridge } from './bridge.ts';
import { ConversationStore } from '../storage/conversations.ts';
import { SitePermissions } from '../storage/sitePermissions.ts';
import { ToolInterceptor } from '../tools/interceptor.ts';
import { ToolRegistry } from '../tools/ToolRegistry.ts';
import { DEFAULT_CONFIG } from '../config/schema.ts';
import { log } from '../shared/log.ts';
import { db } from '../storage/db.ts';
import type { ToolSetMode } from '../tools/toolSet.ts';
import { wireRewriter } from '../tools/wireNames.ts';
import { systemBlock, today } from './systemBlock.ts';
import { ResultStore } from '../storage/results.ts';
import { StatsStore, toolCallRecorder } from '../storage/statsStore.ts';

const VERSION = chrome.runtime.getManifest().version;

// #19's page-start capture listens to navigations only while a run goes: a top-level webNavigation listener would
// start an idle Otto's stopped worker for every frame of every page the user loads (#26; navigationListeners.ts).
const navigation = navigationListeners(
  {
    onBeforeNavigate: (d) => void onBeforeNavigate(d).catch(() => undefined),
    onCommitted: (d) => void onCommitted(d).catch(() => undefined),
    onLoadSettled,
    onDetached: () => void clearStaleRegistrations(),
  },
  { events: chrome.webNavigation, graceMs: 2 * WINDOW_GRACE_MS },
);
const startedAt = Date.now();
/** How long a fresh worker keeps its navigation listeners with nothing to watch: the event that woke it comes first. */
const START_SETTLE_MS = 1_000;

// Statistics and the large-result store share the one database; stats follow `stats.enabled`.
let statsEnabled = DEFAULT_CONFIG.stats.enabled;
// Statistics are written in the background, a run's worth at a time: never between the steps of a run.
const stats = new StatsStore(db(), { enabled: () => statsEnabled, flushDelayMs: 500 });
const results = new ResultStore(db(), {
  redact,
  onSaving: (s) => stats.recordSaving({ source: 'result_store', tool: s.tool, charsKeptOut: s.charsKeptOut, ts: s.ts }),
});
const recordToolCall = toolCallRecorder(stats);

// Tools: the registry and interceptor follow the config; both are rebuilt when it changes.
// llm.transform's requests count in the statistics like the agent's own.
const onTransformUsage = (u: { model: string; inputTokens: number; outputTokens: number; latencyMs: number }): void =>
  void stats.recordModelRequest(u).catch(() => undefined);
const store = new ConversationStore();
// What the ot pack needs from the worker, given to every registry built (the first one included).
const otDeps: OtRuntime = {
  // ot.reload: re-read config and secrets, reconnect MCP servers, rebuild registry and interceptor.
  reload: async () => {
    invalidateSettings();
    await refreshTools({ reconnect: true });
  },
  servers: mcp,
  checkDeps: (ctx) => checkDeps({ registry: ctx.registry ?? registry, secrets: ctx }),
  // ot.result, ot.stats and ot.notify wrap the worker's stores.
  stores: storesOver(
    () => results,
    () => stats,
  ),
  // #17: ot.save_snippet reads runs from the conversations and writes snippets into the YAML config.
  snippetStore: snippetStore(store),
};
// The dom, tabs and files packs reach pages through the page module (src/page/).
let registry: ToolRegistry = buildRegistry(DEFAULT_CONFIG, { page: pageApi, ot: otDeps, onTransformUsage });
let interceptor = ToolInterceptor.fromConfig(DEFAULT_CONFIG, { onRecord: recordToolCall, redact });
let agentMode: AgentMode = DEFAULT_CONFIG.agent.mode;
let toolSet: ToolSetMode = DEFAULT_CONFIG.agent.tool_set;
async function refreshTools(opts: { reconnect?: boolean | readonly string[] } = {}): Promise<void> {
  const current = await settings();
  const { config } = current;
  statsEnabled = config.stats.enabled;
  // MCP servers first (bounded wait), so their proxy packs are in the registry built next.
  await syncMcp(current, opts.reconnect);
  registry = buildRegistry(config, { page: pageApi, ot: otDeps, proxies: mcp, onTransformUsage });
  interceptor = ToolInterceptor.fromConfig(config, { onRecord: recordToolCall, redact });
  agentMode = config.agent.mode;
  toolSet = config.agent.tool_set;
}
onMcpChange(() => void refreshTools());
const toolsReady = refreshTools();

// Otto's tab group (#27): a run reaches the tabs the user gave it, and asks before any other.
const sharedSites = new SharedSites();
const tabScope = new TabScope({
  scope: async () => (await settings()).config.tabs.scope,
  sites: sharedSites,
  targets: async (name, args) => callTargets(registry, (await settings()).config, name, args),
  runTab,
  onGroupsChanged: () => updateTabListeners(),
});
const toolHost = createToolHost({
  registry: () => registry,
  interceptor: () => interceptor,
  settings,
  results,
  mode: () => agentMode,
  toolSet: () => toolSet,
  tabScope,
  // The data-flow guard's view of tabs and frames: every model call is checked and labelled with it.
  origins: browserOrigins,
});
// What the panel's runner and every MCP client's runner (#29) share: tools, store, approvals, tab scope, events.
const runnerOptions = {
  tools: toolHost,
  store,
  sites: new SitePermissions(),
  tabs: tabScope,
  config: async () => {
    await toolsReady;
    return (await settings()).config;
  },
  origin: runOrigin,
  onEvent: (event: AgentEvent) => {
    broadcast({ type: 'agent', event });
    if (event.type === 'run.status') {
      void tabScope.status(event.conversationId, event.status).catch(() => undefined);
      noteRunStatus(event.conversationId, event.status);
      navigation.update(runGoing());
      updateTabListeners();
      void schedules.onRunStatus(event).catch(() => undefined);
    }
    if (event.type === 'turn.completed' && event.usage) {
      void stats
        .recordModelRequest({
          model: event.model ?? 'unknown',
          inputTokens: event.usage.inputTokens,
          outputTokens: event.usage.outputTokens,
          cachedTokens: event.usage.cachedTokens ?? 0,
          latencyMs: event.latencyMs,
        })
        .catch(() => undefined);
    }
  },
};
const runner = new AgentRunner({
  ...runnerOptions,
  model: configuredModelClient(settings),
  // Otto's system block (the tab, the date, how to work), then the user's instructions; in the names the model calls.
  instructions: async (conversationId) => {
    const { config } = await settings();
    const own = config.agent.instructions.trim();
    if (!config.agent.system_block) return own || undefined;
    const tab = await runTab(conversationId).catch(() => undefined);
    const block = systemBlock({
      conversationId,
      tab: { ...(tab?.title ? { title: tab.title } : {}), ...(tab?.url ? { url: tab.url } : {}) },
      date: today(),
      mode: config.agent.mode,
    });
    const text = own ? `${block}\n\n${own}` : block;
    return config.agent.mode === 'tools' ? wireRewriter(registry)(text) : text;
  },
});
// Outside agents over MCP (#29): their sessions reconnect by themselves after a worker restart.
const bridge = createBridge({ runnerOptions, store, tabScope, registry: () => registry });
void bridge.sessions.restore().catch((err: unknown) => log.warn(`bridge: ${redact(String(err))}`));
// Expired large results go at start-up too, not only every 10th store.
void results.sweepExpired().catch(() => undefined);
// A run that was going when the worker died shows as interrupted, ready to resume.
const recovered = runner.recoverInterrupted().catch((err: unknown) => {
  log.error(`recovering interrupted runs failed: ${redact(String(err))}`);
  return [] as string[];
});

// Schedules (#46): alarms, notifications, unattended runs in a background window.
const schedules = scheduleService({
  settings,
  registry: () => registry,
  interceptor: () => interceptor,
  tabScope,
  store,
  runner,
  ready: toolsReady,
});

const handlers: Handlers = {
  ping: () => ({ pong: true, version: VERSION, startedAt }),
  echo: (req) => req.payload,
  'config.get': async () => {
    const { yaml, problems, warnings, version } = await loadConfig();
    return { yaml, ...configStatus({ version, problems, warnings }) };
  },
  'config.save': async (req) => {
    const out = await saveConfig(req.yaml);
    if (!out.ok) throw new Error(formatProblems(out.problems));
    // Don't wait for storage.onChanged: the next request must already see the new config.
    invalidateSettings();
    await refreshTools();
    return { saved: true };
  },
  'secrets.save': async (req) => {
    // Problems name only line/column and the key path, never the values.
    const out = await saveSecrets(req.yaml);
    if (!out.ok) throw new Error(formatProblems(out.problems));
    invalidateSettings();
    return { saved: true, names: Object.keys(out.value) };
  },
  'frames.ping': (req) => pingFrames(req.tabId),
  ...replayHandlers({ settings }),
  ...agentHandlers(
    runner,
    store,
    tabScope,
    async () => blockedByConfig(await settings()),
    (id) => bridge.sessions.runnerFor(id),
  ),
  ...bridge.handlers,
  ...tabScopeHandlers({ tabScope, sites: sharedSites, store }),
  ...settingsHandlers({ settings, invalidate: invalidateSettings, registry: () => registry }),
  ...exportHandlers({ store, settings, registry: () => registry }),
  ...commandHandlers({ registry: () => registry, interceptor: () => interceptor, settings, ready: toolsReady }),
  ...dataHandlers({ settings, redact, stats: () => stats, results: () => results }),
  ...logHandlers({ settings, redact, entries: () => log.entries() }),
  ...schedules.handlers,
  ...mcpHandlers({
    settings,
    invalidate: invalidateSettings,
    refresh: (o) => refreshTools(o),
    registry: () => registry,
  }),
};

chrome.runtime.onConnect.addListener((port) => {
  if (acceptPanelPort(port, chrome.runtime.id, handlers, { type: 'hello', version: VERSION, startedAt }, recovered))
    addPanel(port);
});

chrome.runtime.onMessage.addListener((_msg, sender) => {
  // No one-shot messages are part of the protocol yet; anything arriving is counted and dropped.
  if (!isFromThisExtension(sender, chrome.runtime.id)) reject('runtime', 'foreign sender');
  else reject('runtime', 'no one-shot messages are accepted');
  return false;
});

// Console and request capture (#19): a tab a run works on is captured from its next page's start, while a run goes.
observeInjections((tabId) => void watchTab(tabId).catch(() => undefined));
// The navigation listeners went on synchronously at start (navigationListeners.ts); they come off once no run goes
// and the windows a stopped worker left have ended, or after a short settle when there are none.
navigation.update(true);
void clearStaleRegistrations()
  .catch(() => undefined)
  .then((end) => navigation.update(runGoing(), Math.max(START_SETTLE_MS, (end ?? 0) - Date.now())));

// Opening or closing a tab starts a stopped worker only while something needs to hear it (#26; tabListeners.ts): a tab
// a page opens from Otto's group is not shared by that (TabScope.onCreated while a run goes, onPageOpened between runs
// while any Otto group exists); a watched tab's capture is forgotten when it closes, while a run goes. All go on
// synchronously at start, as above.
const tabEvents = tabListeners(
  {
    onCreated: (tab) =>
      void tabScope
        .onCreated(tab)
        .catch(() => undefined)
        // The last of Otto's tabs may have gone meanwhile (nothing else tells a worker between runs): look again.
        .then(updateTabListeners),
    onRemoved: (tabId) => onTabRemoved(tabId),
    onOpened: ({ tabId }) =>
      void tabScope
        .onPageOpened(tabId)
        .catch(() => undefined)
        .then(updateTabListeners),
    // A group closed (Otto's last tab there closed or left): whether any Otto group is left decides what stays on.
    onGroupRemoved: () => updateTabListeners(),
  },
  {
    onCreated: chrome.tabs.onCreated,
    onRemoved: chrome.tabs.onRemoved,
    onOpened: chrome.webNavigation.onCreatedNavigationTarget,
    onGroupRemoved: chrome.tabGroups.onRemoved,
  },
);
tabEvents.set(ALL_TAB_LISTENERS);
let tabCheck = 0;
function updateTabListeners(): void {
  const check = ++tabCheck;
  void tabScope
    .hasGroups()
    .catch(() => true) // unknown: keep judging popups
    .then((groups) => {
      if (check === tabCheck) tabEvents.set(tabNeeds(runGoing(), groups));
    });
}
setTimeout(updateTabListeners, START_SETTLE_MS);

chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
});
// Also on every start: the behaviour is cheap to set and must hold even if onInstalled was missed.
void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);

watchSettings(() => {
  void refreshTools();
  void schedules.engine.rearm().catch(() => undefined);
  // Panels re-read the config's state (the banner, where requests go) whatever wrote it: settings, an upgrade, ot.reload.
  broadcast({ type: 'config.changed' });
});

// A handle for DevTools and the e2e suite; it exposes nothing a page can reach.
Object.assign(globalThis, {
  otto: {
    version: VERSION,
    startedAt,
    traffic,
    storage: { getMeta, putMeta },
    results: {
      store: results.storeIfLarge.bind(results),
      query: results.queryResult.bind(results),
      sweep: results.sweepExpired.bind(results),
    },
    stats: () => stats,
    seed: seedSettings,
    runner,
    log,
    registry: () => registry,
    tabScope,
    bridge: bridge.sessions,
    page: pageDebug,
    schedules: {
      runNow: (id: string) => schedules.engine.runNow(id),
      engine: schedules.engine,
      history: schedules.history,
    },
  },
});
