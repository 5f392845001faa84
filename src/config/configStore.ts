/**
 * Config and secrets in `chrome.storage.local`: `config` holds the user's YAML text, `secrets` a YAML map of names
 * to values. Saving validates first; invalid text is refused with its problems and never replaces a valid config.
 * Loading never falls back silently: stored text that does not validate (after an upgrade, a downgrade, an edit from
 * elsewhere) comes back with its `problems`, and callers must not send anything anywhere while there are any.
 */
import { DEFAULT_CONFIG, type OttoConfig, type Secrets } from './schema.ts';
import { parseConfigYaml, parseSecretsYaml, type ConfigProblem, type ParseOutcome } from './parse.ts';

export const CONFIG_KEY = 'config';
export const SECRETS_KEY = 'secrets';

export interface LoadedConfig {
  /**
   * The config in force. When `problems` is not empty this is the built-in defaults, for local machinery only
   * (the tool registry, command help): no model request, transform call or server connection may use it.
   */
  config: OttoConfig;
  yaml: string;
  /** The settings version the text was saved in (1 = before versioning). */
  version: number;
  /** Why the stored text does not load (wrong values, broken YAML), each at its line and key path. */
  problems: ConfigProblem[];
  /** Keys this version does not know: ignored, kept in the text. */
  warnings: ConfigProblem[];
}

export async function loadConfig(storage = chrome.storage.local): Promise<LoadedConfig> {
  const got = await storage.get(CONFIG_KEY);
  const yaml = typeof got[CONFIG_KEY] === 'string' ? (got[CONFIG_KEY] as string) : '';
  const parsed = parseConfigYaml(yaml);
  const base = { yaml, version: parsed.version, warnings: parsed.warnings };
  if (parsed.ok) return { ...base, config: parsed.value, problems: [] };
  return { ...base, config: DEFAULT_CONFIG, problems: parsed.problems };
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
