/** The side panel: header, the chat, help, stats-and-files or settings view, and the conversations drawer. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { PortClient } from '../shared/portClient.ts';
import { usePanelStore } from './state/store.ts';
import { buildEntries, runStatusView } from './state/view.ts';
import { Header, type PanelView } from './components/Header.tsx';
import { HelpView } from './components/HelpView.tsx';
import { DataView, type DataTab } from './components/DataView.tsx';
import { PanelActionsContext, type PanelActions } from './lib/panelActions.ts';
import { MessageList } from './components/MessageList.tsx';
import { Composer } from './components/Composer.tsx';
import { Banners } from './components/Banners.tsx';
import { ConfigBanner } from './components/ConfigBanner.tsx';
import { ApprovalCard } from './components/ApprovalCard.tsx';
import { StatusLine } from './components/StatusLine.tsx';
import { ShareTab } from './components/ShareTab.tsx';
import { BridgeBar } from './components/BridgeBar.tsx';
import { ConversationList } from './components/ConversationList.tsx';
import { SetupCard } from './components/SetupCard.tsx';
import { canSaveSnippet, SaveSnippet } from './components/SaveSnippet.tsx';
import { canRepeat, RepeatRun } from './components/RepeatRun.tsx';
import { EmptyState } from './components/EmptyState.tsx';
import { SettingsView } from '../ui/settings/SettingsView.tsx';

const VIEW_TITLE: Partial<Record<PanelView, string>> = {
  settings: 'Settings',
  help: 'Help',
  data: 'Stats and files',
};

export function App({ client }: { client: PortClient }) {
  const store = usePanelStore(client);
  const { chat, setup, commands } = store;
  const [view, setView] = useState<PanelView>('chat');
  const [dataTab, setDataTab] = useState<DataTab>('stats');
  const [drawer, setDrawer] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const entries = useMemo(() => buildEntries(chat, commands.cards), [chat, commands.cards]);
  const running = runStatusView(chat) === 'running';
  const commandRunning = !!commands.running;
  const busy = running || commandRunning;
  const focusInput = () => setTimeout(() => input.current?.focus(), 0);
  const stop = () => (commandRunning ? commands.cancel() : store.stop());

  // Esc stops a run, or cancels a command, from anywhere in the chat view.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && busy && view === 'chat' && !drawer) {
        e.preventDefault();
        void stop().then(focusInput);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [busy, view, drawer, store, commandRunning]);

  const toggle = (v: PanelView) => {
    setDrawer(false);
    if (view === v) {
      setView('chat');
      focusInput();
    } else setView(v);
  };
  const actions = useMemo<PanelActions>(
    () => ({
      openResult: (handle) => {
        setDataTab('files');
        setView('data');
        void store.data.viewResult(handle);
      },
      cancelCommand: () => void commands.cancel(),
      // #17: a stopped replay goes to the model with the snippet, the failed step, the error and a fresh snapshot.
      canContinue: !setup.needsKey && setup.config.status !== 'invalid',
      continueReplay: (card) => {
        const e = card.error;
        if (!e || e.line === null) return;
        void client
          .request({
            type: 'replay.context',
            text: card.text,
            line: e.line,
            error: e.reason,
            ...(chat.conversationId ? { conversationId: chat.conversationId } : {}),
          })
          .then((r) => store.send(r.message))
          .catch(() => undefined);
      },
    }),
    [store.data.viewResult, commands.cancel, setup.needsKey, setup.config.status, client, chat.conversationId, store],
  );
  const tryText = (text: string) => {
    store.fillInput(text);
    setView('chat');
  };

  const title = chat.conversationId
    ? store.conversations.find((c) => c.id === chat.conversationId)?.title || 'New conversation'
    : 'Otto';
  const after = (p: Promise<unknown>) => void p.then(focusInput);
  const openSettings = () => {
    setDrawer(false);
    setView('settings');
  };

  return (
    <PanelActionsContext.Provider value={actions}>
      <div class="shell">
        <Header
          title={VIEW_TITLE[view] ?? title}
          link={store.link}
          view={view}
          canExport={!!chat.conversationId && chat.items.length > 0 && view === 'chat'}
          onConversations={() => {
            void store.refreshConversations();
            setDrawer(!drawer);
          }}
          onNew={() => {
            store.newConversation();
            setView('chat');
            setDrawer(false);
            focusInput();
          }}
          onExport={(f) => void store.exportConversation(f)}
          onHelp={() => toggle('help')}
          onData={() => toggle('data')}
          onSettings={() => {
            if (view === 'settings') {
              setView('chat');
              void store.refreshSetup();
              focusInput();
            } else openSettings();
          }}
        />
        {drawer && (
          <ConversationList
            conversations={store.conversations}
            currentId={chat.conversationId}
            onOpen={(id) => {
              store.open(id);
              setDrawer(false);
              setView('chat');
              focusInput();
            }}
            onNew={() => {
              store.newConversation();
              setDrawer(false);
              setView('chat');
              focusInput();
            }}
            onRename={(id, t) => void store.rename(id, t)}
            onDelete={(id) => void store.remove(id)}
            onClose={() => setDrawer(false)}
          />
        )}
        {view === 'settings' ? (
          <main class="settings-pane">
            <SettingsView client={client} onSaved={() => void store.refreshSetup()} compact />
          </main>
        ) : view === 'help' ? (
          <HelpView help={store.help} onTry={tryText} />
        ) : view === 'data' ? (
          <DataView data={store.data} tab={dataTab} onTab={setDataTab} client={client} />
        ) : (
          // The chat is the page's main landmark (each other view has its own <main>); `display: contents` keeps
          // the panel's column layout as it was.
          <main class="chat-pane">
            <MessageList
              entries={entries}
              loading={chat.loading}
              empty={
                setup.needsKey ? (
                  <SetupCard
                    client={client}
                    onDone={() => void store.refreshSetup()}
                    openSettings={openSettings}
                    onTry={tryText}
                  />
                ) : (
                  <EmptyState onPick={(t) => void store.send(t)} onTry={tryText} />
                )
              }
            >
              {canSaveSnippet(chat) && !busy && <SaveSnippet chat={chat} onRun={(text) => void store.submit(text)} />}
              {canRepeat(chat) && !busy && <RepeatRun key={chat.conversationId} chat={chat} client={client} />}
              {chat.approval && (
                <ApprovalCard
                  approval={chat.approval}
                  actions={{ approve: (s) => after(store.approve(s)), deny: () => after(store.deny()) }}
                />
              )}
            </MessageList>
            <ConfigBanner config={setup.config} openSettings={openSettings} />
            <Banners
              chat={chat}
              notice={store.notice}
              actions={{
                retry: () => after(store.retry()),
                resume: () => after(store.resume()),
                dismiss: store.dismiss,
                dismissInfo: store.dismissInfo,
                openSettings,
                newConversation: () => {
                  store.newConversation();
                  focusInput();
                },
                exportConversation: () => void store.exportConversation('markdown'),
              }}
            />
            <StatusLine
              chat={chat}
              model={setup.model}
              baseUrl={setup.baseUrl}
              configInvalid={setup.config.status === 'invalid'}
            />
            <BridgeBar client={client} conversationId={chat.conversationId} open={store.open} />
            <ShareTab ready={store.link.state === 'ready'} onShare={store.shareTab} />
            <Composer
              inputRef={input}
              ready={store.link.state === 'ready'}
              active={busy}
              commandRunning={commandRunning}
              fill={store.fill}
              looksLikeCommand={commands.looksLikeCommand}
              onSend={store.submit}
              onStop={() => after(stop())}
            />
          </main>
        )}
      </div>
    </PanelActionsContext.Provider>
  );
}
