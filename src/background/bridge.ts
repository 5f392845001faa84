/**
 * Wiring of the MCP bridge (#29, src/bridge/): each outside agent's session gets a runner of its own, built like the
 * panel's (the same tool host, so the same interceptor, tab scope and data-flow guard; the same store, so the panel
 * shows it; the same approvals), with the client as its model. Panel and connect-page requests are answered here.
 */
import { AgentRunner, type AgentRunnerOptions } from '../agent/runner.ts';
import { BridgeSessions } from '../bridge/sessions.ts';
import type { ConversationStore } from '../storage/conversations.ts';
import type { Handlers } from './panelPort.ts';
import { broadcast } from './panelHub.ts';
import { setRunTab } from './runTabs.ts';
import type { TabScope } from './tabScope.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';

type BridgeHandlers = Pick<Handlers, 'bridge.open' | 'bridge.answer' | 'bridge.list' | 'bridge.disconnect'>;

export function createBridge(deps: {
  runnerOptions: Omit<AgentRunnerOptions, 'model' | 'instructions'>;
  store: ConversationStore;
  tabScope: TabScope;
  registry: () => ToolRegistry;
}): { sessions: BridgeSessions; handlers: BridgeHandlers } {
  const sessions = new BridgeSessions({
    // Plan first (#42 part 2) is for Otto's own model: the outside agent reads pages itself, so its calls are not
    // held to a program (docs/decisions/plan-first.md).
    runner: (model) =>
      new AgentRunner({
        ...deps.runnerOptions,
        model,
        config: async () => {
          const c = await deps.runnerOptions.config();
          return { ...c, agent: { ...c.agent, plan_first: false } };
        },
      }),
    createConversation: (title) => deps.store.create({ title }),
    shareTab: (conversationId, tabId) => deps.tabScope.join(conversationId, tabId),
    setRunTab,
    qualify: (name) => deps.registry().qualifiedNameOf(name) ?? name,
    changed: () => broadcast({ type: 'bridge.changed' }),
  });
  return {
    sessions,
    handlers: {
      'bridge.open': (req) => sessions.open(req.port, req.token),
      'bridge.answer': (req) => sessions.answer(req.token, req.allow, req.tabIds),
      'bridge.list': async () => {
        await sessions.restore();
        return sessions.list();
      },
      'bridge.disconnect': async (req) => ({ disconnected: await sessions.disconnect(req.conversationId) }),
    },
  };
}
