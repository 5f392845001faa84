/**
 * Merges launch-time settings (from `npm start`'s environment) into the stored YAML, keeping the user's comments
 * and other keys. Returns the names it set, never the values.
 */
import { parseDocument } from 'yaml';
import { CONFIG_KEY, SECRETS_KEY, saveConfig, saveSecrets } from './configStore.ts';
import { formatProblems } from './parse.ts';
import { mergeSecretsText } from './secretsText.ts';

export interface SeedValues {
  apiKey?: string;
  baseUrl?: string;
  model?: string;
}

function setIn(text: string, path: string[], value: string): string {
  const doc = parseDocument(text || '{}');
  if (doc.errors.length) throw new Error(`stored YAML does not parse: ${doc.errors[0]?.message}`);
  doc.setIn(path, value);
  return doc.toString();
}

export async function seedSettings(values: SeedValues, storage = chrome.storage.local): Promise<string[]> {
  const seeded: string[] = [];
  const stored = await storage.get([CONFIG_KEY, SECRETS_KEY]);
  let config = typeof stored[CONFIG_KEY] === 'string' ? (stored[CONFIG_KEY] as string) : '';
  if (values.baseUrl) {
    config = setIn(config, ['agent', 'base_url'], values.baseUrl);
    seeded.push('agent.base_url');
  }
  if (values.model) {
    config = setIn(config, ['agent', 'model'], values.model);
    seeded.push('agent.model');
  }
  if (values.baseUrl || values.model) {
    const out = await saveConfig(config, storage);
    if (!out.ok) throw new Error(`seeded config is invalid:\n${formatProblems(out.problems)}`);
  }
  if (values.apiKey) {
    const secrets = typeof stored[SECRETS_KEY] === 'string' ? (stored[SECRETS_KEY] as string) : '';
    const out = await saveSecrets(mergeSecretsText(secrets, { OPENAI_API_KEY: values.apiKey }), storage);
    if (!out.ok) throw new Error('seeded secrets are invalid');
    seeded.push('OPENAI_API_KEY');
  }
  return seeded;
}
