/**
 * A server's tools in the settings: each with its state and a switch. A tool the server changed since the user
 * approved it shows what differs, and one that appeared later says so; both stay off until turned on here. Each
 * shows its description exactly as the model receives it (cut where the caps cut), and a tool whose definition
 * cannot be used says why.
 */
import { useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { setServerTool, type ServerStatus } from './settingsApi.ts';
import type { ToolView } from '../../mcp/manager.ts';

const STATE_LABEL: Record<ToolView['state'], string> = {
  on: 'on',
  off: 'off',
  changed: 'changed — review',
  new: 'new — review',
  invalid: 'cannot be used',
};

export function ServerTools({
  client,
  server: s,
  busy,
  act,
  onChanged,
}: {
  client: PortClient;
  server: ServerStatus;
  busy: boolean;
  act(fn: () => Promise<string | void>): void;
  onChanged(list: ServerStatus[]): void;
}) {
  // The state asked for while it is saved (the box shows it at once, not after the registry is rebuilt).
  const [wanted, setWanted] = useState<Record<string, boolean>>({});
  const toggle = (t: ToolView, enabled: boolean) => {
    setWanted((w) => ({ ...w, [t.name]: enabled }));
    act(async () => {
      try {
        onChanged(await setServerTool(client, s.name, t.name, enabled));
      } finally {
        setWanted((w) => {
          const { [t.name]: _done, ...rest } = w;
          return rest;
        });
      }
      return `${s.name}.${t.name} turned ${enabled ? 'on' : 'off'}.`;
    });
  };
  return (
    <ul class="server-tool-list">
      {s.toolViews.map((t) => (
        <li key={t.name} data-testid="server-tool" data-tool={t.name} data-state={t.state}>
          <div class="row wrap">
            <label class="row grow">
              <input
                type="checkbox"
                checked={wanted[t.name] ?? t.state === 'on'}
                disabled={busy || t.state === 'invalid'}
                aria-label={`${s.name}.${t.name} on`}
                onChange={(e) => toggle(t, (e.target as HTMLInputElement).checked)}
              />
              <code>{t.name}</code>
            </label>
            <span class={t.state === 'on' ? 'badge ok' : t.state === 'off' ? 'badge' : 'badge warn'}>
              {STATE_LABEL[t.state]}
            </span>
            {t.readOnly && <span class="muted">read-only</span>}
          </div>
          {t.reason && <p class="error-text">Off: {t.reason}.</p>}
          {t.state === 'new' && <p class="warn-text">The server added this tool after you connected it.</p>}
          {t.changes && (
            <div class="warn-text" data-testid="server-tool-changes">
              <p>Changed since you approved it:</p>
              <ul>
                {t.changes.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </div>
          )}
          {t.cut && <p class="muted">Cut: {t.cut.join('; ')}.</p>}
          {t.description && (
            <details>
              <summary>What the model receives</summary>
              <pre class="server-tool-description" data-testid="server-tool-description">
                {t.description}
              </pre>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
