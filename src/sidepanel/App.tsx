import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../shared/portClient.ts';

type Link = { state: 'connecting' } | { state: 'ready'; version: string } | { state: 'error'; message: string };

export function App({ client }: { client: PortClient }) {
  const [link, setLink] = useState<Link>({ state: 'connecting' });
  const [draft, setDraft] = useState('');

  useEffect(() => {
    client
      .request<{ version: string }>({ type: 'ping' })
      .then((r) => setLink({ state: 'ready', version: r.version }))
      .catch((e: Error) => setLink({ state: 'error', message: e.message }));
  }, [client]);

  return (
    <div class="shell">
      <header>
        <h1>Otto</h1>
        <span class="status" data-testid="worker-status" data-state={link.state}>
          {link.state === 'ready' ? `connected · v${link.version}` : link.state === 'error' ? link.message : 'connecting…'}
        </span>
        <span class="status" data-testid="run-status" data-status="idle">idle</span>
      </header>
      <main aria-live="polite">
        <p class="empty">Ask Otto about this page.</p>
      </main>
      <form onSubmit={(e) => e.preventDefault()}>
        <textarea
          data-testid="chat-input"
          aria-label="Message Otto"
          rows={2}
          value={draft}
          onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          placeholder="Message Otto"
        />
        <button data-testid="chat-send" type="submit" disabled={!draft.trim() || link.state !== 'ready'}>
          Send
        </button>
      </form>
    </div>
  );
}
