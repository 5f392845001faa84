/**
 * #19: pdf.js runs in Otto's offscreen document and its Web Worker, where MV3 forbids eval. Older pdf.js compiled
 * PDF functions with `new Function` unless `isEvalSupported: false`; version 6 dropped the option with the code. This
 * fails if an upgrade brings string-built code back into the files Otto ships.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('pdf.js builds no code from strings', () => {
  it.each(['pdfjs-dist/build/pdf.mjs', 'pdfjs-dist/build/pdf.worker.min.mjs'])(
    '%s has no eval or new Function',
    (f) => {
      const text = readFileSync(require.resolve(f), 'utf8');
      expect(text).not.toMatch(/\bnew Function\s*\(/);
      expect(text).not.toMatch(/[^.\w]eval\s*\(/);
    },
  );
});
