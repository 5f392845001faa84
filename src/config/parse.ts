/**
 * YAML text → validated config, with every problem located by line and column. Pure: no storage here.
 *
 * The config pipeline: parse the YAML → read `version` → migrate older versions step by step (migrations.ts) →
 * validate. Keys this version does not know (a newer or older Otto wrote them, or a typo) are *warnings*: reported
 * with their line, left out of the config in force, and never removed from the text. Wrong values are *errors*: the
 * config does not load at all, and nothing is sent anywhere until it is fixed.
 */
import { LineCounter, parseDocument, isMap, isNode, type Document } from 'yaml';
import type { z } from '../shared/zod.ts';
import { ConfigSchema, SecretsSchema, type OttoConfig, type Secrets } from './schema.ts';
import { CONFIG_VERSION, migrateDocument, readVersion } from './migrations.ts';
import { inheritTransform, writtenAgentKeys } from './inherit.ts';

export interface ConfigProblem {
  message: string;
  line: number;
  column: number;
  path: string;
}

export type ParseOutcome<T> =
  | { ok: true; value: T; warnings: ConfigProblem[] }
  | { ok: false; problems: ConfigProblem[]; warnings: ConfigProblem[] };

/** A config parse also says which settings version the text was written in (1 = before versioning). */
export type ConfigOutcome = ParseOutcome<OttoConfig> & { version: number };

type Located = { doc: Document; lc: LineCounter };

function parseText(text: string): { ok: true; at: Located } | { ok: false; problems: ConfigProblem[] } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      ok: false,
      problems: doc.errors.map((e) => {
        const pos = lc.linePos(e.pos[0]);
        return { message: e.message.split('\n')[0] ?? e.message, line: pos.line, column: pos.col, path: '' };
      }),
    };
  }
  return { ok: true, at: { doc, lc } };
}

function toData(doc: Document): { ok: true; data: unknown } | { ok: false; problems: ConfigProblem[] } {
  try {
    // Aliases are capped: a few lines of YAML must not expand into gigabytes ("billion laughs").
    return { ok: true, data: doc.toJS({ maxAliasCount: 100 }) ?? {} };
  } catch (err) {
    // An alias without its anchor, or too many aliases: a problem in the text like any other.
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, problems: [{ message: message.split('\n')[0] ?? message, line: 1, column: 1, path: '' }] };
  }
}

function problemAt(at: Located, path: string[], message: string, isKey: boolean): ConfigProblem {
  const pos = locate(at.doc, path, at.lc, isKey);
  const where = path.length ? path.join('.') : '(root)';
  return { message: `${where}: ${message}`, line: pos.line, column: pos.col, path: path.join('.') };
}

function childOf(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur = data;
  for (const k of path) cur = cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[k] : undefined;
  return cur;
}

export const UNKNOWN_KEY = 'not a setting this version of Otto knows; ignored';

/**
 * Validates, turning unknown keys into warnings: each is reported, removed from the data (never from the text) and
 * the rest validated again. Everything else the schema rejects is an error.
 */
function validate<T>(data: unknown, schema: z.ZodType<T>, at: Located): ParseOutcome<T> {
  const warnings: ConfigProblem[] = [];
  // Each round removes the unknown keys zod reported; nested unknowns inside a removed key go with it.
  for (let round = 0; round < 20; round++) {
    const result = schema.safeParse(data);
    if (result.success) return { ok: true, value: result.data, warnings: byPosition(warnings) };
    const unknown = result.error.issues.filter((i) => i.code === 'unrecognized_keys');
    const errors = result.error.issues.filter((i) => i.code !== 'unrecognized_keys');
    for (const issue of unknown) {
      const holder = childOf(data, issue.path);
      for (const key of issue.keys) {
        warnings.push(problemAt(at, [...issue.path.map(String), key], UNKNOWN_KEY, true));
        if (holder && typeof holder === 'object') delete (holder as Record<string, unknown>)[key];
      }
    }
    if (errors.length) {
      const problems = errors.map((i) => problemAt(at, i.path.map(String), i.message, false));
      return { ok: false, warnings: byPosition(warnings), problems: byPosition(problems) };
    }
  }
  return {
    ok: false,
    warnings,
    problems: [{ message: 'the config is too deeply nested', line: 1, column: 1, path: '' }],
  };
}

/** In the order a reader meets them in the text. */
function byPosition(list: ConfigProblem[]): ConfigProblem[] {
  return [...list].sort((a, b) => a.line - b.line || a.column - b.column);
}

function locate(doc: Document, path: string[], lc: LineCounter, isKey: boolean): { line: number; col: number } {
  // Walk as deep as the document goes; report the deepest node found.
  for (let depth = path.length; depth >= 0; depth--) {
    const sub = path.slice(0, depth);
    if (isKey && depth === path.length && depth > 0) {
      const parent = sub.length > 1 ? doc.getIn(sub.slice(0, -1), true) : doc.contents;
      const pair =
        isNode(parent) && 'items' in parent
          ? (parent.items as { key?: { value?: unknown; range?: number[] } }[]).find(
              (p) => String(p.key?.value) === sub[sub.length - 1],
            )
          : undefined;
      if (pair?.key?.range) return lc.linePos(pair.key.range[0]!);
      continue;
    }
    const node = sub.length ? doc.getIn(sub, true) : doc.contents;
    if (isNode(node) && node.range) return lc.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

export function parseConfigYaml(text: string): ConfigOutcome {
  const parsed = parseText(text);
  if (!parsed.ok) return { ok: false, problems: parsed.problems, warnings: [], version: CONFIG_VERSION };
  const { at } = parsed;
  // The version is read from the document itself, so the text is turned into data once, after migrating.
  const version = readVersion(isMap(at.doc.contents) ? { version: at.doc.get('version') } : {});
  if (!version.ok) {
    return {
      ok: false,
      problems: [problemAt(at, ['version'], version.message.replace(/^version: /, ''), false)],
      warnings: [],
      version: 1,
    };
  }
  const warnings: ConfigProblem[] = [];
  if (version.newer) {
    warnings.push(
      problemAt(
        at,
        ['version'],
        `saved by a newer Otto (settings version ${version.version}; this one reads up to ${CONFIG_VERSION}): settings it does not know are ignored`,
        false,
      ),
    );
  }
  // Migrations edit the document in memory (nodes keep their positions, so problems still point into the text).
  if (version.version < CONFIG_VERSION) {
    try {
      migrateDocument(at.doc, version.version);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, problems: [problemAt(at, ['version'], message, false)], warnings, version: version.version };
    }
  }
  const got = toData(at.doc);
  if (!got.ok) return { ok: false, problems: got.problems, warnings, version: version.version };
  const data = got.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) delete (data as Record<string, unknown>).version;
  const written = writtenAgentKeys(data);
  const out = validate(data, ConfigSchema, at);
  const all = [...warnings, ...out.warnings];
  if (!out.ok) return { ok: false, problems: out.problems, warnings: all, version: version.version };
  return { ok: true, value: inheritTransform(out.value, written), warnings: all, version: version.version };
}

export function parseSecretsYaml(text: string): ParseOutcome<Secrets> {
  const parsed = parseText(text);
  if (!parsed.ok) return { ok: false, problems: parsed.problems, warnings: [] };
  const got = toData(parsed.at.doc);
  if (!got.ok) return { ok: false, problems: got.problems, warnings: [] };
  return validate(got.data, SecretsSchema, parsed.at);
}

/** `line L, column C: message`, one per line — as the settings editor shows them. */
export function formatProblem(p: ConfigProblem): string {
  return `line ${p.line}, column ${p.column}: ${p.message}`;
}

export function formatProblems(problems: readonly ConfigProblem[]): string {
  return problems.map(formatProblem).join('\n');
}
