/**
 * The import graph of src/ (#45 "How it is checked"): every import, types included, runs down the rows of
 * docs/architecture.md's table and no two files import each other through any path. eslint (`layers` in
 * eslint.config.js) reports a wrong import as it is written; this test reads the whole graph as files, so it also
 * sees `import()`, `import('…').T` types, Vite's `?iife`/`?url` imports and circles inside one folder. A repeated file
 * name is test/build/fileNames.test.ts's check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cycles,
  importGraph,
  importsIn,
  layerProblems,
  layerTable,
  tableProblems,
  unusedArrows,
  type ImportEdge,
} from '../support/importGraph.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const table = layerTable(readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'));
const edges = importGraph(ROOT, 'src');
const local = edges.filter((e): e is ImportEdge & { to: string } => e.to !== undefined);

/** Imports that leave src/, and why each may. */
const OUTSIDE_SRC: Record<string, string> = {
  'src/cli/run/index.ts → scripts/lib/find-browser.mjs':
    'the command line runs in Node from the repository and finds the browser as `npm start` does',
};

const edge = (from: string, to: string, typeOnly = false): ImportEdge & { to: string } => ({
  from,
  to,
  specifier: to,
  typeOnly,
});

describe('the import-graph checks bite', () => {
  it('reads every kind of import with the compiler’s parser, types marked', () => {
    const code = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, type D } from './c.ts';",
      "import { type E, f } from './e.ts';",
      "export * from './g.ts';",
      "export type { H } from './h.ts';",
      "import script from '../content/index.iife.ts?iife';",
      "const lazy = () => import('./lazy.ts');",
      "let t: import('./typed.ts').T;",
      "import 'side-effect';",
      '// import { no } from "./comment.ts";',
      'const s = "import { no } from \'./string.ts\'";',
    ].join('\n');
    expect(importsIn('x.ts', code)).toEqual([
      ['./a.ts', false],
      ['./b.ts', true],
      ['./c.ts', true],
      ['./e.ts', false],
      ['./g.ts', false],
      ['./h.ts', true],
      ['../content/index.iife.ts?iife', false],
      ['./lazy.ts', false],
      ['./typed.ts', true],
      ['side-effect', false],
    ]);
  });

  it('finds a circle, type imports included, and prints its path', () => {
    const graph = [
      edge('src/a.ts', 'src/b.ts'),
      edge('src/b.ts', 'src/c.ts', true),
      edge('src/c.ts', 'src/a.ts'),
      edge('src/c.ts', 'src/d.ts'),
      edge('src/e.ts', 'src/e.ts'),
    ];
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([
      'src/a.ts → src/b.ts → src/c.ts → src/a.ts',
      'src/e.ts → src/e.ts',
    ]);
    expect(cycles(graph.slice(0, 2))).toEqual([]);
  });

  it('refuses an import from a row above, values or types, and one the row does not list', () => {
    const rows = layerTable(
      [
        '| `tools/packs/` | `tools/`, `shared/` | `page/` |',
        '| `tools/`       | `shared/`           | —        |',
        '| `page/`        | `shared/`           | —        |',
        '| `shared/`      | —                   | —        |',
      ].join('\n'),
    );
    expect(
      layerProblems(
        [
          edge('src/tools/packs/dom/x.ts', 'src/tools/Tool.ts'),
          edge('src/tools/packs/dom/x.ts', 'src/page/api.ts', true),
          edge('src/tools/packs/dom/x.ts', 'src/page/index.ts'),
          edge('src/tools/registry.ts', 'src/tools/packs/dom/x.ts', true),
          edge('src/shared/replies.ts', 'src/tools/Tool.ts', true),
          edge('src/tools/guard/guard.ts', 'src/tools/Tool.ts'),
        ],
        rows,
      ),
    ).toEqual([
      'src/tools/packs/dom/x.ts → src/page/index.ts: tools/packs/ may not import values from page/',
      'src/tools/registry.ts → src/tools/packs/dom/x.ts: tools/ may not import types from tools/packs/, a row above it',
      'src/shared/replies.ts → src/tools/Tool.ts: shared/ may not import types from tools/, a row above it',
    ]);
    expect(tableProblems(rows)).toEqual([]);
    expect(unusedArrows([edge('src/tools/packs/dom/x.ts', 'src/page/api.ts', true)], rows)).toEqual([
      'tools/packs/ → tools/ (values)',
      'tools/packs/ → shared/ (values)',
      'tools/ → shared/ (values)',
      'page/ → shared/ (values)',
    ]);
    expect(tableProblems([...rows].reverse())).toContain('page/ lists shared/, which is not below it');
  });
});

describe('src/', () => {
  it('is read whole: every relative import resolves to a file', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(table.map((r) => r.folder)).toContain('shared');
    const missing = local.filter((e) => {
      try {
        readFileSync(path.join(ROOT, e.to));
        return false;
      } catch {
        return true;
      }
    });
    expect(missing.map((e) => `${e.from}: ${e.specifier}`)).toEqual([]);
  });

  it('the table in docs/architecture.md points only down', () => {
    expect(tableProblems(table)).toEqual([]);
  });

  it('no import runs up the layers or across to a row not listed, values or types', () => {
    expect(layerProblems(local, table)).toEqual([]);
  });

  it('the table lists only arrows that some import takes (it describes the code, not a wish)', () => {
    expect(unusedArrows(local, table)).toEqual([]);
  });

  it('imports leave src/ only where listed', () => {
    const leaving = local.filter((e) => !e.to.startsWith('src/')).map((e) => `${e.from} → ${e.to}`);
    expect(leaving.sort()).toEqual(Object.keys(OUTSIDE_SRC).sort());
  });

  it('no circle between files, type imports included', () => {
    const within = local.filter((e) => e.to.startsWith('src/'));
    expect(cycles(within).map((c) => c.join(' → '))).toEqual([]);
  });
});
