/**
 * The extension's pages say a thrown value's message through one helper (src/shared/errorMessage.ts, #15 step 7):
 * an inline copy drifts (`(e as Error).message` shows "undefined" for a thrown string), so none is left in the UI.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../src/shared/errorMessage.ts';

const UI_FOLDERS = ['src/sidepanel', 'src/options', 'src/connect', 'src/ui'];
const INLINE_COPY = /instanceof Error \?|as Error\)\.message|\(\w+: Error\) =>/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

describe('error messages in the UI', () => {
  it('come from the shared helper: no inline copy in the panel, options, connect or ui folders', () => {
    const copies = UI_FOLDERS.flatMap(sources).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (INLINE_COPY.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(copies).toEqual([]);
  });

  it('the helper gives an Error its message and anything else as text', () => {
    expect(errorMessage(new Error('No conversation c1.'))).toBe('No conversation c1.');
    expect(errorMessage('port closed')).toBe('port closed');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});
