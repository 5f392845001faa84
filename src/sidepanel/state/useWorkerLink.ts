/**
 * The panel's link to the worker: at start-up, connect, reopen the conversation that was open and say if a server's
 * tools await review; then follow what the worker pushes (agent events, worker errors, config changes, a new worker).
 */
import { useEffect, useState } from 'preact/hooks';
import type { RefObject } from 'preact';
import type { PortClient } from '../../port/portClient.ts';
import type { AgentEvent } from '../../agent/agentEvents.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import type { ChatAction, ChatState } from './chat.ts';
import { loadCurrent } from './conversationMeta.ts';
import { reviewNotice } from './serverReview.ts';
import type { OpenConversation } from './useOpenConversation.ts';

export type Link = { state: 'connecting' } | { state: 'ready'; version: string } | { state: 'error'; message: string };

export interface WorkerLinkDeps {
  dispatch(a: ChatAction): void;
  chatRef: RefObject<ChatState>;
  open: OpenConversation;
  setNotice(n: string | undefined): void;
  refreshConversations(): Promise<void>;
  refreshSetup(): Promise<unknown>;
}

export function useWorkerLink(client: PortClient, deps: WorkerLinkDeps): Link {
  const [link, setLink] = useState<Link>({ state: 'connecting' });
  const { dispatch, chatRef, setNotice, refreshConversations, refreshSetup } = deps;
  const { current, load, select } = deps.open;
  useEffect(() => {
    const off = client.onEvent((m) => {
      if (m.type === 'agent') {
        dispatch({ type: 'event', event: m.event as unknown as AgentEvent, at: Date.now() });
        // Titles come from the first message, and updatedAt moves with every run: keep the list current.
        const ev = m.event as { type: string; status?: string; item?: { role?: string } };
        if ((ev.type === 'run.status' && ev.status !== 'running') || (ev.type === 'item' && ev.item?.role === 'user')) {
          void refreshConversations();
        }
      } else if (m.type === 'worker.error')
        dispatch({ type: 'worker.error', conversationId: m.conversationId, message: m.message });
      else if (m.type === 'servers.review') setNotice(m.message);
      else if (m.type === 'config.changed') void refreshSetup();
      else if (m.type === 'hello' && current.current && chatRef.current.conversationId) {
        // A new worker: reload what it persisted (a run may have been interrupted).
        void load(current.current);
      }
    });
    client
      .request({ type: 'ping' })
      .then((r) => {
        setLink({ state: 'ready', version: r.version });
        const id = loadCurrent();
        if (id) select(id);
        void refreshConversations();
        void refreshSetup();
        void reviewNotice(client).then((n) => n && setNotice(n));
      })
      .catch((e: unknown) => {
        setLink({ state: 'error', message: errorMessage(e) });
        setNotice(`Otto's background worker did not answer: ${errorMessage(e)} Reload the panel to try again.`);
      });
    return off;
  }, [client, select, refreshConversations, refreshSetup, load]);
  return link;
}
