/**
 * References inside the repository resolve (#15 step 8): every `docs/...` path a source file or README cites exists,
 * a section it names in quotes is in that document, no comment cites the design or the specs by their old outside
 * names, and every file path a README puts in backticks exists.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p, keep) : keep(n) ? [p] : [];
  });
}

const sources = walk(path.join(ROOT, 'src'), (n) => /\.(tsx?|md|html|css)$/.test(n));
const readmes = [path.join(ROOT, 'README.md'), ...sources.filter((p) => path.basename(p) === 'README.md')];
const rel = (p: string) => path.relative(ROOT, p);
const text = new Map(sources.map((p) => [p, readFileSync(p, 'utf8')]));
text.set(path.join(ROOT, 'README.md'), readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

/**
 * `docs/x.md` as a citation: not the tail of a longer path (`src/docs/index.html`, `public/docs/...`). Paths of the
 * extension's own pages (`docs/tools/tabs.html`, served from `public/`) resolve there.
 */
const CITED = /(?<![\w./-])docs\/[\w./-]*[\w/]/g;

function citedPaths(): { file: string; cited: string }[] {
  return [...text].flatMap(([file, t]) => [...t.matchAll(CITED)].map((m) => ({ file: rel(file), cited: m[0] })));
}

const exists = (p: string) => existsSync(path.join(ROOT, p)) || existsSync(path.join(ROOT, 'public', p));

describe('citations in src/', () => {
  it('finds the citations it checks (the scan is not empty)', () => {
    const cited = citedPaths().map((c) => c.cited);
    expect(cited).toContain('docs/specs/002-ot-tools.md');
    expect(cited).toContain('docs/specs/003-tool-interceptor.md');
    expect(cited).toContain('docs/design.md');
  });

  it('every docs/ path cited in src/ exists in the repository', () => {
    const missing = citedPaths().filter((c) => !exists(c.cited));
    expect(missing).toEqual([]);
  });

  it('a section cited by name ("docs/x.md, "Name"") is in that document', () => {
    const quoted = /(?<![\w./-])(docs\/[\w./-]+\.md)[,:]?\s+(?:\*\s+)?"([^"]+)"(?:\s+and\s+"([^"]+)")?/g;
    const missing: string[] = [];
    let seen = 0;
    for (const [file, t] of text) {
      for (const m of t.matchAll(quoted)) {
        const doc = path.join(ROOT, m[1] ?? '');
        if (!existsSync(doc)) continue; // reported by the test above
        const body = readFileSync(doc, 'utf8').toLowerCase();
        for (const quotedName of [m[2], m[3]].filter((n): n is string => n !== undefined)) {
          const name = quotedName.replace(/\s*\n\s*(\*\s*)?/g, ' '); // a name broken over two comment lines
          seen++;
          if (!body.includes(name.toLowerCase())) missing.push(`${rel(file)}: ${m[1]} "${name}"`);
        }
      }
    }
    expect(seen).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('no comment cites the design or a spec by a name that does not resolve inside the repository', () => {
    const outside = /\b[Ss]eeds? 0{0,2}\d\b|seeds README|DESIGN\.md|DESIGN "|DESIGN fact|DESIGN contract|shared\/seeds/;
    const found = [...text].flatMap(([file, t]) =>
      t
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => outside.test(line))
        .map(({ line, i }) => `${rel(file)}:${i + 1}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});

/** Build output and the start script's profile: named by the README, absent from a fresh clone. */
const NOT_IN_GIT = new Set(['dist/', '.otto-profile/']);

/**
 * A backticked token that is a file path: only path characters, ending in a file extension or `/`. A bare file name
 * (`snapshot.ts`) must exist somewhere under the README's folder; a path with a slash relative to the README, the
 * repository root, `src/` or `public/`.
 */
function pathsIn(readme: string): string[] {
  const t = text.get(readme) ?? '';
  return [...t.matchAll(/`([\w./-]+)`/g)]
    .map((m) => m[1] ?? '')
    .filter((p) => /[\w-]\.(tsx?|md|json|mjs|js|html|css)$/.test(p) || p.endsWith('/'))
    .filter((p) => !NOT_IN_GIT.has(p));
}

function resolves(readme: string, p: string): boolean {
  const dir = path.dirname(readme);
  if (p.includes('/')) {
    return [path.join(dir, p), path.join(ROOT, p), path.join(ROOT, 'src', p), path.join(ROOT, 'public', p)].some((c) =>
      existsSync(c),
    );
  }
  return walk(dir, (n) => n === p).length > 0 || existsSync(path.join(ROOT, p));
}

/** The repository's documents: the root ones, docs/ and every README in src/. */
const documents = [
  ...['README.md', 'BENCHMARKS.md'].map((n) => path.join(ROOT, n)),
  ...walk(path.join(ROOT, 'docs'), (n) => n.endsWith('.md')),
  ...readmes.filter((p) => p !== path.join(ROOT, 'README.md')),
];

describe('documents stand alone (#45: a bare clone passes)', () => {
  it('no document cites a folder outside the repository (../shared, the seeds, DESIGN.md)', () => {
    const outside = /(?<![./])\.\.\/shared\/|shared\/(corpora|seeds|reference)|DESIGN\.md/; // `../../shared/x.ts` is in src/
    const found = documents.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => outside.test(line))
        .map(({ i }) => `${rel(file)}:${i + 1}`),
    );
    expect(documents.length).toBeGreaterThan(25);
    expect(found).toEqual([]);
  });
});

describe('READMEs', () => {
  it('checks every README in src/ and the root one', () => {
    expect(readmes.length).toBeGreaterThan(20);
    expect(pathsIn(path.join(ROOT, 'src/tools/README.md'))).toContain('interceptor.ts');
  });

  it('every file path a README puts in backticks exists', () => {
    const missing = readmes.flatMap((r) =>
      pathsIn(r)
        .filter((p) => !resolves(r, p))
        .map((p) => `${rel(r)}: ${p}`),
    );
    expect(missing).toEqual([]);
  });

  it("docs/development.md's layout names every folder of src/, and only those", () => {
    const readme = readFileSync(path.join(ROOT, 'docs/development.md'), 'utf8');
    const layout = readme.slice(readme.indexOf('## Layout of `src/`'));
    const block = layout.slice(layout.indexOf('```') + 3, layout.indexOf('```', layout.indexOf('```') + 3));
    const listed = [...block.matchAll(/^([a-z]+)\/ /gm)].map((m) => m[1]).sort();
    const folders = readdirSync(path.join(ROOT, 'src'))
      .filter((n) => statSync(path.join(ROOT, 'src', n)).isDirectory())
      .sort();
    expect(listed).toEqual(folders);
  });

  it('the check fails on a path that does not exist', () => {
    expect(resolves(path.join(ROOT, 'src/tools/README.md'), 'background/pageSnapshot.ts')).toBe(false);
    expect(resolves(path.join(ROOT, 'src/tools/README.md'), 'nothingHere.ts')).toBe(false);
  });
});
