/** API key (masked), base URL with presets, model with suggestions, and "Test connection". */
import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { OttoConfig } from '../../config/schema.ts';
import {
  BASE_URL_PRESETS,
  MODEL_SUGGESTIONS,
  saveConfigEdits,
  testConnection,
  updateSecrets,
  type AgentApi,
} from './settingsApi.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';

export interface ConnectionFormProps {
  client: PortClient;
  config: OttoConfig;
  hasKey: boolean;
  onSaved(): void;
}

export function ConnectionForm({ client, config, hasKey, onSaved }: ConnectionFormProps) {
  const [key, setKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(config.agent.base_url);
  const [model, setModel] = useState(config.agent.model);
  const [api, setApi] = useState<AgentApi>(config.agent.api);
  const saver = useSaver();
  const tester = useSaver();
  useEffect(() => {
    setBaseUrl(config.agent.base_url);
    setModel(config.agent.model);
    setApi(config.agent.api);
  }, [config.agent.base_url, config.agent.model, config.agent.api]);

  const save = () =>
    saver.run(async () => {
      await saveConfigEdits(client, [
        { path: ['agent', 'base_url'], value: baseUrl.trim() || undefined },
        { path: ['agent', 'model'], value: model.trim() || undefined },
        { path: ['agent', 'api'], value: api === 'auto' ? undefined : api },
      ]);
      onSaved();
      return 'Connection saved.';
    });
  const test = () =>
    tester.run(async () => {
      const r = await testConnection(client, {
        baseUrl: baseUrl.trim(),
        model: model.trim(),
        api,
        ...(key.trim() ? { apiKey: key.trim() } : {}),
      });
      if (!r.ok) throw new Error(r.message);
      return r.message;
    });

  return (
    <section class="card" aria-labelledby="conn-title">
      <h2 id="conn-title">Model connection</h2>
      <KeyForm client={client} hasKey={hasKey} value={key} onInput={setKey} onSaved={onSaved} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <BaseUrlField
          baseUrl={baseUrl}
          onInput={setBaseUrl}
          onPreset={(chosen) => {
            setBaseUrl(chosen.url);
            setApi(chosen.api);
          }}
        />
        <div class="field">
          <label for="agent-api">API</label>
          <select
            id="agent-api"
            data-testid="settings-api"
            value={api}
            onChange={(e) => setApi((e.target as HTMLSelectElement).value as AgentApi)}
          >
            <option value="auto">Auto: Responses, else Chat Completions</option>
            <option value="responses">Responses API (/responses)</option>
            <option value="chat">Chat Completions (/chat/completions)</option>
          </select>
        </div>
        <div class="field">
          <label for="model">Model</label>
          <input
            id="model"
            list="model-suggestions"
            data-testid="settings-model"
            value={model}
            onInput={(e) => setModel((e.target as HTMLInputElement).value)}
          />
          <datalist id="model-suggestions">
            {MODEL_SUGGESTIONS.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </div>
        <div class="row">
          <button type="submit" class="primary" data-testid="settings-save-connection" disabled={saver.busy}>
            Save connection
          </button>
          <button type="button" data-testid="settings-test" onClick={() => void test()} disabled={tester.busy}>
            {tester.busy ? 'Testing…' : 'Test connection'}
          </button>
        </div>
        <OutcomeLine outcome={saver.outcome} testId="settings-connection-result" />
        <OutcomeLine outcome={tester.outcome} testId="settings-test-result" />
      </form>
    </section>
  );
}

/** The API key: saved to the secrets (never shown again), replaced or removed. */
function KeyForm(props: {
  client: PortClient;
  hasKey: boolean;
  value: string;
  onInput(value: string): void;
  onSaved(): void;
}) {
  const { client, hasKey, value, onInput, onSaved } = props;
  const keySaver = useSaver();
  const saveKey = () =>
    keySaver.run(async () => {
      await updateSecrets(client, { OPENAI_API_KEY: value.trim() });
      onInput('');
      onSaved();
      return 'API key saved.';
    });
  const removeKey = () =>
    keySaver.run(async () => {
      await updateSecrets(client, {}, ['OPENAI_API_KEY']);
      onSaved();
      return 'API key removed.';
    });
  return (
    <form
      class="field"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) void saveKey();
      }}
    >
      <label for="api-key">OpenAI API key</label>
      <div class="row wrap">
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          data-testid="settings-api-key"
          placeholder={hasKey ? '•••••••••••• (saved; type to replace)' : 'sk-…'}
          value={value}
          onInput={(e) => onInput((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="primary" data-testid="settings-save-key" disabled={!value.trim() || keySaver.busy}>
          Save key
        </button>
        {hasKey && (
          <button type="button" onClick={() => void removeKey()} disabled={keySaver.busy}>
            Remove key
          </button>
        )}
      </div>
      <p class="hint">
        {hasKey
          ? 'A key is saved. It is never shown again, never exported, and redacted from every error.'
          : 'No key saved. Local servers usually need none.'}
      </p>
      <OutcomeLine outcome={keySaver.outcome} testId="settings-key-result" />
    </form>
  );
}

type Preset = (typeof BASE_URL_PRESETS)[number];

/** The base URL, typed or chosen from the presets (a preset also sets the API it speaks). */
function BaseUrlField(props: { baseUrl: string; onInput(url: string): void; onPreset(preset: Preset): void }) {
  const { baseUrl, onInput, onPreset } = props;
  const preset = BASE_URL_PRESETS.find((p) => p.url === baseUrl)?.url ?? '';
  return (
    <div class="field">
      <label for="base-url">Base URL</label>
      <div class="row wrap">
        <input
          id="base-url"
          type="url"
          data-testid="settings-base-url"
          value={baseUrl}
          onInput={(e) => onInput((e.target as HTMLInputElement).value)}
        />
        <select
          aria-label="Base URL preset"
          value={preset}
          data-testid="settings-base-url-preset"
          onChange={(e) => {
            const chosen = BASE_URL_PRESETS.find((p) => p.url === (e.target as HTMLSelectElement).value);
            if (chosen) onPreset(chosen);
          }}
        >
          <option value="">Preset…</option>
          {BASE_URL_PRESETS.map((p) => (
            <option key={p.url} value={p.url}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
