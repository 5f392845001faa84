/**
 * `transform.base_url` and `transform.model` follow the agent's when the config leaves them unset — the second
 * model call goes where the first one goes, as the settings page says. Only values the user wrote are followed: the
 * agent's built-in defaults are not, so with neither key written `llm.transform` still answers the spec's
 * "Set transform.base_url in config." and sends nothing (docs/decisions.md, #30).
 */
import type { OttoConfig } from './schema.ts';

export interface WrittenAgentKeys {
  baseUrl: boolean;
  model: boolean;
}

/** Which agent connection keys the text itself sets (before defaults are filled in). */
export function writtenAgentKeys(data: unknown): WrittenAgentKeys {
  const agent = data && typeof data === 'object' ? (data as { agent?: unknown }).agent : undefined;
  const has = (k: string) => !!agent && typeof agent === 'object' && (agent as Record<string, unknown>)[k] != null;
  return { baseUrl: has('base_url'), model: has('model') };
}

export function inheritTransform(config: OttoConfig, written: WrittenAgentKeys): OttoConfig {
  const t = config.transform;
  const baseUrl = t.base_url ?? (written.baseUrl ? config.agent.base_url : undefined);
  const model = t.model ?? (written.model ? config.agent.model : undefined);
  if (baseUrl === t.base_url && model === t.model) return config;
  return {
    ...config,
    transform: {
      ...t,
      ...(baseUrl !== undefined ? { base_url: baseUrl } : {}),
      ...(model !== undefined ? { model } : {}),
    },
  };
}
