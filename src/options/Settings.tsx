import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../shared/portClient.ts';

export function Settings({ client }: { client: PortClient }) {
  const [yaml, setYaml] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();

  useEffect(() => {
    client.request<{ yaml: string }>({ type: 'config.get' }).then((r) => setYaml(r.yaml), () => undefined);
  }, [client]);

  const save = async () => {
    try {
      await client.request({ type: 'config.save', yaml });
      setMessage({ kind: 'ok', text: 'Saved.' });
    } catch (e) {
      setMessage({ kind: 'error', text: (e as Error).message });
    }
  };

  return (
    <div class="shell">
      <header>
        <h1>Otto settings</h1>
      </header>
      <main>
        <label for="config-yaml">Configuration (YAML)</label>
        <textarea id="config-yaml" data-testid="config-yaml" rows={20} style="width:100%;font-family:monospace" value={yaml} onInput={(e) => setYaml((e.target as HTMLTextAreaElement).value)} />
        <p>
          <button data-testid="config-save" onClick={save}>
            Save
          </button>
        </p>
        {message && (
          <pre role={message.kind === 'error' ? 'alert' : 'status'} data-testid="config-message">
            {message.text}
          </pre>
        )}
      </main>
    </div>
  );
}
