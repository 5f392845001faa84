/**
 * YAML text → validated config, with every problem located by line and column. Pure: no storage here.
 */
import { LineCounter, parseDocument, isNode } from 'yaml';
import type { z } from '../shared/zod.ts';
import { ConfigSchema, SecretsSchema, type OttoConfig, type Secrets } from './schema.ts';

export interface ConfigProblem {
  message: string;
  line: number;
  column: number;
  path: string;
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; problems: ConfigProblem[] };

function parseYamlWith<T>(text: string, schema: z.ZodType<T>): ParseOutcome<T> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      ok: false,
      problems: doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return { message: e.message.split('\n')[0] ?? e.message, line: pos.line, column: pos.col, path: '' };
      }),
    };
  }
  let data: unknown;
  try {
    // Aliases are capped: a few lines of YAML must not expand into gigabytes ("billion laughs").
    data = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    // An alias without its anchor, or too many aliases: a problem in the text like any other.
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, problems: [{ message: message.split('\n')[0] ?? message, line: 1, column: 1, path: '' }] };
  }
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => {
      // Unknown keys are reported on the object that holds them; point at the key itself when we can.
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
      const path = [...issue.path, ...keys.slice(0, 1)].map(String);
      const pos = locate(doc, path, lineCounter, keys.length > 0);
      const where = path.length ? path.join('.') : '(root)';
      return { message: `${where}: ${issue.message}`, line: pos.line, column: pos.col, path: path.join('.') };
    }),
  };
}

function locate(
  doc: ReturnType<typeof parseDocument>,
  path: string[],
  lc: LineCounter,
  isKey: boolean,
): { line: number; col: number } {
  // Walk as deep as the document goes; report the deepest node found.
  for (let depth = path.length; depth >= 0; depth--) {
    const sub = path.slice(0, depth);
    if (isKey && depth === path.length && depth > 0) {
      const parent = sub.length > 1 ? doc.getIn(sub.slice(0, -1), true) : doc.contents;
      const pair = isNode(parent) && 'items' in parent ? (parent.items as { key?: { value?: unknown; range?: number[] } }[]).find((p) => p.key?.value === sub[sub.length - 1]) : undefined;
      if (pair?.key?.range) return lc.linePos(pair.key.range[0]!);
      continue;
    }
    const node = sub.length ? doc.getIn(sub, true) : doc.contents;
    if (isNode(node) && node.range) return lc.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

export function parseConfigYaml(text: string): ParseOutcome<OttoConfig> {
  return parseYamlWith(text, ConfigSchema);
}

export function parseSecretsYaml(text: string): ParseOutcome<Secrets> {
  return parseYamlWith(text, SecretsSchema);
}

export function formatProblems(problems: ConfigProblem[]): string {
  return problems.map((p) => `line ${p.line}, column ${p.column}: ${p.message}`).join('\n');
}
