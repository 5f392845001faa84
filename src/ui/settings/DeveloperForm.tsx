/** Developer settings: the panel's Logs view (config `developer.logs`). */
import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { OttoConfig } from '../../config/schema.ts';
import { saveConfigEdits } from './settingsApi.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';

export function DeveloperForm({
  client,
  config,
  onSaved,
}: {
  client: PortClient;
  config: OttoConfig;
  onSaved(): void;
}) {
  const [logs, setLogs] = useState(config.developer.logs);
  const saver = useSaver();
  useEffect(() => setLogs(config.developer.logs), [config]);
  const save = () =>
    saver.run(async () => {
      await saveConfigEdits(client, [{ path: ['developer', 'logs'], value: logs ? true : undefined }]);
      onSaved();
      return 'Saved.';
    });
  return (
    <form
      class="card"
      aria-labelledby="dev-title"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="dev-title">Developer</h2>
      <label class="check">
        <input
          type="checkbox"
          data-testid="settings-developer-logs"
          checked={logs}
          onChange={(e) => setLogs((e.target as HTMLInputElement).checked)}
        />
        Show the Logs view (Stats and files → Logs): tool calls, spans and errors as the worker logs them, secrets
        redacted
      </label>
      <div class="row">
        <button type="submit" class="primary" data-testid="settings-save-developer" disabled={saver.busy}>
          Save
        </button>
      </div>
      <OutcomeLine outcome={saver.outcome} testId="settings-developer-result" />
    </form>
  );
}
