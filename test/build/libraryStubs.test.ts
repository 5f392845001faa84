/**
 * The build swaps some library files for stand-ins (scripts/libraryStubs.ts). If a library update moves or renames
 * one, the swap silently stops and the bundle grows: each rule must still match a file that exists, and each
 * stand-in must exist.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LIBRARY_STUBS } from '../../scripts/libraryStubs.ts';

const ROOTS = ['node_modules/openai', 'node_modules/@modelcontextprotocol/sdk/dist/esm'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.m?js$/.test(n) ? [path.resolve(p).split(path.sep).join('/')] : [];
  });
}

describe('library stubs', () => {
  const all = ROOTS.flatMap((r) => files(r));

  it.each(LIBRARY_STUBS.map((s) => [String(s.target), s] as const))(
    '%s still matches library files, and its stand-in exists',
    (_name, stub) => {
      const matched = all.filter((f) => stub.target.test(f));
      expect(matched.length).toBeGreaterThan(0);
      expect(existsSync(fileURLToPath(new URL(stub.file, new URL('../../scripts/', import.meta.url))))).toBe(true);
    },
  );

  it('the openai rules cover each namespace and helper they name', () => {
    const openai = LIBRARY_STUBS.filter((s) => s.file.endsWith('openaiUnused.ts'));
    const hit = (rel: string) =>
      openai.some((s) => s.target.test(path.resolve('node_modules/openai', rel).split(path.sep).join('/')));
    for (const rel of [
      'resources/admin/admin.mjs',
      'resources/beta/beta.mjs',
      'resources/webhooks/webhooks.mjs',
      'resources/completions.mjs',
      'resources/files.mjs',
      'resources/videos.mjs',
      'lib/responses/ResponseStream.mjs',
      'lib/AssistantStream.mjs',
    ])
      expect(hit(rel), rel).toBe(true);
    // What Otto calls is never swapped out.
    for (const rel of [
      'resources/responses/responses.mjs',
      'resources/chat/completions/completions.mjs',
      'resources/models.mjs',
      'client.mjs',
      'core/streaming.mjs',
    ])
      expect(hit(rel), rel).toBe(false);
  });
});
