/**
 * Pure helpers for editing the config YAML in the settings UI: validate as the worker will (same parser, same
 * line:column problems), read the effective values, and apply form edits to the user's text while keeping their
 * comments and other keys. The worker validates again on `config.save`; this is for instant feedback.
 */
import { isMap, isScalar, parseDocument, stringify, type Document } from 'yaml';
import { formatProblem, parseConfigYaml, type ConfigProblem } from './parse.ts';
import { DEFAULT_CONFIG, type OttoConfig } from './schema.ts';
import { CONFIG_VERSION, migrateDocument, readVersion } from './migrations.ts';

export type { ConfigProblem };
/** `line L, column C: message`, as the worker reports it. */
export { formatProblem };

/**
 * Errors (Save is refused; none when the text validates) and warnings (keys this version does not know: ignored,
 * kept) for this text.
 */
export function checkYaml(yaml: string): { problems: ConfigProblem[]; warnings: ConfigProblem[] } {
  const out = parseConfigYaml(yaml);
  return { problems: out.ok ? [] : out.problems, warnings: out.warnings };
}

/** The last text parsed and its document: forms read several keys of the same (possibly 1 MB) text per render. */
let last: { yaml: string; doc: ReturnType<typeof parseDocument> } | undefined;
function parsedOnce(yaml: string): ReturnType<typeof parseDocument> {
  if (last?.yaml !== yaml) last = { yaml, doc: parseDocument(yaml || '') };
  return last.doc;
}

/** A key the text itself sets (not a default): forms show defaults and inherited values as placeholders. */
export function writtenValue(yaml: string, path: readonly string[]): unknown {
  const doc = parsedOnce(yaml);
  if (doc.errors.length) return undefined;
  const node = doc.getIn(path, true);
  return isScalar(node) ? node.value : node === undefined ? undefined : doc.getIn(path);
}

/** The config in force for this text (defaults when it does not validate). */
export function effectiveConfig(yaml: string): OttoConfig {
  if (lastConfig?.yaml !== yaml) {
    const out = parseConfigYaml(yaml);
    lastConfig = { yaml, config: out.ok ? out.value : DEFAULT_CONFIG };
  }
  return lastConfig.config;
}
let lastConfig: { yaml: string; config: OttoConfig } | undefined;

/** A form edit: set `value` at `path`, or remove the key when `value` is undefined (the default then applies). */
export interface YamlEdit {
  path: string[];
  value: unknown;
}

/**
 * Applies form edits to the user's text. Text saved by an older Otto is brought to the current settings version
 * first (migrations.ts: comments, order and unknown keys kept), so an edit never mixes two versions' key names.
 */
export function patchYaml(yaml: string, edits: readonly YamlEdit[]): string {
  const doc = parseDocument(yaml || '');
  if (doc.errors.length) throw new Error('The YAML has errors; fix them in the editor first.');
  if (!doc.contents) doc.contents = doc.createNode({}) as never;
  if (!isMap(doc.contents)) throw new Error(NOT_MAP_EDIT);
  const version = readVersion(doc.toJS());
  if (version.ok && version.version < CONFIG_VERSION) migrateDocument(doc, version.version);
  for (const { path, value } of edits) applyEdit(doc, path, value);
  const text = doc.toString();
  // Nothing left but the version stamp: the empty config (every default) says the same.
  const left = doc.toJS() as Record<string, unknown> | null;
  return text.trim() === '{}' || (left && Object.keys(left).every((k) => k === 'version')) ? '' : text;
}

const NOT_MAP_EDIT =
  'The settings text is not "key: value" lines, so a form cannot change it; fix it in the editor first.';

/** One form edit: set (or, with `value` undefined, remove) the key at `path`, in the words a user reads on failure. */
function applyEdit(doc: Document, path: readonly string[], value: unknown): void {
  if (value === undefined) {
    if (!doc.hasIn(path)) return;
    doc.deleteIn(path);
    // Drop maps the deletion left empty, so removing the last key leaves no `agent: {}` behind.
    for (let depth = path.length - 1; depth > 0; depth--) {
      const parent = doc.getIn(path.slice(0, depth), true);
      if (isMap(parent) && parent.items.length === 0) doc.deleteIn(path.slice(0, depth));
      else break;
    }
    return;
  }
  // A key on the way that holds a single value (`agent: 5`) cannot take `agent.model`: the reader's own words
  // ("Expected YAML collection at agent") would reach the user, so say what to fix.
  for (let depth = 1; depth < path.length; depth++) {
    const holder = doc.getIn(path.slice(0, depth), true);
    if (holder !== undefined && !isMap(holder)) {
      throw new Error(
        `${path.slice(0, depth).join('.')} holds a single value in the settings text, so ${path.join('.')} cannot be set; fix it in the editor first.`,
      );
    }
  }
  doc.setIn(path, value);
}

/** Every setting at its default, as YAML the user can start from. */
export function defaultsYaml(): string {
  return `# Otto settings: every key is optional; these are the defaults.\n${stringify({ version: CONFIG_VERSION, ...DEFAULT_CONFIG })}`;
}
