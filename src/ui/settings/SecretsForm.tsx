/** Secrets by name, values always masked: replace, remove, add. Values go to the worker and never come back. */
import { useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { updateSecrets } from './settingsApi.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function SecretsForm({ client, names, onSaved }: { client: PortClient; names: string[]; onSaved(): void }) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [replacing, setReplacing] = useState<string | undefined>();
  const [replacement, setReplacement] = useState('');
  const saver = useSaver();

  const change = (set: Record<string, string>, remove: string[], done: string) =>
    saver.run(async () => {
      await updateSecrets(client, set, remove);
      setName('');
      setValue('');
      setReplacing(undefined);
      setReplacement('');
      onSaved();
      return done;
    });

  const nameOk = NAME_RE.test(name.trim());
  return (
    <section class="card" aria-labelledby="secrets-title" data-testid="secrets">
      <h2 id="secrets-title">Secrets</h2>
      <p class="hint">
        Keys and tokens that tools and servers refer to by name. Stored only in this browser, never synced or exported.
      </p>
      {names.length === 0 ? (
        <p class="muted">No secrets saved.</p>
      ) : (
        <ul class="secret-list">
          {names.map((n) => (
            <li key={n} class="row wrap" data-testid="secret-row">
              <code class="grow">{n}</code>
              {replacing === n ? (
                <form
                  class="row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (replacement) void change({ [n]: replacement }, [], `${n} replaced.`);
                  }}
                >
                  <input
                    type="password"
                    autocomplete="off"
                    aria-label={`New value for ${n}`}
                    value={replacement}
                    onInput={(e) => setReplacement((e.target as HTMLInputElement).value)}
                  />
                  <button type="submit" class="primary" disabled={!replacement || saver.busy}>
                    Save
                  </button>
                  <button type="button" onClick={() => setReplacing(undefined)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  <span class="masked" aria-label="value hidden">
                    ••••••••
                  </span>
                  <button type="button" aria-label={`Replace ${n}`} onClick={() => setReplacing(n)}>
                    Replace
                  </button>
                  <button
                    type="button"
                    aria-label={`Remove ${n}`}
                    onClick={() => void change({}, [n], `${n} removed.`)}
                    disabled={saver.busy}
                  >
                    Remove
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          if (nameOk && value) void change({ [name.trim()]: value }, [], `${name.trim()} saved.`);
        }}
      >
        <input
          aria-label="Secret name"
          placeholder="NAME"
          value={name}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
          aria-invalid={!!name && !nameOk}
        />
        <input
          type="password"
          autocomplete="off"
          aria-label="Secret value"
          placeholder="value"
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        />
        <button type="submit" disabled={!nameOk || !value || saver.busy}>
          Add secret
        </button>
      </form>
      {name && !nameOk && (
        <p class="error-text">Names are identifiers: letters, digits and _ (not starting with a digit).</p>
      )}
      <OutcomeLine outcome={saver.outcome} testId="secrets-result" />
    </section>
  );
}
