/** Settings, as a page (options) and as a view inside the panel: connection, behaviour, secrets, full YAML. */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { effectiveConfig, formatProblem } from '../../config/edit.ts';
import { configStatus, type ConfigStatus } from '../../config/status.ts';
import { loadYaml, secretNames } from './settingsApi.ts';
import { ConnectionForm } from './ConnectionForm.tsx';
import { BehaviourForm } from './BehaviourForm.tsx';
import { DeveloperForm } from './DeveloperForm.tsx';
import { TabsForm } from './TabsForm.tsx';
import { SecretsForm } from './SecretsForm.tsx';
import { ServersForm } from './ServersForm.tsx';
import { YamlEditor } from './YamlEditor.tsx';
import { errorMessage } from '../../shared/errorMessage.ts';

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
  const [status, setStatus] = useState<ConfigStatus | undefined>();
  const [names, setNames] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();

  const reload = useCallback(async () => {
    try {
      const [c, n] = await Promise.all([loadYaml(client), secretNames(client)]);
      setYaml(c.yaml);
      setStatus(configStatus(c));
      setNames(n);
      setError(undefined);
    } catch (e) {
      setError(errorMessage(e));
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
      {status?.status === 'invalid' && (
        <div class="banner error" role="alert" data-testid="settings-config-problems">
          <div>
            The saved config does not validate, so Otto sends nothing to any model or server until it is fixed (in the
            editor below):
            <ul class="problems">
              {status.problems.map((p, i) => (
                <li key={i}>{formatProblem(p)}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {status && status.warnings.length > 0 && (
        <div class="banner warn" role="status" data-testid="settings-config-warnings">
          <div>
            Ignored: {status.warnings.length === 1 ? 'a setting' : 'settings'} this version of Otto does not know. They
            stay in your config (another version may use them):
            <ul class="problems warn">
              {status.warnings.map((p, i) => (
                <li key={i}>{formatProblem(p)}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      <ConnectionForm client={client} config={config} hasKey={names.includes('OPENAI_API_KEY')} onSaved={saved} />
      <BehaviourForm client={client} config={config} yaml={yaml} onSaved={saved} />
      <TabsForm client={client} config={config} onSaved={saved} />
      <SecretsForm client={client} names={names} onSaved={saved} />
      <ServersForm client={client} onSaved={saved} />
      <DeveloperForm client={client} config={config} onSaved={saved} />
      <YamlEditor client={client} saved={yaml} onSaved={saved} />
    </div>
  );
}
