/**
 * Pure helpers for editing the config YAML in the settings UI: validate as the worker will (same parser, same
 * line:column problems), read the effective values, and apply form edits to the user's text while keeping their
 * comments and other keys. The worker validates again on `config.save`; this is for instant feedback.
 */
import { isMap, parseDocument, stringify } from 'yaml';
import { parseConfigYaml, type ConfigProblem } from '../config/parse.ts';
import { DEFAULT_CONFIG, type OttoConfig } from '../config/schema.ts';

export type { ConfigProblem };

/** `line L, column C: message`, as the worker reports it. */
export function formatProblem(p: ConfigProblem): string {
  return `line ${p.line}, column ${p.column}: ${p.message}`;
}

export function validateYaml(yaml: string): ConfigProblem[] {
  const out = parseConfigYaml(yaml);
  return out.ok ? [] : out.problems;
}

/** The config in force for this text (defaults when it does not validate). */
export function effectiveConfig(yaml: string): OttoConfig {
  const out = parseConfigYaml(yaml);
  return out.ok ? out.value : DEFAULT_CONFIG;
}

/** A form edit: set `value` at `path`, or remove the key when `value` is undefined (the default then applies). */
export interface YamlEdit {
  path: string[];
  value: unknown;
}

export function patchYaml(yaml: string, edits: readonly YamlEdit[]): string {
  const doc = parseDocument(yaml || '');
  if (doc.errors.length) throw new Error('The YAML has errors; fix them in the editor first.');
  if (!doc.contents) doc.contents = doc.createNode({}) as never;
  for (const { path, value } of edits) {
    if (value === undefined) {
      if (!doc.hasIn(path)) continue;
      doc.deleteIn(path);
      // Drop maps the deletion left empty, so removing the last key leaves no `agent: {}` behind.
      for (let depth = path.length - 1; depth > 0; depth--) {
        const parent = doc.getIn(path.slice(0, depth), true);
        if (isMap(parent) && parent.items.length === 0) doc.deleteIn(path.slice(0, depth));
        else break;
      }
    } else doc.setIn(path, value);
  }
  const text = doc.toString();
  return text.trim() === '{}' ? '' : text;
}

/** Every setting at its default, as YAML the user can start from. */
export function defaultsYaml(): string {
  return `# Otto settings: every key is optional; these are the defaults.\n${stringify(DEFAULT_CONFIG)}`;
}
