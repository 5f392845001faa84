/** One configured MCP server: status, transport, tools; enable/disable, Test, Reconnect, Remove (confirmed in place). */
import { useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import {
  reconnectServer,
  removeServer,
  setServer,
  testServer,
  type ServerStatus,
  type ServerTestResult,
} from './settingsApi.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';
import { ServerTools } from './ServerTools.tsx';

const plural = (n: number) => `${n} tool${n === 1 ? '' : 's'}`;

/** `20 tools · about 3,100 tokens per request` (or: found through mcp.search, over the budget). */
function toolSummary(s: ServerStatus): string {
  const on = s.toolViews.filter((t) => t.state === 'on').length;
  const count = on === s.toolCount ? plural(s.toolCount) : `${plural(s.toolCount)} (${on} on)`;
  const cost = s.cost.deferred
    ? `over the request budget: found through mcp.search (${s.cost.tokens.toLocaleString('en-US')} tokens if all were sent)`
    : `about ${s.cost.tokens.toLocaleString('en-US')} tokens per request`;
  return `${count} · ${cost}`;
}

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
      {s.review.length > 0 && (
        <p class="warn-text" role="status" data-testid="server-review">
          {s.review.length === 1 ? '1 tool changed or appeared' : `${s.review.length} tools changed or appeared`} since
          you approved this server: off until you review {s.review.length === 1 ? 'it' : 'them'} below (
          {s.review.join(', ')}).
        </p>
      )}
      {s.warnings.map((w) => (
        <p class="warn-text" data-testid="server-warning" key={w}>
          {w}
        </p>
      ))}
      {(s.calls.running > 0 || s.calls.waiting > 0) && (
        <p class="muted" data-testid="server-calls">
          {s.calls.running} call{s.calls.running === 1 ? '' : 's'} running
          {s.calls.waiting ? `, ${s.calls.waiting} waiting for a free connection` : ''}
        </p>
      )}
      {s.toolCount > 0 ? (
        <details class="server-tools" open={s.review.length > 0}>
          <summary data-testid="server-tool-count">{toolSummary(s)}</summary>
          <ServerTools client={client} server={s} busy={action.busy} act={act} onChanged={onChanged} />
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
