/**
 * The panel's one store: the chat reducer for the open conversation, the conversation list, the setup facts (is a
 * key needed?), and every request the panel makes to the worker. Components read `PanelStore` and call its
 * actions; nothing else talks to the port. Slices in their own files: command cards (useCommands.ts), the help
 * browser (helpBrowser.ts), the Stats and Files views (data.ts).
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { AgentEvent } from '../../agent/agentEvents.ts';
import type { ConversationRecord } from '../../storage/records.ts';
import type { ResponseItem } from '../../models/events.ts';
import { chatReducer, emptyChat, type ChatState, type PersistedItem } from './chat.ts';
import { dropMeta, loadCurrent, loadMeta, saveCurrent, saveMeta } from './conversationMeta.ts';
import { downloadText } from '../../ui/download.ts';
import { effectiveConfig } from '../../config/edit.ts';
import { CONFIG_INVALID_HEAD, configStatus, type ConfigStatus } from '../../config/status.ts';
import { useCommands, type CommandsSlice } from './useCommands.ts';
import { useHelp, type HelpSlice } from './helpBrowser.ts';
import { useData, type DataSlice } from './data.ts';
import { reviewNotice } from './serverReview.ts';
import type { Request } from './request.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import { parseAnswerLinks } from '../../shared/answerLink.ts';

export type Link = { state: 'connecting' } | { state: 'ready'; version: string } | { state: 'error'; message: string };

export interface Setup {
  loaded: boolean;
  /** OPENAI_API_KEY is missing and the base URL is OpenAI's (a local server needs no key). */
  needsKey: boolean;
  /** Where the next request goes (empty while the config does not validate: then nothing is sent). */
  baseUrl: string;
  model: string;
  /** The stored config's state, as the worker reports it (`config.get`). */
  config: ConfigStatus;
}

export interface PanelStore {
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
  /** What the composer sends: a command runs directly (no model), anything else goes to the chat. */
  submit(text: string): Promise<boolean>;
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  resume(): Promise<void>;
  retry(): Promise<void>;
  approve(scope: 'once' | 'site' | 'task'): Promise<void>;
  deny(): Promise<void>;
  /** Shares the tab the user is looking at with the open conversation (a new one if none); resolves with what happened. */
  shareTab(): Promise<string>;
  dismiss(): void;
  dismissInfo(): void;
  newConversation(): void;
  open(id: string): void;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  refreshConversations(): Promise<void>;
  refreshSetup(): Promise<Setup | undefined>;
  exportConversation(format: 'markdown' | 'json'): Promise<void>;
}

const NO_SETUP: Setup = {
  loaded: false,
  needsKey: false,
  baseUrl: '',
  model: '',
  config: { status: 'ok', version: 0, problems: [], warnings: [] },
};

export function usePanelStore(client: PortClient): PanelStore {
  const [chat, dispatch] = useReducer(chatReducer, undefined, emptyChat);
  const [link, setLink] = useState<Link>({ state: 'connecting' });
  const [conversations, setConversations] = useState<ConversationRecord[]>([]);
  const [setup, setSetup] = useState<Setup>(NO_SETUP);
  const setupRef = useRef(setup);
  setupRef.current = setup;
  const [notice, setNotice] = useState<string | undefined>();
  const [fill, setFill] = useState<{ text: string; n: number } | undefined>();
  const current = useRef<string | undefined>(undefined);
  const chatRef = useRef(chat);
  chatRef.current = chat;

  const req: Request = useCallback((body) => client.request(body), [client]);
  const commands = useCommands(req);
  const help = useHelp(req);
  const data = useData(req);
  const { open: openCommands, refreshVocabulary } = commands;

  const refreshConversations = useCallback(async () => {
    try {
      setConversations(await req({ type: 'conversations.list' }));
    } catch (e) {
      setNotice(errorMessage(e));
    }
  }, [req]);

  const refreshSetup = useCallback(async (): Promise<Setup | undefined> => {
    void refreshVocabulary();
    try {
      const [got, { names }] = await Promise.all([req({ type: 'config.get' }), req({ type: 'secrets.get_names' })]);
      const config = configStatus(got);
      // The worker's verdict decides; the text is parsed here only for where a valid config sends requests.
      const agent = config.status === 'invalid' ? undefined : effectiveConfig(got.yaml).agent;
      let openai = false;
      try {
        openai = !!agent && new URL(agent.base_url).hostname.endsWith('openai.com');
      } catch {
        openai = false;
      }
      const next: Setup = {
        loaded: true,
        needsKey: openai && !names.includes('OPENAI_API_KEY'),
        baseUrl: agent?.base_url ?? '',
        model: agent?.model ?? '',
        config,
      };
      setSetup(next);
      return next;
    } catch (e) {
      setNotice(errorMessage(e));
      return undefined;
    }
  }, [req, refreshVocabulary]);

  const load = useCallback(
    async (id: string) => {
      dispatch({ type: 'loading', conversationId: id });
      try {
        const got = await req({ type: 'conversations.get', conversationId: id });
        const apiNames = [
          ...new Set(got.items.filter((x) => x.item.type === 'function_call').map((x) => String(x.item.name))),
        ];
        const names = apiNames.length ? await req({ type: 'tools.resolve', names: apiNames }) : {};
        if (current.current !== id) return;
        dispatch({
          type: 'loaded',
          conversationId: id,
          // Storage keeps each item as a plain record; what it stores are the Responses API items the loop wrote.
          items: got.items.map(({ seq, item, links }): PersistedItem => ({
            seq,
            item: item as ResponseItem,
            ...(links !== undefined ? { links: parseAnswerLinks(links) } : {}),
          })),
          state: got.state,
          unreadable: got.unreadable,
          active: got.active,
          names,
          ...loadMeta(id),
        });
      } catch (e) {
        if (current.current !== id) return;
        // The conversation is gone (deleted elsewhere): start fresh.
        current.current = undefined;
        saveCurrent(undefined);
        openCommands(undefined);
        dispatch({ type: 'clear' });
        setNotice(errorMessage(e));
      }
    },
    [req, openCommands],
  );

  const select = useCallback(
    (id: string | undefined) => {
      current.current = id;
      saveCurrent(id);
      setNotice(undefined);
      openCommands(id);
      if (id) void load(id);
      else dispatch({ type: 'clear' });
    },
    [load, openCommands],
  );

  // Start-up: connect, then reopen the conversation that was open (and say if a server tool awaits review).
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

  // Keep per-turn usage and durations for the next time this conversation opens.
  useEffect(() => {
    if (chat.conversationId && !chat.loading)
      saveMeta(chat.conversationId, { turns: chat.turns, durations: chat.durations });
  }, [chat.conversationId, chat.loading, chat.turns, chat.durations]);

  const guarded = useCallback(
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
    [refreshSetup],
  );

  return useMemo<PanelStore>(() => {
    const id = () => chatRef.current.conversationId;
    const ensureConversation = async (): Promise<string> => {
      const existing = id();
      if (existing) return existing;
      const rec = await req({ type: 'conversations.create' });
      current.current = rec.id;
      saveCurrent(rec.id);
      commands.adopt(rec.id);
      dispatch({ type: 'loaded', conversationId: rec.id, items: [], active: false });
      return rec.id;
    };
    const send = async (text: string): Promise<boolean> => {
      // A config that does not validate: no run at all; the banner says what is wrong (re-checked, it may be fixed).
      if (setupRef.current.config.status === 'invalid') {
        const fresh = await refreshSetup();
        if (!fresh || fresh.config.status === 'invalid') return false;
      }
      let ok = false;
      await guarded(async () => {
        const conversationId = await ensureConversation();
        await req({ type: 'chat.send', conversationId, text });
        ok = true;
        void refreshConversations();
      });
      return ok;
    };
    return {
      link,
      chat,
      conversations,
      setup,
      notice,
      commands,
      help,
      data,
      fill,
      fillInput: (text) => setFill((f) => ({ text, n: (f?.n ?? 0) + 1 })),
      async submit(text) {
        if ((await commands.classify(text)) === 'chat') return send(text);
        setNotice(undefined);
        const items = chatRef.current.items;
        void commands.run(text, { conversationId: id(), afterSeq: items.length ? items[items.length - 1]!.seq : -1 });
        return true;
      },
      send,
      stop: () => guarded(async () => id() && (await req({ type: 'chat.stop', conversationId: id()! }))),
      resume: () => guarded(async () => id() && (await req({ type: 'chat.resume', conversationId: id()! }))),
      retry: () => guarded(async () => id() && (await req({ type: 'chat.retry', conversationId: id()! }))),
      approve: (scope) =>
        guarded(async () => {
          const a = chatRef.current.approval;
          if (a && id()) await req({ type: 'chat.approve', conversationId: id()!, callId: a.callId, scope });
        }),
      deny: () =>
        guarded(async () => {
          const a = chatRef.current.approval;
          if (a && id()) await req({ type: 'chat.deny', conversationId: id()!, callId: a.callId });
        }),
      async shareTab() {
        const conversationId = await ensureConversation();
        const { tab } = await req({ type: 'tabs.share', conversationId });
        void refreshConversations();
        return `Shared '${tab.title || 'Untitled tab'}' with Otto.`;
      },
      dismiss: () => {
        setNotice(undefined);
        dispatch({ type: 'dismiss' });
      },
      dismissInfo: () => dispatch({ type: 'dismiss.info' }),
      newConversation: () => {
        commands.forget(undefined);
        select(undefined);
      },
      open: (cid) => select(cid),
      rename: (cid, title) =>
        guarded(async () => {
          await req({ type: 'conversations.rename', conversationId: cid, title });
          await refreshConversations();
        }),
      remove: (cid) =>
        guarded(async () => {
          await req({ type: 'conversations.delete', conversationId: cid });
          dropMeta(cid);
          commands.forget(cid);
          if (cid === id()) select(undefined);
          await refreshConversations();
        }),
      refreshConversations,
      refreshSetup,
      exportConversation: (format) =>
        guarded(async () => {
          if (!id()) return;
          const file = await req({
            type: 'conversations.export',
            conversationId: id()!,
            format,
          });
          downloadText(file.filename, file.mimeType, file.text);
        }),
    };
  }, [
    link,
    chat,
    conversations,
    setup,
    notice,
    commands,
    help,
    data,
    fill,
    guarded,
    req,
    refreshConversations,
    refreshSetup,
    select,
  ]);
}
