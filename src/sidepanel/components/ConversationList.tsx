/** The conversations drawer: search by title, open, rename in place, delete with confirmation. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConversationRecord } from '../../storage/records.ts';
import { relativeTime } from '../lib/displayFormat.ts';
import { Icon } from './Icon.tsx';

export interface ConversationListProps {
  conversations: ConversationRecord[];
  currentId?: string | undefined;
  onOpen(id: string): void;
  onNew(): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
  onClose(): void;
}

const titleOf = (c: ConversationRecord) => c.title || 'Untitled conversation';

function Row({ c, current, p }: { c: ConversationRecord; current: boolean; p: ConversationListProps }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view');
  const [title, setTitle] = useState(c.title);
  if (mode === 'rename') {
    return (
      <li class="conv-row">
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (title.trim()) p.onRename(c.id, title.trim());
            setMode('view');
          }}
        >
          <input
            aria-label="New title"
            value={title}
            onInput={(e) => setTitle((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), setMode('view'))}
            ref={(el) => el?.focus()}
          />
          <button type="submit" class="primary">
            Save
          </button>
        </form>
      </li>
    );
  }
  return (
    <li class={`conv-row${current ? ' current' : ''}`} data-testid="conversation-item">
      <button type="button" class="conv-open" aria-current={current} onClick={() => p.onOpen(c.id)}>
        <span class="conv-title">{titleOf(c)}</span>
        <span class="muted">{relativeTime(c.updatedAt)}</span>
      </button>
      {mode === 'confirm' ? (
        <span class="row">
          <button
            type="button"
            class="danger"
            onClick={() => p.onDelete(c.id)}
            aria-label={`Confirm delete ${titleOf(c)}`}
          >
            Delete
          </button>
          <button type="button" onClick={() => setMode('view')}>
            Keep
          </button>
        </span>
      ) : (
        <span class="row">
          <button
            type="button"
            class="icon"
            aria-label={`Rename ${titleOf(c)}`}
            title="Rename"
            onClick={() => setMode('rename')}
          >
            <Icon name="pencil" size={16} />
          </button>
          <button
            type="button"
            class="icon"
            aria-label={`Delete ${titleOf(c)}`}
            title="Delete"
            onClick={() => setMode('confirm')}
          >
            <Icon name="trash" size={16} />
          </button>
        </span>
      )}
    </li>
  );
}

export function ConversationList(p: ConversationListProps) {
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => search.current?.focus(), []);
  const q = query.trim().toLowerCase();
  const shown = q ? p.conversations.filter((c) => titleOf(c).toLowerCase().includes(q)) : p.conversations;
  return (
    <div
      class="drawer"
      role="dialog"
      aria-label="Conversations"
      data-testid="conversations"
      onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), p.onClose())}
    >
      <div class="row drawer-head">
        <input
          ref={search}
          type="search"
          aria-label="Search conversations"
          placeholder="Search by title"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
        <button type="button" class="primary" onClick={p.onNew}>
          New
        </button>
        <button type="button" class="icon" aria-label="Close conversations" onClick={p.onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      {shown.length === 0 ? (
        <p class="empty">{q ? 'No conversation matches.' : 'No conversations yet.'}</p>
      ) : (
        <ul class="conv-list">
          {shown.map((c) => (
            <Row key={c.id} c={c} current={c.id === p.currentId} p={p} />
          ))}
        </ul>
      )}
    </div>
  );
}
