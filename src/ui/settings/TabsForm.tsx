/**
 * Which tabs Otto may reach (#27): config `tabs.scope`, with a warning on `all`, and the sites whose tabs are shared
 * "always" — each can be revoked here.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { OttoConfig } from '../../config/schema.ts';
import type { SharedSite } from '../../storage/sharedSites.ts';
import { saveConfigEdits } from './settingsApi.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';

type Scope = OttoConfig['tabs']['scope'];

export const ALL_TABS_WARNING =
  "Every open tab — mail, bank, health, work — can be listed, read and acted on by Otto without asking, and what it reads goes to the model's provider.";

export function TabsForm({ client, config, onSaved }: { client: PortClient; config: OttoConfig; onSaved(): void }) {
  const [scope, setScope] = useState<Scope>(config.tabs.scope);
  const [sites, setSites] = useState<SharedSite[]>([]);
  const saver = useSaver();
  useEffect(() => setScope(config.tabs.scope), [config]);
  const loadSites = () =>
    void client
      .request({ type: 'tabs.shared_sites' })
      .then((r) => setSites(r.sites))
      .catch(() => setSites([]));
  useEffect(loadSites, [client]);

  const save = () =>
    saver.run(async () => {
      await saveConfigEdits(client, [{ path: ['tabs', 'scope'], value: scope === 'group' ? undefined : scope }]);
      onSaved();
      return 'Saved.';
    });
  const revoke = (origin: string) =>
    saver.run(async () => {
      await client.request({ type: 'tabs.unshare_site', origin });
      loadSites();
      return `Tabs of ${origin} are no longer shared without asking.`;
    });

  return (
    <form
      class="card"
      aria-labelledby="tabs-title"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="tabs-title">Tabs Otto can see</h2>
      <label>
        Otto works in
        <select
          data-testid="settings-tabs-scope"
          value={scope}
          onChange={(e) => setScope((e.target as HTMLSelectElement).value as Scope)}
        >
          <option value="group">its own tab group: the tab you ask from, tabs it opens, tabs you share</option>
          <option value="window">every tab of the windows its group is in</option>
          <option value="all">every tab of the browser</option>
        </select>
      </label>
      {scope === 'all' && (
        <p class="warning" role="alert" data-testid="settings-tabs-warning">
          {ALL_TABS_WARNING}
        </p>
      )}
      <fieldset>
        <legend>Sites shared always</legend>
        {sites.length === 0 ? (
          <p class="muted" data-testid="settings-shared-sites-empty">
            None. When Otto asks to use a tab, “Always for this site” adds the site here.
          </p>
        ) : (
          <ul class="shared-sites" data-testid="settings-shared-sites">
            {sites.map((s) => (
              <li key={s.origin}>
                <code>{s.origin}</code>{' '}
                <button type="button" data-testid="settings-unshare-site" onClick={() => void revoke(s.origin)}>
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div class="row">
        <button type="submit" class="primary" data-testid="settings-save-tabs" disabled={saver.busy}>
          Save
        </button>
      </div>
      <OutcomeLine outcome={saver.outcome} testId="settings-tabs-result" />
    </form>
  );
}
