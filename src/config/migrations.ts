/**
 * The settings format is versioned: the config carries `version: N` at the top, and loading brings older text up to
 * `CONFIG_VERSION` one step at a time. Each step is a small function on the YAML document (not on plain data), so a
 * step that renames or moves a key keeps the user's comments, order and every key it does not touch — including
 * keys from another version, which are never dropped. Steps run in memory on every load; the stored text is only
 * rewritten when the user saves through a settings form (`config/edit.ts` `patchYaml`).
 *
 * Adding a version: bump CONFIG_VERSION, append a step `{ from: N, to: N + 1, ... }`, add a fixture
 * `test/config/fixtures/vN.yaml` saved in the old format, and extend the test table (docs/config-versions.md).
 */
import { isMap, isScalar, type Document } from 'yaml';

/** The settings format this build writes and reads natively. */
export const CONFIG_VERSION = 2;

export interface Migration {
  from: number;
  to: number;
  /** One line for docs and logs: what the step changes. */
  what: string;
  /** Edits the document in place. Must leave keys it does not know alone. */
  up(doc: Document): void;
}

/** Sets the top-level `version`, keeping it the first key (where a reader looks for it). */
export function stampVersion(doc: Document, version: number): void {
  // Empty text becomes a map; text that is not a map at all is left for validation to report.
  if (doc.contents === null || doc.contents === undefined) doc.contents = doc.createNode({}) as never;
  const map = doc.contents;
  if (!isMap(map)) return;
  const at = map.items.findIndex((p) => isScalar(p.key) && p.key.value === 'version');
  if (at >= 0) {
    map.items[at]!.value = doc.createNode(version);
    return;
  }
  const pair = doc.createPair('version', version) as (typeof map.items)[number];
  // A comment above the first key is usually the file's header: it stays on top, above the version.
  const first = map.items[0]?.key;
  if (first && typeof first === 'object' && 'commentBefore' in first && first.commentBefore) {
    (pair.key as { commentBefore?: string }).commentBefore = first.commentBefore as string;
    first.commentBefore = undefined;
  }
  map.items.unshift(pair);
}

export const MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    to: 2,
    // Version 1 (Otto 0.1) had no `version` key; its keys are exactly version 2's. What changed with version 2 is
    // a meaning, not a shape: an unset transform.base_url / transform.model now follow agent.* (docs/decisions.md #30).
    what: 'adds `version: 2`; every other key is kept as it is',
    up: (doc) => stampVersion(doc, 2),
  },
];

export type VersionRead = { ok: true; version: number; newer: boolean } | { ok: false; message: string };

/** The version the text says it was saved in: no `version` key means version 1 (before versioning existed). */
export function readVersion(data: unknown): VersionRead {
  const raw =
    data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).version : undefined;
  if (raw === undefined || raw === null) return { ok: true, version: 1, newer: false };
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1) {
    return {
      ok: false,
      message: `version: the settings format version is a whole number (this Otto writes ${CONFIG_VERSION})`,
    };
  }
  return { ok: true, version: raw, newer: raw > CONFIG_VERSION };
}

/**
 * Runs every step from `from` up to CONFIG_VERSION on the document, in order. Returns the steps applied. A version
 * newer than this build's is left alone (a downgrade): its keys this build knows are used, the others ignored.
 */
export function migrateDocument(
  doc: Document,
  from: number,
  { steps = MIGRATIONS, to = CONFIG_VERSION }: { steps?: readonly Migration[]; to?: number } = {},
): Migration[] {
  const applied: Migration[] = [];
  let at = from;
  while (at < to) {
    const step = steps.find((s) => s.from === at);
    if (!step) throw new Error(`no settings migration from version ${at}`);
    step.up(doc);
    applied.push(step);
    at = step.to;
  }
  return applied;
}
