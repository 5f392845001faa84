/**
 * Functions you can hold in your head (#45 part 1): no function, method or arrow function in src/ runs over
 * MAX_LINES lines (from its first token to its closing brace). The few that may are listed below, each with its
 * reason; a split takes its entry off the list (the last test checks it). docs/decisions/house.md says why 150.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 150;

/** `file name` → why it may run long. */
const ALLOWED: Record<string, string> = {
  'src/content/contentDevCapture.ts devCapture':
    "injected as one function (chrome.scripting.executeScript's `func`): it may close over nothing outside itself, so its parts cannot be functions of their own",
};

export interface LongFunction {
  where: string;
  lines: number;
}

function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText(sf);
  return `(anonymous at line ${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1})`;
}

/** The functions of one source text longer than `max` lines, as `file name` with their length. */
export function longFunctions(file: string, text: string, max: number): LongFunction[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(fn.getEnd()).line;
      if (last - first + 1 > max) out.push({ where: `${file} ${nameOf(fn, sf)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(n) && !n.endsWith('.d.ts') ? [path.relative(ROOT, p).split(path.sep).join('/')] : [];
  });
}

const found = sources(path.join(ROOT, 'src')).flatMap((f) =>
  longFunctions(f, readFileSync(path.join(ROOT, f), 'utf8'), MAX_LINES),
);

describe('function length in src/', () => {
  it('the check finds a long function, arrow or method, by name (it can fail)', () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const text = `export function big() {\n${body}\n}\nconst arrow = () => {\n${body}\n};\nclass K {\n  m() {\n${body}\n  }\n}\nfunction small() {}\n`;
    expect(longFunctions('src/x.ts', text, 5)).toEqual([
      { where: 'src/x.ts big', lines: 7 },
      { where: 'src/x.ts arrow', lines: 7 },
      { where: 'src/x.ts m', lines: 7 },
    ]);
  });

  it(`no function runs over ${MAX_LINES} lines outside the allow-list`, () => {
    expect(found.filter((f) => !(f.where in ALLOWED))).toEqual([]);
  });

  it('every entry of the allow-list is still over the limit, with a reason (the list only shrinks)', () => {
    const long = new Set(found.map((f) => f.where));
    for (const [where, why] of Object.entries(ALLOWED)) {
      expect(long.has(where), `${where} is no longer over ${MAX_LINES} lines: take it off the list`).toBe(true);
      expect(why.length).toBeGreaterThan(10);
    }
  });
});
