/**
 * One name per concept (#45 part 1, "How it is checked"): a file name in src/ is not repeated in another folder, so
 * a file's name says its layer's part (`pageSnapshot.ts`, `contentSnapshot.ts`) and a cited name means one file. The
 * few names that may repeat are listed below, each with its reason (docs/decisions/names.md).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Names that may repeat, and why. A rename takes its name off this list (the last test checks it). */
const ALLOWED: Record<string, string> = {
  'index.ts': "a folder's entry (its barrel): the folder's name says what it is",
  'README.md': "a folder's own documentation",
  'index.html': "an extension page's document: Vite's and the manifest's entries name the page by its folder",
  'main.ts': "an extension page's entry script, beside its index.html",
  'main.tsx': "an extension page's entry script, beside its index.html",
};

/** Every file under `dir`, as paths relative to the repository. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [path.relative(ROOT, p).split(path.sep).join('/')];
  });
}

/** The names that occur more than once, each with its files, `allowed` names left out. */
export function repeatedNames(files: string[], allowed: Record<string, string>): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const f of files) {
    const name = path.posix.basename(f);
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  return Object.fromEntries([...byName].filter(([name, fs]) => fs.length > 1 && !(name in allowed)));
}

const files = walk(path.join(ROOT, 'src'));

describe('file names in src/', () => {
  it('the check finds a repeated name (it can fail)', () => {
    expect(
      repeatedNames(['src/page/snapshot.ts', 'src/content/snapshot.ts', 'src/page/index.ts', 'src/sdk/index.ts'], {
        'index.ts': 'entry',
      }),
    ).toEqual({ 'snapshot.ts': ['src/page/snapshot.ts', 'src/content/snapshot.ts'] });
  });

  it('scans the whole tree', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('src/page/pageSnapshot.ts');
    expect(files).toContain('src/content/contentSnapshot.ts');
  });

  it('no file name repeats outside the allow-list', () => {
    expect(repeatedNames(files, ALLOWED)).toEqual({});
  });

  it('every name on the allow-list still repeats, with a reason (the list only shrinks)', () => {
    const counts = new Map<string, number>();
    for (const f of files) counts.set(path.posix.basename(f), (counts.get(path.posix.basename(f)) ?? 0) + 1);
    const stale = Object.keys(ALLOWED).filter((name) => (counts.get(name) ?? 0) < 2);
    expect(stale).toEqual([]);
    expect(Object.values(ALLOWED).every((reason) => reason.length > 10)).toBe(true);
    expect(Object.keys(ALLOWED).length).toBeLessThanOrEqual(8);
  });
});
