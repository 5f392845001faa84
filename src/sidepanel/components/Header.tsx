/**
 * Title bar: conversations, the open conversation's title, new, export, the help browser, stats and files,
 * settings, and the worker link. The view buttons toggle: pressed again, they go back to the chat.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Link } from '../state/useWorkerLink.ts';
import { Icon, type IconName } from './Icon.tsx';

export type PanelView = 'chat' | 'settings' | 'help' | 'data';

/** A button that opens a two-item menu; closes on choice, Escape or a click elsewhere. */
function ExportMenu({ onExport }: { onExport(format: 'markdown' | 'json'): void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => root.current && !root.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  const pick = (f: 'markdown' | 'json') => {
    setOpen(false);
    onExport(f);
  };
  return (
    <div class="menu" ref={root} onKeyDown={(e) => e.key === 'Escape' && open && (e.stopPropagation(), setOpen(false))}>
      <button
        type="button"
        class="icon"
        aria-label="Export conversation"
        title="Export conversation"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <Icon name="download" />
      </button>
      {open && (
        <div class="menu-items" role="menu">
          <button type="button" role="menuitem" data-testid="export-markdown" onClick={() => pick('markdown')}>
            Export as Markdown
          </button>
          <button type="button" role="menuitem" data-testid="export-json" onClick={() => pick('json')}>
            Export as JSON
          </button>
        </div>
      )}
    </div>
  );
}

export interface HeaderProps {
  title: string;
  link: Link;
  canExport: boolean;
  view: PanelView;
  onConversations(): void;
  onHelp(): void;
  onData(): void;
  onNew(): void;
  onExport(format: 'markdown' | 'json'): void;
  onSettings(): void;
}

/** A header button that opens a view of the panel and, pressed again, goes back to the chat. */
function ViewToggle(t: {
  open: boolean;
  /** [closed, open] */
  label: [string, string];
  title: [string, string];
  testId: string;
  icon: IconName;
  openIcon?: IconName;
  onClick(): void;
}) {
  const k = t.open ? 1 : 0;
  return (
    <button
      type="button"
      class="icon"
      aria-label={t.label[k]}
      title={t.title[k]}
      aria-pressed={t.open}
      data-testid={t.testId}
      onClick={t.onClick}
    >
      <Icon name={t.open && t.openIcon ? t.openIcon : t.icon} />
    </button>
  );
}

export function Header(p: HeaderProps) {
  const linkText =
    p.link.state === 'ready'
      ? `connected · v${p.link.version}`
      : p.link.state === 'error'
        ? p.link.message
        : 'connecting…';
  return (
    <header class="topbar">
      <button
        type="button"
        class="icon"
        aria-label="Conversations"
        title="Conversations"
        data-testid="open-conversations"
        onClick={p.onConversations}
      >
        <Icon name="menu" />
      </button>
      <h1 title={p.title}>{p.title}</h1>
      <span class={`link-state ${p.link.state}`} data-testid="worker-status" data-state={p.link.state} title={linkText}>
        <span class="visually-hidden">{linkText}</span>
      </span>
      <button
        type="button"
        class="icon"
        aria-label="New conversation"
        title="New conversation"
        data-testid="new-conversation"
        onClick={p.onNew}
      >
        <Icon name="plus" />
      </button>
      {p.canExport && <ExportMenu onExport={p.onExport} />}
      <ViewToggle
        open={p.view === 'help'}
        label={['Help and tools', 'Close help']}
        title={['Help: packs, tools, examples', 'Back to chat']}
        testId="open-help"
        icon="help"
        onClick={p.onHelp}
      />
      <ViewToggle
        open={p.view === 'data'}
        label={['Stats and files', 'Close stats and files']}
        title={['Stats and files', 'Back to chat']}
        testId="open-stats"
        icon="chart"
        onClick={p.onData}
      />
      <ViewToggle
        open={p.view === 'settings'}
        label={['Settings', 'Back to chat']}
        title={['Settings', 'Back to chat']}
        testId="open-settings"
        icon="gear"
        openIcon="close"
        onClick={p.onSettings}
      />
    </header>
  );
}
