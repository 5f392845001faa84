/** The options page: the same settings view as the panel's, full width. */
import type { PortClient } from '../port/portClient.ts';
import { SettingsView } from '../ui/settings/SettingsView.tsx';

export function Settings({ client }: { client: PortClient }) {
  return (
    <div class="page">
      <header class="topbar">
        <h1>Otto settings</h1>
      </header>
      <main class="settings-pane">
        <SettingsView client={client} />
      </main>
    </div>
  );
}
