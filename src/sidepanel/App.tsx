/** The side panel: header, the chat or the settings view, and the conversations drawer. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { PortClient } from '../shared/portClient.ts';
import { usePanelStore } from './state/store.ts';
import { buildEntries, runStatusView } from './state/view.ts';
import { Header } from './components/Header.tsx';
import { MessageList } from './components/MessageList.tsx';
import { Composer } from './components/Composer.tsx';
import { Banners } from './components/Banners.tsx';
import { ApprovalCard } from './components/ApprovalCard.tsx';
import { StatusLine } from './components/StatusLine.tsx';
import { ConversationList } from './components/ConversationList.tsx';
import { SetupCard } from './components/SetupCard.tsx';
import { EmptyState } from './components/EmptyState.tsx';
import { SettingsView } from '../options/SettingsView.tsx';

export function App({ client }: { client: PortClient }) {
  const store = usePanelStore(client);
  const { chat, setup } = store;
  const [view, setView] = useState<'chat' | 'settings'>('chat');
  const [drawer, setDrawer] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const entries = useMemo(() => buildEntries(chat), [chat]);
  const busy = runStatusView(chat) === 'running';
  const focusInput = () => setTimeout(() => input.current?.focus(), 0);

  // Esc stops a run from anywhere in the panel.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && busy && view === 'chat' && !drawer) {
        e.preventDefault();
        void store.stop().then(focusInput);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [busy, view, drawer, store]);

  const title = chat.conversationId
    ? store.conversations.find((c) => c.id === chat.conversationId)?.title || 'New conversation'
    : 'Otto';
  const after = (p: Promise<unknown>) => void p.then(focusInput);
  const openSettings = () => {
    setDrawer(false);
    setView('settings');
  };

  return (
    <div class="shell">
      <Header
        title={view === 'settings' ? 'Settings' : title}
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
      ) : (
        <>
          <MessageList
            entries={entries}
            loading={chat.loading}
            empty={
              setup.needsKey ? (
                <SetupCard client={client} onDone={() => void store.refreshSetup()} openSettings={openSettings} />
              ) : (
                <EmptyState onPick={(t) => void store.send(t)} />
              )
            }
          >
            {chat.approval && (
              <ApprovalCard
                approval={chat.approval}
                actions={{ approve: (s) => after(store.approve(s)), deny: () => after(store.deny()) }}
              />
            )}
          </MessageList>
          <Banners
            chat={chat}
            notice={store.notice}
            actions={{
              retry: () => after(store.retry()),
              resume: () => after(store.resume()),
              dismiss: store.dismiss,
              openSettings,
            }}
          />
          <StatusLine chat={chat} model={setup.model} />
          <Composer
            inputRef={input}
            ready={store.link.state === 'ready'}
            active={busy}
            onSend={store.send}
            onStop={() => after(store.stop())}
          />
        </>
      )}
    </div>
  );
}
