/**
 * Panel requests that drive the agent. Runner calls resolve only when a run pauses or ends, so the handlers start
 * them and answer at once; progress reaches the panel as pushed `agent` events. A failure outside the loop's own
 * handling is pushed as `worker.error` (redacted), never dropped.
 */
import type { AgentRunner } from '../agent/runner.ts';
import type { ConversationStore } from '../storage/conversations.ts';
import { runForDisplay } from '../storage/runStateSchema.ts';
import type { Handlers } from './panelPort.ts';
import { broadcast } from './panelHub.ts';
import { redact } from './settings.ts';
import { setRunTab } from './runTabs.ts';
import type { TabScope } from './tabScope.ts';
import { log } from '../shared/log.ts';
import { errorMessage } from '../shared/errorMessage.ts';

type AgentHandlers = Pick<
  Handlers,
  | 'chat.send'
  | 'chat.stop'
  | 'chat.resume'
  | 'chat.retry'
  | 'chat.approve'
  | 'chat.deny'
  | 'conversations.list'
  | 'conversations.create'
  | 'conversations.get'
  | 'conversations.rename'
  | 'conversations.delete'
>;

function inBackground(conversationId: string, run: Promise<unknown>): void {
  run.catch((err: unknown) => {
    const message = redact(errorMessage(err));
    log.error(`run failed outside the loop: ${message}`, { conversationId });
    broadcast({ type: 'worker.error', conversationId, message });
  });
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New conversation';
}

/**
 * `configBlock` says why nothing may be sent (the stored config does not validate); a run is then refused before it
 * starts — no message stored, no request — and the panel shows the problems instead.
 */
export function agentHandlers(
  runner: AgentRunner,
  store: ConversationStore,
  tabScope?: TabScope,
  configBlock: () => Promise<string | undefined> = async () => undefined,
  /** A conversation driven by a runner of its own (an MCP client's session, #29): its approvals and stops go there. */
  route: (conversationId: string) => AgentRunner | undefined = () => undefined,
): AgentHandlers {
  const pick = (conversationId: string): AgentRunner => route(conversationId) ?? runner;
  const ensureIdle = (conversationId: string) => {
    if (pick(conversationId).isActive(conversationId))
      throw new Error('Otto is still working on this conversation. Stop it first, or wait.');
  };
  const ensureConfig = async () => {
    const blocked = await configBlock();
    if (blocked) throw new Error(blocked);
  };
  return {
    'chat.send': async (req) => {
      await ensureConfig();
      const conversation = req.conversationId
        ? await store.get(req.conversationId)
        : await store.create({ title: titleFrom(req.text) });
      if (!conversation) throw new Error(`No conversation ${req.conversationId}.`);
      if (route(conversation.id))
        throw new Error(
          'This conversation is an MCP client’s session: its calls come from that client. Start a new conversation to ask Otto.',
        );
      ensureIdle(conversation.id);
      // A stored run this version cannot read refuses the message now, as an answer (the panel keeps the draft),
      // before the tab joins a group; the run would refuse it anyway, later and as a worker error.
      if (req.conversationId) await runner.getState(conversation.id);
      setRunTab(conversation.id, req.tabId);
      // The tab the user asked from joins Otto's group: asking from it is sharing it.
      await tabScope?.begin(conversation.id).catch((err: unknown) => log.warn(`tab group: ${redact(String(err))}`));
      inBackground(conversation.id, runner.send(conversation.id, req.text));
      return { conversationId: conversation.id };
    },
    'chat.stop': async (req) => ({ state: await pick(req.conversationId).stop(req.conversationId) }),
    'chat.resume': async (req) => {
      await ensureConfig();
      ensureIdle(req.conversationId);
      inBackground(req.conversationId, pick(req.conversationId).resume(req.conversationId));
      return { started: true };
    },
    'chat.retry': async (req) => {
      await ensureConfig();
      ensureIdle(req.conversationId);
      inBackground(req.conversationId, pick(req.conversationId).retry(req.conversationId));
      return { started: true };
    },
    'chat.approve': (req) => {
      inBackground(req.conversationId, pick(req.conversationId).approve(req.conversationId, req.callId, req.scope));
      return { started: true };
    },
    'chat.deny': (req) => {
      inBackground(req.conversationId, pick(req.conversationId).deny(req.conversationId, req.callId));
      return { started: true };
    },
    'conversations.list': () => store.list(),
    'conversations.create': (req) => store.create(req.title ? { title: req.title } : {}),
    'conversations.get': async (req) => {
      const conversation = await store.get(req.conversationId);
      if (!conversation) throw new Error(`No conversation ${req.conversationId}.`);
      // A run state this version cannot read does not hide the transcript: the panel shows it, read-only.
      const [items, run] = await Promise.all([
        store.transcript(req.conversationId),
        runForDisplay(pick(req.conversationId).getState(req.conversationId)),
      ]);
      return { conversation, items, ...run, active: pick(req.conversationId).isActive(req.conversationId) };
    },
    'conversations.rename': (req) => store.rename(req.conversationId, req.title),
    'conversations.delete': async (req) => {
      const deleted = await pick(req.conversationId).deleteConversation(req.conversationId);
      // Its tab group goes with it: the tabs stay open, back in the user's hands.
      await tabScope?.forget(req.conversationId).catch(() => undefined);
      return { deleted };
    },
  };
}
