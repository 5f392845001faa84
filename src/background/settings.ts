/**
 * The worker's view of config and secrets: loaded once, cached, and dropped whenever `chrome.storage` changes (the
 * settings page saved, or `ot.reload`). Every secret value feeds the log redactor the moment it is known.
 */
import { loadConfig, loadSecrets, CONFIG_KEY, SECRETS_KEY } from '../config/configStore.ts';
import { redactSecrets } from '../config/redact.ts';
import type { OttoConfig, Secrets } from '../config/schema.ts';
import type { ConfigProblem } from '../config/parse.ts';
import { setRedactor } from '../shared/log.ts';
import { configInvalidMessage } from '../config/status.ts';

export interface Settings {
  /** The built-in defaults while `problems` is not empty: for local machinery only, never for a request. */
  config: OttoConfig;
  secrets: Secrets;
  /** The stored config does not validate: nothing is sent anywhere until these are fixed. */
  problems?: ConfigProblem[];
  /** Keys this version does not know, ignored. */
  warnings?: ConfigProblem[];
  /** The settings version the stored text was written in. */
  version?: number;
}

let cached: Promise<Settings> | undefined;
let secretValues: string[] = [];

export function settings(): Promise<Settings> {
  cached ??= (async () => {
    const [{ config, problems, warnings, version }, secrets] = await Promise.all([loadConfig(), loadSecrets()]);
    secretValues = Object.values(secrets);
    return { config, secrets, problems, warnings, version };
  })();
  return cached;
}

export function invalidateSettings(): void {
  cached = undefined;
}

/** Every stored secret value (for redacting what MCP servers send back). */
export function knownSecretValues(): readonly string[] {
  return secretValues;
}

/** The refusal for anything that would send a request while the stored config has problems; undefined when fine. */
export function blockedByConfig(s: Pick<Settings, 'problems'>): string | undefined {
  return s.problems?.length ? configInvalidMessage(s.problems) : undefined;
}

/** Removes every known secret (and key-shaped text) from a string bound for a log, an error or the panel. */
export function redact(text: string): string {
  return redactSecrets(text, secretValues);
}

export function watchSettings(onChange: () => void): void {
  setRedactor(redact);
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !(CONFIG_KEY in changes || SECRETS_KEY in changes)) return;
    invalidateSettings();
    onChange();
  });
}
