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
    runner: (model) => new AgentRunner({ ...deps.runnerOptions, model }),
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
