/**
 * YAML text → validated config, with every problem located by line and column. Pure: no storage here.
 *
 * The config pipeline: parse the YAML → read `version` → migrate older versions step by step (migrations.ts) →
 * validate. Keys this version does not know (a newer or older Otto wrote them, or a typo) are *warnings*: reported
 * with their line, left out of the config in force, and never removed from the text. Wrong values are *errors*: the
 * config does not load at all, and nothing is sent anywhere until it is fixed.
 */
import { LineCounter, parseDocument, isAlias, isMap, isNode, isPair, isSeq, type Document } from 'yaml';
import type { z } from '../shared/zod.ts';
import { ConfigSchema, SecretsSchema, type OttoConfig, type Secrets } from './schema.ts';
import { CONFIG_VERSION, migrateDocument, readVersion } from './migrations.ts';
import { inheritTransform, writtenAgentKeys } from './inherit.ts';
import { plainIssue } from './words.ts';
import { errorMessage } from '../shared/errorMessage.ts';

/**
 * How deeply values may nest ([ and { inside each other, or indented maps and lists). Otto's settings are a few
 * levels deep; a snippet default may hold some structure. Deeper text is refused by name, before the YAML reader or
 * the validator could run out of stack ("Maximum call stack size exceeded").
 */
export const MAX_NESTING = 64;
const NESTING_MESSAGE = `nested more than ${MAX_NESTING} levels deep ([ or { inside each other): settings never need that many; remove the extra brackets or indentation`;

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

/** The offset where flow brackets first nest deeper than MAX_NESTING (quotes and comments skipped), or -1. */
function deepBracketAt(text: string): number {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_NESTING) return i;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === '\n' && depth === 0) quote = '';
  }
  return -1;
}

/** The first node nested deeper than MAX_NESTING (walked without recursion), or undefined. */
function tooDeepNode(doc: Document): { range?: [number, number, number] | null } | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (isMap(node) || isSeq(node)) {
      if (depth >= MAX_NESTING) return node;
      for (const item of [...node.items].reverse()) {
        if (isPair(item)) {
          stack.push({ node: item.value, depth: depth + 1 });
          stack.push({ node: item.key, depth: depth + 1 });
        } else stack.push({ node: item, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** The first key that repeats within its map (one pass, a Set per map), with the offset of the repeat. */
function duplicateKey(doc: Document): { key: string; at: number } | undefined {
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key as { value?: unknown; range?: number[] | null; source?: string } | null;
        // Scalar keys compare by value (as YAML does: `1` and `"1"` differ); other keys by their source text.
        const id = isNode(key) && 'value' in key ? `${typeof key.value}:${String(key.value)}` : `node:${String(key)}`;
        if (seen.has(id))
          return { key: String(isNode(key) && 'value' in key ? key.value : key), at: key?.range?.[0] ?? 0 };
        seen.add(id);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) stack.push(...node.items);
  }
  return undefined;
}

function isStackOverflow(message: string): boolean {
  return /call stack|too much recursion|stack overflow/i.test(message);
}

function parseText(text: string): { ok: true; at: Located } | { ok: false; problems: ConfigProblem[] } {
  const lc = new LineCounter();
  let doc: Document;
  try {
    // Duplicate keys are checked below in one pass: the reader's own check compares every key with every other,
    // which took 4 s for 10,000 snippets.
    doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false });
  } catch (error) {
    // The YAML reader itself ran out of stack: only nesting does that.
    if (error instanceof RangeError || isStackOverflow(String(error)))
      return { ok: false, problems: [nestingProblem(text, lc, 0)] };
    throw error;
  }
  // Too deep: one problem, where the nesting passes the limit — not one per level the reader gave up on.
  if (doc.errors.some((e) => isStackOverflow(e.message))) {
    return { ok: false, problems: [nestingProblem(text, lc, doc.errors[0]?.pos[0] ?? 0)] };
  }
  if (!doc.errors.length) {
    const deep = tooDeepNode(doc);
    if (deep) {
      const pos = lc.linePos(deep.range?.[0] ?? 0);
      return { ok: false, problems: [{ message: NESTING_MESSAGE, line: pos.line, column: pos.col, path: '' }] };
    }
    const twice = duplicateKey(doc);
    if (twice) {
      const pos = lc.linePos(twice.at);
      const message = `the key ${JSON.stringify(twice.key)} appears twice in this map: keep one`;
      return { ok: false, problems: [{ message, line: pos.line, column: pos.col, path: '' }] };
    }
  }
  if (doc.errors.length) {
    return {
      ok: false,
      // The reader can report one mistake once per level or column it tried; each message is shown once.
      problems: doc.errors
        .filter((e, i, all) => all.findIndex((x) => x.message === e.message) === i)
        .map((e) => {
          const pos = lc.linePos(e.pos[0]);
          return { message: e.message.split('\n')[0] ?? e.message, line: pos.line, column: pos.col, path: '' };
        }),
    };
  }
  return { ok: true, at: { doc, lc } };
}

function nestingProblem(text: string, lc: LineCounter, fallback: number): ConfigProblem {
  const at = deepBracketAt(text);
  const pos = lc.linePos(at >= 0 ? at : fallback);
  return { message: NESTING_MESSAGE, line: pos.line, column: pos.col, path: '' };
}

/** The first alias (`*name`) whose anchor (`&name`) is not set above it, in document order; or undefined. */
function unresolvedAlias(doc: Document): { source: string; range?: [number, number, number] | null } | undefined {
  const anchors = new Set<string>();
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (isAlias(node)) {
      if (!anchors.has(node.source)) return node;
      continue;
    }
    if (isNode(node) && node.anchor) anchors.add(node.anchor);
    if (isMap(node) || isSeq(node)) {
      for (const item of [...node.items].reverse()) {
        if (isPair(item)) stack.push(item.value, item.key);
        else stack.push(item);
      }
    }
  }
  return undefined;
}

/** The first alias in the document (where "too many aliases" is reported). */
function firstAlias(doc: Document): { range?: [number, number, number] | null } | undefined {
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (isAlias(node)) return node;
    if (isMap(node) || isSeq(node))
      for (const item of [...node.items].reverse()) {
        if (isPair(item)) stack.push(item.value, item.key);
        else stack.push(item);
      }
  }
  return undefined;
}

function toData(at: Located): { ok: true; data: unknown } | { ok: false; problems: ConfigProblem[] } {
  const { doc, lc } = at;
  const missing = unresolvedAlias(doc);
  if (missing) {
    const pos = lc.linePos(missing.range?.[0] ?? 0);
    const name = missing.source;
    return {
      ok: false,
      problems: [
        {
          message: `alias *${name} is used before its anchor &${name} is set: put &${name} on a value above this line, or write the value here`,
          line: pos.line,
          column: pos.col,
          path: '',
        },
      ],
    };
  }
  try {
    // Aliases are capped: a few lines of YAML must not expand into gigabytes ("billion laughs").
    // Only text with no contents (empty, or comments only) is the empty config. Contents that read as nothing — `&&`
    // (an anchor on nothing), `~`, `null` — go to validation as they are and are refused there as "not a map":
    // taken as "no settings" they passed, and the next form edit failed in the YAML reader's words (#45).
    return { ok: true, data: doc.contents === null ? {} : doc.toJS({ maxAliasCount: 100 }) };
  } catch (err) {
    const message = errorMessage(err);
    const first = firstAlias(doc);
    const pos = lc.linePos(first?.range?.[0] ?? 0);
    const words = /alias/i.test(message)
      ? 'the aliases (*name) here expand into too much text: write the values out instead'
      : isStackOverflow(message)
        ? NESTING_MESSAGE
        : 'this text cannot be read as settings';
    return { ok: false, problems: [{ message: words, line: pos.line, column: pos.col, path: '' }] };
  }
}

function problemAt(at: Located, path: string[], message: string, isKey: boolean): ConfigProblem {
  const pos = locate(at.doc, path, at.lc, isKey);
  const where = path.length ? path.join('.') : 'the whole file';
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
      const problems = errors.map((i) =>
        problemAt(at, i.path.map(String), plainIssue(i, childOf(data, i.path)), false),
      );
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
      const message = errorMessage(err);
      return { ok: false, problems: [problemAt(at, ['version'], message, false)], warnings, version: version.version };
    }
  }
  const got = toData(at);
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
  const got = toData(parsed.at);
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
