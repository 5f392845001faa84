/**
 * The worker's view of config and secrets: loaded once, cached, and dropped whenever `chrome.storage` changes (the
 * settings page saved, or `ot.reload`). Every secret value feeds the log redactor the moment it is known.
 */
import { loadConfig, loadSecrets, CONFIG_KEY, SECRETS_KEY } from '../config/store.ts';
import { redactSecrets } from '../config/redact.ts';
import type { OttoConfig, Secrets } from '../config/schema.ts';
import { setRedactor } from '../shared/log.ts';

export interface Settings {
  config: OttoConfig;
  secrets: Secrets;
  /** Set when the stored config no longer validates; defaults are in force meanwhile. */
  problem?: string;
}

let cached: Promise<Settings> | undefined;
let secretValues: string[] = [];

export function settings(): Promise<Settings> {
  cached ??= (async () => {
    const [{ config, problem }, secrets] = await Promise.all([loadConfig(), loadSecrets()]);
    secretValues = Object.values(secrets);
    return { config, secrets, ...(problem ? { problem } : {}) };
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
