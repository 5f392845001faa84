/**
 * The conversation: messages, reasoning, tool groups, notes and command cards in order; sticks to the bottom while
 * streaming.
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Entry } from '../state/view.ts';
import { AssistantMessage, Note, Reasoning, UserMessage } from './Messages.tsx';
import { ToolGroup } from './ToolGroup.tsx';
import { CommandCardView } from './CommandCard.tsx';
import { usePanelActions } from '../lib/panelActions.ts';

function EntryView({ entry }: { entry: Entry }) {
  const actions = usePanelActions();
  switch (entry.kind) {
    case 'user':
      return <UserMessage text={entry.text} />;
    case 'assistant':
      return (
        <AssistantMessage text={entry.text} streaming={entry.streaming} turn={entry.turn} links={entry.links ?? []} />
      );
    case 'reasoning':
      return <Reasoning text={entry.text} streaming={entry.streaming} />;
    case 'tools':
      return <ToolGroup cards={entry.cards} turn={entry.turn} />;
    case 'note':
      return <Note text={entry.text} />;
    case 'compaction':
      return (
        <p class="note compaction" data-testid="context-compacted" role="note" title={entry.detail}>
          {entry.text}
        </p>
      );
    case 'command':
      return (
        <CommandCardView
          card={entry.card}
          onCancel={actions.cancelCommand}
          {...(actions.canContinue && actions.continueReplay ? { onContinue: actions.continueReplay } : {})}
        />
      );
  }
}

export function MessageList({
  entries,
  loading,
  empty,
  children,
}: {
  entries: Entry[];
  loading: boolean;
  empty: ComponentChildren;
  children?: ComponentChildren;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });

  const onScroll = () => {
    const el = ref.current;
    if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };

  return (
    <div
      class="messages"
      ref={ref}
      onScroll={onScroll}
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      data-testid="messages"
    >
      {loading ? (
        <p class="empty">Loading…</p>
      ) : entries.length === 0 ? (
        empty
      ) : (
        entries.map((e) => <EntryView key={e.key} entry={e} />)
      )}
      {children}
    </div>
  );
}
