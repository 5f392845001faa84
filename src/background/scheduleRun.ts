/**
 * One scheduled run (#46), in Otto's own background window: a minimized, unfocused window whose tab joins the run's
 * tab group, so nothing appears among the user's tabs and the focused window stays theirs. A snippet runs as
 * `$name k=v` does from the panel (command language, no model, no key); a task runs the agent with the scope agreed
 * when it was scheduled. What comes back is the history's view of how it ended.
 */
import { CommandError } from '../command/index.ts';
import type { ScheduleEntry } from '../config/scheduleConfig.ts';
import type { AgentRunner } from '../agent/runner.ts';
import { scopeFromWords } from '../agent/scopeRules.ts';
import type { ConversationStore } from '../storage/conversations.ts';
import type { RunState } from '../storage/runRecords.ts';
import type { ScheduleOutcome } from '../storage/scheduleRunRecord.ts';
import { costUsd } from '../results/prices.ts';
import { EFFECT_WORDS } from '../shared/taskScope.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import { runCommandText } from '../tools/packs/ot/index.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import type { ToolInterceptor } from '../tools/interceptor.ts';
import { runTabId, setRunTab, setRunWindow } from './runTabs.ts';
import { scheduleScope } from './scheduleScope.ts';
import { watchedTaskMessage } from './scheduleWatch.ts';
import type { Settings } from './settings.ts';
import type { TabScope } from './tabScope.ts';
import { toolContext } from './workerToolHost.ts';

export interface ScheduledRunDeps {
  settings: () => Promise<Settings>;
  registry: () => ToolRegistry;
  interceptor: () => ToolInterceptor;
  tabScope: TabScope;
  store: ConversationStore;
  runner: AgentRunner;
}

export interface RunEnd {
  outcome: ScheduleOutcome;
  output: string;
  failedStep?: string;
  reason?: string;
  conversationId?: string;
  tokens: number;
  costUsd: number;
  /** Set while a task waits for the user: its window stays until the run ends. */
  windowId?: number;
  /** A watched run's value, the last one kept, whether it fired and the history's line (scheduleWatch.ts). */
  value?: string;
  previous?: string;
  triggered?: boolean;
  change?: string;
}

/** `$name k="v" n=3`: the invocation the panel would run. */
export function snippetCall(name: string, args: ScheduleEntry['args']): string {
  const pairs = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  return [`$${name}`, ...pairs].join(' ');
}

/** A background window for one run: never focused, minimized; its one tab is in the run's group. */
async function backgroundWindow(
  scope: TabScope,
  conversationId: string,
  url: string | undefined,
): Promise<{ windowId: number; tabId: number }> {
  const win = await chrome.windows.create({ url: url ?? 'about:blank', focused: false, state: 'minimized' });
  const tabId = win?.tabs?.[0]?.id;
  if (win?.id === undefined || tabId === undefined) throw new Error('Chrome did not open a window for the run.');
  setRunTab(conversationId, tabId);
  setRunWindow(conversationId, win.id);
  await scope.join(conversationId, tabId);
  return { windowId: win.id, tabId };
}

/**
 * The run's tabs close at its end: those in its group (or its first tab). The window goes only when nothing else is
 * left in it — a tab the user opened or moved there stays, with its window.
 */
export async function closeRunWindow(
  scope: TabScope,
  conversationId: string,
  windowId: number | undefined,
): Promise<void> {
  setRunWindow(conversationId, undefined);
  if (windowId === undefined) return;
  const groups = new Set((await scope.groups(conversationId).catch(() => [])).map((g) => g.id));
  const first = runTabId(conversationId);
  const tabs = await chrome.tabs.query({ windowId }).catch(() => [] as chrome.tabs.Tab[]);
  const mine = tabs.filter((t) => groups.has(t.groupId) || t.id === first);
  if (mine.length === tabs.length) await chrome.windows.remove(windowId).catch(() => undefined);
  else await chrome.tabs.remove(mine.map((t) => t.id!)).catch(() => undefined);
}

export async function runSnippet(deps: ScheduledRunDeps, id: string, entry: ScheduleEntry): Promise<RunEnd> {
  const conversationId = `schedule-${id}`;
  const { windowId, tabId } = await backgroundWindow(deps.tabScope, conversationId, entry.url);
  try {
    const ctx = await toolContext(deps, conversationId, new AbortController().signal, { tabId, run: true, windowId });
    const outcome = await runCommandText(snippetCall(entry.snippet!, entry.args), ctx, { registry: deps.registry() });
    const output = typeof outcome.output === 'string' ? outcome.output : JSON.stringify(outcome.output ?? '');
    return { outcome: 'done', output, tokens: 0, costUsd: 0 };
  } catch (error) {
    const step =
      error instanceof CommandError && error.line
        ? `line ${error.line}${error.label ? `: ${error.label}` : ''}`
        : undefined;
    return {
      outcome: 'failed',
      output: '',
      ...(step ? { failedStep: step } : {}),
      reason: errorMessage(error),
      tokens: 0,
      costUsd: 0,
    };
  } finally {
    await closeRunWindow(deps.tabScope, conversationId, windowId);
  }
}

/** The last assistant message of the conversation: a task's answer. */
async function answerOf(store: ConversationStore, conversationId: string): Promise<string> {
  const items = await store.transcript(conversationId);
  const last = items
    .map((r) => r.item)
    .filter((i) => i.type === 'message' && i.role === 'assistant')
    .at(-1);
  const content = last?.type === 'message' ? last.content : undefined;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((p) => String((p as { text?: unknown }).text ?? '')).join('\n') : '';
}

/** How a task's run state reads in the history. */
export async function taskEnd(
  deps: Pick<ScheduledRunDeps, 'store' | 'settings'>,
  state: RunState,
  windowId?: number,
): Promise<RunEnd> {
  const model = (await deps.settings()).config.agent.model;
  const tokens = state.usage.inputTokens + state.usage.outputTokens;
  const cost = costUsd(model, state.usage.inputTokens, state.usage.outputTokens) ?? 0;
  const base = { conversationId: state.conversationId, tokens, costUsd: cost };
  if (state.status === 'awaiting_approval') {
    const a = state.approval;
    const wants = a?.outOfScope
      ? a.outOfScope.effects.map((k) => EFFECT_WORDS[k]).join(' and ')
      : `use ${a?.name ?? 'a tool'}`;
    return {
      ...base,
      outcome: 'paused-waiting',
      output: '',
      failedStep: a?.name ?? '',
      reason: `wants to ${wants}`,
      ...(windowId !== undefined ? { windowId } : {}),
    };
  }
  if (state.status === 'completed' || (state.status === 'idle' && state.stopReason === 'completed'))
    return { ...base, outcome: 'done', output: await answerOf(deps.store, state.conversationId) };
  const reason = state.lastError?.message ?? `the run stopped (${state.stopReason ?? state.status})`;
  return { ...base, outcome: 'failed', output: await answerOf(deps.store, state.conversationId), reason };
}

export async function runTask(deps: ScheduledRunDeps, id: string, entry: ScheduleEntry): Promise<RunEnd> {
  const task = entry.task!;
  const conversation = await deps.store.create({ title: `Scheduled: ${id}` });
  const { windowId } = await backgroundWindow(deps.tabScope, conversation.id, entry.url);
  const agreed = entry.scope ?? scheduleScope(entry);
  const scope = { effects: agreed.effects, sites: agreed.sites, asked: scopeFromWords(task).asked };
  try {
    const state = await deps.runner.send(conversation.id, watchedTaskMessage(entry) ?? task, { scope });
    const end = await taskEnd(deps, state, windowId);
    if (end.outcome !== 'paused-waiting') await closeRunWindow(deps.tabScope, conversation.id, windowId);
    return end;
  } catch (error) {
    await closeRunWindow(deps.tabScope, conversation.id, windowId);
    return {
      outcome: 'failed',
      output: '',
      reason: errorMessage(error),
      conversationId: conversation.id,
      tokens: 0,
      costUsd: 0,
    };
  }
}
