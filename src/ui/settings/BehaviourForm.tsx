/** Transform (the second model call used by llm.transform) and approvals policy. */
import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { OttoConfig } from '../../config/schema.ts';
import { saveConfigEdits } from './settingsApi.ts';
import { writtenValue } from '../../config/edit.ts';
import { OutcomeLine, useSaver } from './useSaver.tsx';

interface Fields {
  tBaseUrl: string;
  tModel: string;
  tTimeout: string;
  tMaxTokens: string;
  policy: 'ask' | 'auto';
  origins: string;
}

/** The transform fields show what the text sets; an inherited value is the placeholder, not the value. */
function fieldsOf(c: OttoConfig, yaml: string): Fields {
  const written = (k: string) => {
    const v = writtenValue(yaml, ['transform', k]);
    return v === undefined || v === null ? '' : String(v);
  };
  return {
    tBaseUrl: written('base_url'),
    tModel: written('model'),
    tTimeout: String(c.transform.timeout),
    tMaxTokens: c.transform.max_tokens === undefined ? '' : String(c.transform.max_tokens),
    policy: c.approvals.policy,
    origins: c.approvals.allowed_origins.join('\n'),
  };
}

const num = (s: string) => (s.trim() === '' ? undefined : Number(s));

/**
 * What an empty transform field means, truthfully (config/inherit.ts): the agent's value when the config sets one,
 * otherwise nothing — and llm.transform then says what to set.
 */
export function transformPlaceholders(yaml: string): { baseUrl: string; model: string } {
  const agentUrl = writtenValue(yaml, ['agent', 'base_url']);
  const agentModel = writtenValue(yaml, ['agent', 'model']);
  return {
    baseUrl:
      typeof agentUrl === 'string' && agentUrl
        ? `same as the agent: ${agentUrl}`
        : 'not set: set it here or the agent base URL',
    model:
      typeof agentModel === 'string' && agentModel
        ? `same as the agent: ${agentModel}`
        : 'not set: set it here, the agent model, or pass model=',
  };
}

export function BehaviourForm({
  client,
  config,
  yaml,
  onSaved,
}: {
  client: PortClient;
  config: OttoConfig;
  /** The stored text: which transform keys it sets, and whether the agent's are there to follow. */
  yaml: string;
  onSaved(): void;
}) {
  const [f, setF] = useState<Fields>(() => fieldsOf(config, yaml));
  const saver = useSaver();
  useEffect(() => setF(fieldsOf(config, yaml)), [config, yaml]);
  const placeholder = transformPlaceholders(yaml);
  const set = (k: keyof Fields) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value });

  const save = () =>
    saver.run(async () => {
      const origins = f.origins
        .split(/[\n,]/)
        .map((s) => s.trim())
        .filter(Boolean);
      await saveConfigEdits(client, [
        { path: ['transform', 'base_url'], value: f.tBaseUrl.trim() || undefined },
        { path: ['transform', 'model'], value: f.tModel.trim() || undefined },
        { path: ['transform', 'timeout'], value: num(f.tTimeout) },
        { path: ['transform', 'max_tokens'], value: num(f.tMaxTokens) },
        { path: ['approvals', 'policy'], value: f.policy === 'ask' ? undefined : f.policy },
        { path: ['approvals', 'allowed_origins'], value: origins.length ? origins : undefined },
      ]);
      onSaved();
      return 'Saved.';
    });

  return (
    <form
      class="card"
      aria-labelledby="beh-title"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="beh-title">Transform and approvals</h2>
      <fieldset>
        <legend>Transform (second model call)</legend>
        <div class="grid2">
          <label>
            Transform base URL
            <input
              type="url"
              data-testid="settings-transform-base-url"
              placeholder={placeholder.baseUrl}
              value={f.tBaseUrl}
              onInput={set('tBaseUrl')}
            />
          </label>
          <label>
            Transform model
            <input
              list="model-suggestions"
              data-testid="settings-transform-model"
              placeholder={placeholder.model}
              value={f.tModel}
              onInput={set('tModel')}
            />
          </label>
          <label>
            Timeout (seconds)
            <input type="number" min="1" value={f.tTimeout} onInput={set('tTimeout')} />
          </label>
          <label>
            Max output tokens
            <input type="number" min="1" placeholder="no limit" value={f.tMaxTokens} onInput={set('tMaxTokens')} />
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Approvals</legend>
        <label>
          Destructive actions (closing tabs, submitting forms, leaving a site)
          <select
            data-testid="settings-approvals-policy"
            value={f.policy}
            onChange={(e) => setF({ ...f, policy: (e.target as HTMLSelectElement).value as Fields['policy'] })}
          >
            <option value="ask">Ask me every time</option>
            <option value="auto">Allow without asking</option>
          </select>
        </label>
        <label>
          Always allowed on these sites (one per line, e.g. https://example.com or *.example.com)
          <textarea rows={3} value={f.origins} onInput={set('origins')} />
        </label>
      </fieldset>
      <div class="row">
        <button type="submit" class="primary" data-testid="settings-save-behaviour" disabled={saver.busy}>
          Save
        </button>
      </div>
      <OutcomeLine outcome={saver.outcome} testId="settings-behaviour-result" />
    </form>
  );
}
