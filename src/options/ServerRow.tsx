/** One configured MCP server: status, transport, tools; enable/disable, Test, Reconnect, Remove (confirmed in place). */
import { useState } from 'preact/hooks';
import type { PortClient } from '../shared/portClient.ts';
import {
  reconnectServer,
  removeServer,
  setServer,
  testServer,
  type ServerStatus,
  type ServerTestResult,
} from './settingsApi.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';

const plural = (n: number) => `${n} tool${n === 1 ? '' : 's'}`;

/** A test result as a useSaver outcome: the worker's message, as an error when the connection failed. */
export const tested = (r: ServerTestResult): string => {
  if (!r.ok) throw new Error(r.message);
  return r.message;
};

export function ServerRow({
  client,
  server: s,
  onChanged,
}: {
  client: PortClient;
  server: ServerStatus;
  onChanged(list: ServerStatus[]): void;
}) {
  const [confirming, setConfirming] = useState(false);
  // The state asked for while the change is saved (the box shows it at once, not after the reconnection).
  const [wanted, setWanted] = useState<boolean | undefined>();
  const action = useSaver();
  const act = (fn: () => Promise<string | void>) => void action.run(fn);
  const badge = s.state === 'connected' ? 'badge ok' : s.state === 'disconnected' ? 'badge warn' : 'badge';
  return (
    <li data-testid="server-row" data-name={s.name} data-state={s.state}>
      <div class="row wrap">
        <strong class="grow">{s.name}</strong>
        <span class={badge} data-testid="server-state">
          {s.state}
        </span>
        {s.transport && <span class="muted">{s.transport}</span>}
      </div>
      <span class="muted server-url">{s.url}</span>
      {s.error && (
        <p class="error-text" data-testid="server-error">
          {s.error}
        </p>
      )}
      {s.toolCount > 0 ? (
        <details class="server-tools">
          <summary data-testid="server-tool-count">{plural(s.toolCount)}</summary>
          <p>
            {s.tools.map((t) => (
              <code key={t}>{t}</code>
            ))}
          </p>
        </details>
      ) : (
        <span class="muted" data-testid="server-tool-count">
          no tools
        </span>
      )}
      <div class="row wrap">
        <label class="row">
          <input
            type="checkbox"
            checked={wanted ?? s.enabled}
            disabled={action.busy}
            aria-label={`${s.name} enabled`}
            onChange={(e) => {
              const enabled = (e.target as HTMLInputElement).checked;
              setWanted(enabled);
              act(async () => {
                try {
                  onChanged(await setServer(client, { name: s.name, enabled }));
                } finally {
                  setWanted(undefined);
                }
                return `${s.name} ${enabled ? 'enabled' : 'disabled'}.`;
              });
            }}
          />
          Enabled
        </label>
        <button
          type="button"
          aria-label={`Test ${s.name}`}
          disabled={action.busy}
          onClick={() => act(async () => tested(await testServer(client, { name: s.name })))}
        >
          Test
        </button>
        <button
          type="button"
          aria-label={`Reconnect ${s.name}`}
          disabled={action.busy || !s.enabled}
          onClick={() =>
            act(async () => {
              onChanged(await reconnectServer(client, s.name));
              return `${s.name} reconnected.`;
            })
          }
        >
          Reconnect
        </button>
        {confirming ? (
          <span class="row" role="group" aria-label={`Confirm removing ${s.name}`}>
            <span>Remove {s.name}?</span>
            <button
              type="button"
              class="danger"
              aria-label={`Yes, remove ${s.name}`}
              disabled={action.busy}
              onClick={() =>
                act(async () => {
                  onChanged(await removeServer(client, s.name));
                })
              }
            >
              Remove
            </button>
            <button type="button" aria-label={`Keep ${s.name}`} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        ) : (
          <button type="button" aria-label={`Remove ${s.name}`} onClick={() => setConfirming(true)}>
            Remove
          </button>
        )}
      </div>
      <OutcomeLine outcome={action.outcome} testId="server-result" />
    </li>
  );
}
