/** The side panel: header, the chat, help, stats-and-files or settings view, and the conversations drawer. */
import { useMemo } from 'preact/hooks';
import type { PortClient } from '../port/portClient.ts';
import { usePanelStore, type PanelStore } from './state/store.ts';
import { buildEntries, runStatusView } from './state/view.ts';
import { usePanelNavigation, type PanelNavigation } from './state/usePanelNavigation.ts';
import { useListActions } from './state/useListActions.ts';
import { useEscapeStops } from './lib/useEscapeStops.ts';
import { Header, type PanelView } from './components/Header.tsx';
import { HelpView } from './components/HelpView.tsx';
import { DataView } from './components/DataView.tsx';
import { PanelActionsContext } from './lib/panelActions.ts';
import { ChatView } from './components/ChatView.tsx';
import { ConversationList } from './components/ConversationList.tsx';
import { SettingsView } from '../ui/settings/SettingsView.tsx';

const VIEW_TITLE: Partial<Record<PanelView, string>> = {
  settings: 'Settings',
  help: 'Help',
  data: 'Stats and files',
};

export function App({ client }: { client: PortClient }) {
  const store = usePanelStore(client);
  const { chat, commands } = store;
  const nav = usePanelNavigation();
  const entries = useMemo(() => buildEntries(chat, commands.cards), [chat, commands.cards]);
  const commandRunning = !!commands.running;
  const busy = runStatusView(chat) === 'running' || commandRunning;
  const stop = () => (commandRunning ? commands.cancel() : store.stop());
  useEscapeStops(busy && nav.view === 'chat' && !nav.drawer, stop, nav.focusInput);
  const actions = useListActions(client, store, nav.openData);
  const tryText = (text: string) => {
    store.fillInput(text);
    nav.setChat();
  };
  const { view } = nav;

  return (
    <PanelActionsContext.Provider value={actions}>
      <div class="shell">
        <PanelHeader store={store} nav={nav} />
        {nav.drawer && <ConversationDrawer store={store} nav={nav} />}
        {view === 'settings' ? (
          <main class="settings-pane">
            <SettingsView client={client} onSaved={() => void store.refreshSetup()} compact />
          </main>
        ) : view === 'help' ? (
          <HelpView help={store.help} onTry={tryText} />
        ) : view === 'data' ? (
          <DataView data={store.data} tab={nav.dataTab} onTab={nav.setDataTab} client={client} />
        ) : (
          <ChatView
            client={client}
            store={store}
            nav={nav}
            entries={entries}
            busy={busy}
            commandRunning={commandRunning}
            stop={stop}
            tryText={tryText}
          />
        )}
      </div>
    </PanelActionsContext.Provider>
  );
}

interface PanelParts {
  store: PanelStore;
  nav: PanelNavigation;
}

/** The header wired to the store and the navigation: its title is the view's, or the open conversation's. */
function PanelHeader({ store, nav }: PanelParts) {
  const { chat } = store;
  const title = chat.conversationId
    ? store.conversations.find((c) => c.id === chat.conversationId)?.title || 'New conversation'
    : 'Otto';
  return (
    <Header
      title={VIEW_TITLE[nav.view] ?? title}
      link={store.link}
      view={nav.view}
      canExport={!!chat.conversationId && chat.items.length > 0 && nav.view === 'chat'}
      onConversations={() => {
        void store.refreshConversations();
        nav.setDrawer(!nav.drawer);
      }}
      onNew={() => {
        store.newConversation();
        nav.showChat();
      }}
      onExport={(f) => void store.exportConversation(f)}
      onHelp={() => nav.toggle('help')}
      onData={() => nav.toggle('data')}
      onSettings={() => {
        if (nav.view === 'settings') {
          nav.setChat();
          void store.refreshSetup();
          nav.focusInput();
        } else nav.openSettings();
      }}
    />
  );
}

/** The conversations drawer: opening or starting one goes back to the chat. */
function ConversationDrawer({ store, nav }: PanelParts) {
  return (
    <ConversationList
      conversations={store.conversations}
      currentId={store.chat.conversationId}
      onOpen={(id) => {
        store.open(id);
        nav.showChat();
      }}
      onNew={() => {
        store.newConversation();
        nav.showChat();
      }}
      onRename={(id, t) => void store.rename(id, t)}
      onDelete={(id) => void store.remove(id)}
      onClose={() => nav.setDrawer(false)}
    />
  );
}
