/**
 * The import graph of src/ (#45 "How it is checked"), read with the TypeScript compiler's parser: every static
 * `import` and `export … from` (types too), every `import()` call and `import('…').T` type, resolved to the file it
 * names (a Vite query such as `?iife` or `?url` is dropped). Used by test/build/importGraph.test.ts and by nothing
 * that ships.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of one file: what it names, what that resolves to, and whether it brings only types. */
export interface ImportEdge {
  /** The importing file, relative to the repository (`src/tools/Tool.ts`). */
  from: string;
  /** The module specifier as written. */
  specifier: string;
  /** The file it resolves to, relative to the repository; undefined for a package or a path that is not there. */
  to: string | undefined;
  /** `import type`, `export type`, every specifier `type`, or an `import('…')` type: erased at build time. */
  typeOnly: boolean;
}

/** Every .ts/.tsx file under `dir`, relative to `root`, with forward slashes, sorted. */
export function sourceFiles(root: string, dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) return walk(p);
      return /\.tsx?$/.test(n) ? [path.relative(root, p).split(path.sep).join('/')] : [];
    });
  return walk(path.join(root, dir)).sort();
}

/** Whether an import or export declaration brings only types. */
function declarationIsTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

/** The specifiers a file's text imports: [specifier, typeOnly] pairs, in source order. */
export function importsIn(fileName: string, text: string): Array<[string, boolean]> {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found: Array<[string, boolean]> = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier))
        found.push([node.moduleSpecifier.text, declarationIsTypeOnly(node)]);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) found.push([expr.text, node.isTypeOnly]);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push([arg.text, false]);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) found.push([arg.literal.text, true]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names from `from` (both relative to `root`); undefined for a package. */
export function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const bare = specifier.replace(/\?.*$/, '');
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), bare));
  const candidates = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`];
  return candidates.find((c) => existsSync(path.join(root, c)) && statSync(path.join(root, c)).isFile()) ?? target;
}

/** Every import of every file under `dir`. */
export function importGraph(root: string, dir: string): ImportEdge[] {
  return sourceFiles(root, dir).flatMap((from) =>
    importsIn(from, readFileSync(path.join(root, from), 'utf8')).map(([specifier, typeOnly]) => ({
      from,
      specifier,
      to: resolveSpecifier(root, from, specifier),
      typeOnly,
    })),
  );
}

/**
 * The cycles of a graph: one path per strongly connected component of more than one file (or a file that imports
 * itself), each written as `a → b → … → a`, so a failure shows where the circle closes.
 */
export function cycles(edges: ReadonlyArray<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const components = stronglyConnected([...next.keys()].sort(), next);
  return components
    .filter((c) => c.length > 1 || (next.get(c[0]!) ?? []).includes(c[0]!))
    .map((c) => cycleThrough(c, next));
}

/** Tarjan's strongly connected components (iterative, so a deep import chain cannot overflow the stack). */
function stronglyConnected(nodes: string[], next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: Array<[string, number]> = [[start, 0]];
    while (work.length) {
      const frame = work[work.length - 1]!;
      const [node, i] = frame;
      if (i === 0 && !index.has(node)) {
        index.set(node, counter);
        low.set(node, counter++);
        stack.push(node);
        onStack.add(node);
      }
      const succ = next.get(node) ?? [];
      if (i < succ.length) {
        frame[1] = i + 1;
        const s = succ[i]!;
        if (!index.has(s)) work.push([s, 0]);
        else if (onStack.has(s)) low.set(node, Math.min(low.get(node)!, index.get(s)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        out.push(component.sort());
      }
    }
  }
  return out;
}

/** A shortest circle through a component's first file, found breadth-first inside the component. */
function cycleThrough(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const s of next.get(node) ?? []) {
      if (!members.has(s)) continue;
      if (s === start) {
        const trail = [node];
        while (trail[0] !== start) trail.unshift(cameFrom.get(trail[0]!)!);
        return [...trail, start];
      }
      if (!cameFrom.has(s)) {
        cameFrom.set(s, node);
        queue.push(s);
      }
    }
  }
  return [start, start];
}

/** One row of docs/architecture.md's table: a folder of src/ (or a part of one) and what it may import. */
export interface LayerRow {
  folder: string;
  values: string[];
  types: string[];
}

/** The table in docs/architecture.md, top row first (the order is the picture's: each row imports only below). */
export function layerTable(markdown: string): LayerRow[] {
  const folders = (cell = '') => [...cell.matchAll(/`([\w/]+)\/`/g)].map((m) => m[1]!);
  return [...markdown.matchAll(/^\| `([\w/]+)\/` +\|([^|]*)\|([^|]*)\|$/gm)].map((m) => ({
    folder: m[1]!,
    values: folders(m[2]),
    types: folders(m[3]),
  }));
}

/** The row a file of src/ belongs to: the longest folder of the table its path is in; undefined outside src/. */
export function rowOf(file: string, table: readonly LayerRow[]): LayerRow | undefined {
  const inside = table.filter((r) => file.startsWith(`src/${r.folder}/`));
  return inside.sort((a, b) => b.folder.length - a.folder.length)[0];
}

/** Rows that list a folder at or above their own: the table itself must point only down. */
export function tableProblems(table: readonly LayerRow[]): string[] {
  const rank = new Map(table.map((r, i) => [r.folder, i]));
  return table.flatMap((r, i) =>
    [...r.values, ...r.types]
      .filter((f) => !((rank.get(f) ?? -1) > i))
      .map((f) => `${r.folder}/ lists ${f}/, which is ${rank.has(f) ? 'not below it' : 'not a row'}`),
  );
}

/** Imports between two rows that the importing row does not allow (an upward one never is), each in words. */
export function layerProblems(edges: readonly ImportEdge[], table: readonly LayerRow[]): string[] {
  return edges.flatMap((e) => {
    if (!e.to?.startsWith('src/') || !e.from.startsWith('src/')) return [];
    const from = rowOf(e.from, table);
    const to = rowOf(e.to, table);
    if (!from || !to) return [`${e.from} → ${e.to}: a file outside every row of the table`];
    if (from === to || from.values.includes(to.folder) || (e.typeOnly && from.types.includes(to.folder))) return [];
    const what = e.typeOnly ? 'types' : 'values';
    const up = table.indexOf(to) < table.indexOf(from) ? ', a row above it' : '';
    return [`${e.from} → ${e.to}: ${from.folder}/ may not import ${what} from ${to.folder}/${up}`];
  });
}

/** Arrows the table lists that no import takes (a values arrow taken only by type imports counts as taken). */
export function unusedArrows(edges: readonly ImportEdge[], table: readonly LayerRow[]): string[] {
  const taken = new Set<string>();
  for (const e of edges) {
    const from = e.from.startsWith('src/') ? rowOf(e.from, table) : undefined;
    const to = e.to?.startsWith('src/') ? rowOf(e.to, table) : undefined;
    if (from && to && from !== to) taken.add(`${from.folder} ${to.folder}${e.typeOnly ? ' types' : ''}`);
  }
  return table.flatMap((r) => [
    ...r.values
      .filter((f) => !taken.has(`${r.folder} ${f}`) && !taken.has(`${r.folder} ${f} types`))
      .map((f) => `${r.folder}/ → ${f}/ (values)`),
    ...r.types.filter((f) => !taken.has(`${r.folder} ${f} types`)).map((f) => `${r.folder}/ → ${f}/ (types)`),
  ]);
}
