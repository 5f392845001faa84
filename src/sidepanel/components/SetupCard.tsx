/** First run without a key: how to get going, in one card. Help, tools and settings work without a key. */
import { useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { BASE_URL_PRESETS, saveConfigEdits, updateSecrets } from '../../ui/settings/settingsApi.ts';
import { CommandHint } from './EmptyState.tsx';
import { errorMessage } from '../../shared/errorMessage.ts';

export function SetupCard({
  client,
  onDone,
  openSettings,
  onTry,
}: {
  client: PortClient;
  onDone(): void;
  openSettings(): void;
  /** Puts a command into the composer: commands need no key. */
  onTry?(text: string): void;
}) {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError('');
    try {
      await fn();
      onDone();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="setup-card" data-testid="setup-card" aria-labelledby="setup-title">
      <h2 id="setup-title">Welcome to Otto</h2>
      <p>
        Otto reads and acts on your open tabs through an AI model. To start chatting, add an OpenAI API key — it stays
        in this browser.
      </p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) void run(() => updateSecrets(client, { OPENAI_API_KEY: key.trim() }));
        }}
      >
        <input
          type="password"
          aria-label="OpenAI API key"
          placeholder="sk-…"
          autocomplete="off"
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          data-testid="setup-api-key"
        />
        <button type="submit" class="primary" disabled={!key.trim() || busy}>
          Save key
        </button>
      </form>
      <p class="muted">Or use a local server that speaks the Responses API (no key needed):</p>
      <div class="chips">
        {BASE_URL_PRESETS.slice(1).map((p) => (
          <button
            type="button"
            key={p.label}
            disabled={busy}
            onClick={() => void run(() => saveConfigEdits(client, [{ path: ['agent', 'base_url'], value: p.url }]))}
          >
            {p.label}
          </button>
        ))}
        <button type="button" class="link" onClick={openSettings}>
          All settings
        </button>
      </div>
      {onTry && <CommandHint onTry={onTry} />}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
