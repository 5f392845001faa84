// A regex search over whole chunks (src/results/regexScan.ts) finds exactly the lines a line-by-line test finds,
// also for patterns that can match across a newline, match nothing, or look around.
import { describe, expect, it } from 'vitest';
import { arraySource, compileSearch } from '../../src/results/query.ts';
import type { LineSource } from '../../src/results/lineSource.ts';
import { chunkRegex, matchChunk, scanMatches } from '../../src/results/regexScan.ts';

const LINES = [
  'alpha one',
  '',
  'Beta two',
  'gamma  ',
  'x',
  'delta\rcarriage',
  'ALPHA again',
  'beta',
  '  indented alpha',
  'last line alpha',
];

function byLine(lines: readonly string[], pattern: string): [number, string][] {
  const re = compileSearch(pattern);
  return lines.flatMap((text, i): [number, string][] => (re.test(text) ? [[i, text]] : []));
}

async function scanned(source: LineSource, pattern: string): Promise<[number, string][]> {
  const out: [number, string][] = [];
  await scanMatches(source, compileSearch(pattern), (i, text) => out.push([i, text]));
  return out;
}

/** A source whose line-by-line scan fails: what it answers came from the chunk-wide search. */
function textOnly(lines: readonly string[], batch: number): LineSource {
  return {
    ...arraySource(lines, batch),
    scan: () => Promise.reject(new Error('split the lines')),
  };
}

describe('regex search over whole chunks', () => {
  // Patterns that cannot match a newline: searched chunk-wide.
  const chunkWide = [
    'alpha',
    '^alpha',
    'alpha$',
    '^$',
    '^',
    '$',
    'x*',
    ' +$',
    'a.*a',
    '\\bbeta\\b',
    '(?:one|two)',
    'carriage$',
    'delta$',
    'e\\w*$',
  ];
  for (const batch of [1, 3, 1000])
    it(`finds the same lines as a test per line, in chunks of ${batch}`, async () => {
      for (const p of chunkWide) expect([p, await scanned(textOnly(LINES, batch), p)]).toEqual([p, byLine(LINES, p)]);
    });

  it('tests line by line a pattern that could match a newline or looks around', async () => {
    const lineByLine = [
      'a\\s+b',
      'two\\s*gamma',
      '[^a]+$',
      '^\\s*$',
      'e\\W',
      '[\\t-\\r]',
      '(?<!\\n)alpha',
      'alpha(?!\\n)',
    ];
    for (const p of lineByLine) {
      expect([p, chunkRegex(compileSearch(p))]).toEqual([p, undefined]);
      expect([p, await scanned(arraySource(LINES, 3), p)]).toEqual([p, byLine(LINES, p)]);
      await expect(scanned(textOnly(LINES, 1000), p)).rejects.toThrow('split the lines');
    }
    expect(chunkRegex(compileSearch('alpha'))!.flags).toBe('gim');
    // In the chunk `one\s+beta` would match across "alpha one\n\nBeta two"; no single line holds it.
    expect(await scanned(arraySource(LINES, 1000), 'one\\s+beta')).toEqual([]);
    // `(?<!\n)` at a line's start: true for the line on its own, false in the chunk after a newline.
    expect(await scanned(arraySource(LINES, 1000), '(?<!\\n)alpha')).toEqual([
      [0, 'alpha one'],
      [6, 'ALPHA again'],
      [8, '  indented alpha'],
      [9, 'last line alpha'],
    ]);
  });

  it('checks each chunk-wide match on its own line', () => {
    // The chunk-wide `b` finds "ab" too; the line regex `^b$` decides, so "ab" is passed over.
    const hits: [number, string][] = [];
    matchChunk('a\nb\n\nab\nb', 41, /b/gim, /^b$/i, (i, t) => hits.push([i, t]));
    expect(hits).toEqual([
      [42, 'b'],
      [45, 'b'],
    ]);
  });

  it('numbers the lines of a chunk from its first line', () => {
    const hits: [number, string][] = [];
    matchChunk('a\nb\n\nab\nb', 41, /b/gim, /b/i, (i, t) => hits.push([i, t]));
    expect(hits).toEqual([
      [42, 'b'],
      [44, 'ab'],
      [45, 'b'],
    ]);
  });
});
