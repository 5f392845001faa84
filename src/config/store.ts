/**
 * Config and secrets in `chrome.storage.local`: `config` holds the user's YAML text, `secrets` a YAML map of names
 * to values. Saving validates first; invalid text is refused with its problems and never replaces a valid config.
 */
import { DEFAULT_CONFIG, type OttoConfig, type Secrets } from './schema.ts';
import { parseConfigYaml, parseSecretsYaml, type ParseOutcome } from './parse.ts';

export const CONFIG_KEY = 'config';
export const SECRETS_KEY = 'secrets';

export interface LoadedConfig {
  config: OttoConfig;
  yaml: string;
  /** Set when the stored text no longer validates (e.g. after an upgrade); defaults are used meanwhile. */
  problem?: string;
}

export async function loadConfig(storage = chrome.storage.local): Promise<LoadedConfig> {
  const got = await storage.get(CONFIG_KEY);
  const yaml = typeof got[CONFIG_KEY] === 'string' ? (got[CONFIG_KEY] as string) : '';
  const parsed = parseConfigYaml(yaml);
  if (parsed.ok) return { config: parsed.value, yaml };
  return { config: DEFAULT_CONFIG, yaml, problem: parsed.problems.map((p) => p.message).join('; ') };
}

export async function saveConfig(yaml: string, storage = chrome.storage.local): Promise<ParseOutcome<OttoConfig>> {
  const parsed = parseConfigYaml(yaml);
  if (parsed.ok) await storage.set({ [CONFIG_KEY]: yaml });
  return parsed;
}

export async function loadSecrets(storage = chrome.storage.local): Promise<Secrets> {
  const got = await storage.get(SECRETS_KEY);
  const text = typeof got[SECRETS_KEY] === 'string' ? (got[SECRETS_KEY] as string) : '';
  const parsed = parseSecretsYaml(text);
  return parsed.ok ? parsed.value : {};
}

export async function saveSecrets(yaml: string, storage = chrome.storage.local): Promise<ParseOutcome<Secrets>> {
  const parsed = parseSecretsYaml(yaml);
  if (parsed.ok) await storage.set({ [SECRETS_KEY]: yaml });
  return parsed;
}
