/** MCP servers: status, transport and tools of each; add (Test before Save), enable/disable, test, reconnect, remove. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { listServers, setServer, testServer, type ServerStatus } from './settingsApi.ts';
import { newServerFields, type NewServer } from './serverForm.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';
import { ServerRow, tested } from './ServerRow.tsx';
import { errorMessage } from '../../shared/errorMessage.ts';

const EMPTY: NewServer = { name: '', url: '', headers: '', timeout: '' };

export function ServersForm({ client, onSaved }: { client: PortClient; onSaved(): void }) {
  const [servers, setServers] = useState<ServerStatus[] | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [form, setForm] = useState<NewServer>(EMPTY);
  const tester = useSaver();
  const saver = useSaver();

  const refresh = useCallback(async () => {
    try {
      setServers(await listServers(client));
      setLoadError(undefined);
    } catch (e) {
      setLoadError(errorMessage(e));
    }
  }, [client]);
  useEffect(() => void refresh(), [refresh]);
  // A server still connecting, or calls running or queued: look again shortly.
  useEffect(() => {
    if (!servers?.some((s) => s.state === 'connecting' || s.calls.running > 0 || s.calls.waiting > 0)) return;
    const t = setTimeout(() => void refresh(), 1000);
    return () => clearTimeout(t);
  }, [servers, refresh]);

  const changed = (list: ServerStatus[]) => {
    setServers(list);
    onSaved();
  };
  const fields = newServerFields(form, servers?.map((s) => s.name) ?? []);
  const name = form.name.trim();
  const input = (key: keyof NewServer) => (e: Event) =>
    setForm({ ...form, [key]: (e.target as HTMLInputElement | HTMLTextAreaElement).value });

  return (
    <section class="card" aria-labelledby="servers-title" data-testid="servers">
      <h2 id="servers-title">MCP servers</h2>
      <p class="hint">
        Each server's tools become the pack of its name. Header values may refer to secrets as {'${NAME}'}.
      </p>
      {loadError && (
        <p class="error-text" role="alert">
          Could not list servers: {loadError}
        </p>
      )}
      {servers?.length === 0 && <p class="muted">No servers configured.</p>}
      {servers && servers.length > 0 && (
        <ul class="secret-list server-list">
          {servers.map((s) => (
            <ServerRow key={s.name} client={client} server={s} onChanged={changed} />
          ))}
        </ul>
      )}
      <form
        class="server-add"
        aria-label="Add a server"
        onSubmit={(e) => {
          e.preventDefault();
          if (!fields.ok || !name) return;
          void saver.run(async () => {
            changed(
              await setServer(client, { name, url: fields.url, headers: fields.headers, timeout: fields.timeout }),
            );
            setForm(EMPTY);
            tester.setOutcome(undefined);
            return `${name} saved.`;
          });
        }}
      >
        <h3>Add a server</h3>
        <div class="grid2">
          <label>
            Name
            <input
              value={form.name}
              placeholder="github"
              onInput={input('name')}
              aria-invalid={!fields.ok && !!fields.problem}
            />
          </label>
          <label>
            URL
            <input type="url" value={form.url} placeholder="https://host/mcp" onInput={input('url')} />
          </label>
        </div>
        <label class="field server-headers">
          Headers (optional, one "Header: value" per line)
          <textarea
            class="code-editor"
            rows={2}
            value={form.headers}
            onInput={input('headers')}
            placeholder={'Authorization: Bearer ${GITHUB_TOKEN}'}
            spellcheck={false}
          />
        </label>
        <div class="row wrap">
          <label class="row">
            Timeout (s)
            <input type="number" min="1" max="600" value={form.timeout} placeholder="30" onInput={input('timeout')} />
          </label>
          <button
            type="button"
            disabled={!fields.ok || tester.busy}
            onClick={() =>
              fields.ok &&
              void tester.run(async () =>
                tested(
                  await testServer(client, {
                    url: fields.url,
                    ...(name ? { name } : {}),
                    headers: fields.headers,
                    timeout: fields.timeout,
                  }),
                ),
              )
            }
          >
            {tester.busy ? 'Testing…' : 'Test'}
          </button>
          <button type="submit" class="primary" disabled={!fields.ok || !name || saver.busy}>
            Save
          </button>
        </div>
        {!fields.ok && fields.problem && <p class="error-text">{fields.problem}</p>}
        <OutcomeLine outcome={tester.outcome} testId="server-test-result" />
        <OutcomeLine outcome={saver.outcome} testId="server-save-result" />
      </form>
    </section>
  );
}
