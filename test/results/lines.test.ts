// Text → lines → chunks (src/results/lines.ts): the chunker against a plain reference implementation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceedsBytes, LineChunker, splitLines, utf8Length, wrapLine } from '../../src/results/lines.ts';

/** The reference: split on \n, drop a final empty line, strip one trailing \r, wrap long lines. */
function referenceLines(text: string, wrap: number): string[] {
  const lines = text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  return lines.flatMap((l) => wrapLine(l, wrap));
}

describe('lines', () => {
  it('splits like the reference for any text, chunk size and wrap width', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom('a', 'b', '\n', '\r', '\r\n', 'ccccc', 'é', '😀'), { maxLength: 60 })
          .map((p) => p.join('')),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 12 }),
        (text, wrap, chunkLines, chunkChars) => {
          const chunker = new LineChunker(text, { lineWrap: wrap, chunkLines, chunkChars });
          const got: string[] = [];
          let next = 0;
          for (const c of chunker.next()) {
            expect(c.start).toBe(next);
            const ls = c.text.split('\n');
            expect(ls).toHaveLength(c.count);
            got.push(...ls);
            next += c.count;
          }
          expect(got).toEqual(referenceLines(text, wrap));
          expect(chunker.lines).toBe(got.length);
          expect(chunker.position).toBe(text.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('text ending in a newline has no empty last line; empty text is one empty line', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
    expect(splitLines('')).toEqual(['']);
  });

  it('never wraps inside a surrogate pair', () => {
    const pieces = wrapLine('a😀b', 2);
    expect(pieces).toEqual(['a', '😀', 'b']);
  });

  it('hands out chunks in batches (the store yields between them)', () => {
    const chunker = new LineChunker(Array.from({ length: 50 }, (_, i) => `l${i}`).join('\n'), { chunkLines: 10 });
    expect(chunker.next(2).map((c) => c.start)).toEqual([0, 10]);
    expect(chunker.done).toBe(false);
    expect(chunker.next(10).map((c) => c.start)).toEqual([20, 30, 40]);
    expect(chunker.done).toBe(true);
    expect(chunker.next()).toEqual([]);
  });

  it('counts UTF-8 bytes like TextEncoder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 50 }), (s) => {
        expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
      }),
    );
    expect(utf8Length('\ud800x')).toBe(4); // lone surrogate: 3 bytes, like U+FFFD
  });

  it('decides the size limit in bytes (0 = never)', () => {
    expect(exceedsBytes('a'.repeat(10), 10)).toBe(false);
    expect(exceedsBytes('a'.repeat(11), 10)).toBe(true);
    expect(exceedsBytes('é'.repeat(6), 10)).toBe(true); // 6 chars, 12 bytes
    expect(exceedsBytes('x'.repeat(1000), 0)).toBe(false);
  });
});
