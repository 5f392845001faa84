/** Settings, as a page (options) and as a view inside the panel: connection, behaviour, secrets, full YAML. */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { PortClient } from '../shared/portClient.ts';
import { effectiveConfig } from './configEdit.ts';
import { loadYaml, secretNames } from './settingsApi.ts';
import { ConnectionForm } from './ConnectionForm.tsx';
import { BehaviourForm } from './BehaviourForm.tsx';
import { DeveloperForm } from './DeveloperForm.tsx';
import { TabsForm } from './TabsForm.tsx';
import { SecretsForm } from './SecretsForm.tsx';
import { ServersForm } from './ServersForm.tsx';
import { YamlEditor } from './YamlEditor.tsx';

export function SettingsView({
  client,
  onSaved,
  compact = false,
}: {
  client: PortClient;
  onSaved?: () => void;
  compact?: boolean;
}) {
  const [yaml, setYaml] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [names, setNames] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();

  const reload = useCallback(async () => {
    try {
      const [c, n] = await Promise.all([loadYaml(client), secretNames(client)]);
      setYaml(c.yaml);
      setProblem(c.problem);
      setNames(n);
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [client]);
  useEffect(() => void reload(), [reload]);
  const config = useMemo(() => effectiveConfig(yaml ?? ''), [yaml]);

  const saved = () => {
    void reload();
    onSaved?.();
  };

  if (error)
    return (
      <p class="error-text" role="alert">
        Could not load settings: {error}
      </p>
    );
  if (yaml === undefined) return <p class="empty">Loading settings…</p>;
  return (
    <div class={`settings${compact ? ' compact' : ''}`} data-testid="settings">
      {problem && (
        <div class="banner error" role="alert">
          The saved config no longer validates, so defaults are in force: {problem}
        </div>
      )}
      <ConnectionForm client={client} config={config} hasKey={names.includes('OPENAI_API_KEY')} onSaved={saved} />
      <BehaviourForm client={client} config={config} onSaved={saved} />
      <TabsForm client={client} config={config} onSaved={saved} />
      <SecretsForm client={client} names={names} onSaved={saved} />
      <ServersForm client={client} onSaved={saved} />
      <DeveloperForm client={client} config={config} onSaved={saved} />
      <YamlEditor client={client} saved={yaml} onSaved={saved} />
    </div>
  );
}
