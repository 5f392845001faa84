/**
 * The panel's one store: the chat reducer for the open conversation, the conversation list, the setup facts (is a
 * key needed?), and every request the panel makes to the worker. Components read `PanelStore` and call its
 * actions; nothing else talks to the port. Its parts in their own files: the setup facts (useSetup.ts), which
 * conversation is open (useOpenConversation.ts), the link to the worker (useWorkerLink.ts), the actions
 * (storeActions.ts), command cards (useCommands.ts), the help browser (helpBrowser.ts), Stats and Files (data.ts).
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { ConversationRecord } from '../../storage/records.ts';
import { chatReducer, emptyChat, type ChatState } from './chat.ts';
import { saveMeta } from './conversationMeta.ts';
import { CONFIG_INVALID_HEAD } from '../../config/status.ts';
import { useCommands, type CommandsSlice } from './useCommands.ts';
import { useHelp, type HelpSlice } from './helpBrowser.ts';
import { useData, type DataSlice } from './data.ts';
import type { Request } from './request.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import { useSetup, type Setup } from './useSetup.ts';
import { useOpenConversation } from './useOpenConversation.ts';
import { useNoticedRun } from './useNoticedRun.ts';
import { useWorkerLink, type Link } from './useWorkerLink.ts';
import { storeActions, type StoreActions } from './storeActions.ts';

export interface PanelStore extends StoreActions {
  link: Link;
  chat: ChatState;
  conversations: ConversationRecord[];
  setup: Setup;
  /** A request failed outside a run (busy, storage): shown as a banner. */
  notice?: string | undefined;
  commands: CommandsSlice;
  help: HelpSlice;
  data: DataSlice;
  /** Text put into the composer from elsewhere (help's "Try it"); `n` changes with every fill. */
  fill?: { text: string; n: number } | undefined;
  fillInput(text: string): void;
  dismiss(): void;
  dismissInfo(): void;
  refreshConversations(): Promise<void>;
  refreshSetup(): Promise<Setup | undefined>;
}

export function usePanelStore(client: PortClient): PanelStore {
  const [chat, dispatch] = useReducer(chatReducer, undefined, emptyChat);
  const chatRef = useRef(chat);
  chatRef.current = chat;
  const [notice, setNotice] = useState<string | undefined>();
  const [fill, setFill] = useState<{ text: string; n: number } | undefined>();
  const req: Request = useCallback((body) => client.request(body), [client]);
  const commands = useCommands(req);
  const help = useHelp(req);
  const data = useData(req);
  const { conversations, refreshConversations } = useConversationList(req, setNotice);
  const { setup, setupRef, refreshSetup } = useSetup(req, commands.refreshVocabulary, setNotice);
  const open = useOpenConversation(req, dispatch, commands.open, setNotice);
  const link = useWorkerLink(client, { dispatch, chatRef, open, setNotice, refreshConversations, refreshSetup });
  useKeepMeta(chat);
  const guarded = useGuarded(setNotice, refreshSetup);
  const { current, select } = open;
  useNoticedRun(select);

  const state = { link, chat, conversations, setup, notice, commands, help, data, fill };
  return useMemo<PanelStore>(
    () => ({
      ...state,
      fillInput: (text) => setFill((f) => ({ text, n: (f?.n ?? 0) + 1 })),
      ...storeActions({
        req,
        dispatch,
        chatRef,
        setupRef,
        current,
        commands,
        guarded,
        setNotice,
        select,
        refreshSetup,
        refreshConversations,
      }),
      dismiss: () => {
        setNotice(undefined);
        dispatch({ type: 'dismiss' });
      },
      dismissInfo: () => dispatch({ type: 'dismiss.info' }),
      refreshConversations,
      refreshSetup,
    }),
    // A new store when any part of the state changes, or anything the actions close over.
    [...Object.values(state), guarded, req, refreshConversations, refreshSetup, select],
  );
}

/** The conversations drawer's list, asked of the worker again after anything that changes titles or order. */
function useConversationList(req: Request, setNotice: (n: string | undefined) => void) {
  const [conversations, setConversations] = useState<ConversationRecord[]>([]);
  const refreshConversations = useCallback(async () => {
    try {
      setConversations(await req({ type: 'conversations.list' }));
    } catch (e) {
      setNotice(errorMessage(e));
    }
  }, [req, setNotice]);
  return { conversations, refreshConversations };
}

/** Keeps per-turn usage and durations for the next time this conversation opens. */
function useKeepMeta(chat: ChatState): void {
  useEffect(() => {
    if (chat.conversationId && !chat.loading)
      saveMeta(chat.conversationId, { turns: chat.turns, durations: chat.durations });
  }, [chat.conversationId, chat.loading, chat.turns, chat.durations]);
}

/** Runs a request for an action: a failure becomes the notice, a refusal for an invalid config a look at the config. */
function useGuarded(setNotice: (n: string | undefined) => void, refreshSetup: () => Promise<unknown>) {
  return useCallback(
    async (fn: () => Promise<unknown>) => {
      try {
        setNotice(undefined);
        await fn();
      } catch (e) {
        // The worker refused because the stored config does not validate: the config banner says it, with the lines.
        if (errorMessage(e).startsWith(CONFIG_INVALID_HEAD)) void refreshSetup();
        else setNotice(errorMessage(e));
      }
    },
    [refreshSetup, setNotice],
  );
}
