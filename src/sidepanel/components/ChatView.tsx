/** The chat view: the conversation (or the first-run card), the approval waiting, banners, status, the composer. */
import type { PortClient } from '../../port/portClient.ts';
import type { PanelStore } from '../state/store.ts';
import type { Entry } from '../state/view.ts';
import type { PanelNavigation } from '../state/usePanelNavigation.ts';
import { MessageList } from './MessageList.tsx';
import { Composer } from './Composer.tsx';
import { Banners } from './Banners.tsx';
import { ConfigBanner } from './ConfigBanner.tsx';
import { ApprovalCard } from './ApprovalCard.tsx';
import { StatusLine } from './StatusLine.tsx';
import { ShareTab } from './ShareTab.tsx';
import { BridgeBar } from './BridgeBar.tsx';
import { SetupCard } from './SetupCard.tsx';
import { canSaveSnippet, SaveSnippet } from './SaveSnippet.tsx';
import { EmptyState } from './EmptyState.tsx';
import { canRepeat, RepeatRun } from './RepeatRun.tsx';

export interface ChatViewProps {
  client: PortClient;
  store: PanelStore;
  nav: PanelNavigation;
  entries: Entry[];
  /** A run or a command is going: Stop shows, a snippet cannot be saved yet. */
  busy: boolean;
  commandRunning: boolean;
  stop(): Promise<unknown>;
  /** Puts text into the composer (an example to try). */
  tryText(text: string): void;
}

export function ChatView({ client, store, nav, entries, busy, commandRunning, stop, tryText }: ChatViewProps) {
  const { chat, setup } = store;
  const after = (p: Promise<unknown>) => void p.then(nav.focusInput);
  const ready = store.link.state === 'ready';
  return (
    // The chat is the page's main landmark (each other view has its own <main>); `display: contents` keeps the
    // panel's column layout as it was.
    <main class="chat-pane">
      <MessageList
        entries={entries}
        loading={chat.loading}
        empty={
          setup.needsKey ? (
            <SetupCard
              client={client}
              onDone={() => void store.refreshSetup()}
              openSettings={nav.openSettings}
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
      <ConfigBanner config={setup.config} openSettings={nav.openSettings} />
      <Banners
        chat={chat}
        notice={store.notice}
        actions={{
          retry: () => after(store.retry()),
          resume: () => after(store.resume()),
          dismiss: store.dismiss,
          dismissInfo: store.dismissInfo,
          openSettings: nav.openSettings,
          newConversation: () => {
            store.newConversation();
            nav.focusInput();
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
      <ShareTab ready={ready} onShare={store.shareTab} />
      <Composer
        inputRef={nav.input}
        ready={ready}
        active={busy}
        commandRunning={commandRunning}
        fill={store.fill}
        looksLikeCommand={store.commands.looksLikeCommand}
        onSend={store.submit}
        onStop={() => after(stop())}
      />
    </main>
  );
}
