import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentRequest, SnapshotReply } from '../../src/shared/contentMessages.ts';
import { parseMessage } from '../../src/shared/parseMessage.ts';

/** Every module the content script imports, transitively (relative imports and bare package names). */
function importGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  if (!entry.startsWith('/')) return seen; // a package
  const text = readFileSync(entry, 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*'([^']+)'|^\s*import\s*'([^']+)'/gm)) {
    if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue; // erased at build time
    const spec = (m[1] ?? m[2])!;
    if (!spec.startsWith('.')) {
      seen.add(spec);
      continue;
    }
    const file = path.resolve(path.dirname(entry), spec.replace(/\?.*$/, ''));
    importGraph(existsSync(file) ? file : `${file}.ts`, seen);
  }
  return seen;
}

describe('content messages (zod/mini)', () => {
  it('the content script never reaches the classic zod API, only zod/mini', () => {
    const graph = importGraph(path.resolve('src/content/index.iife.ts'));
    const files = [...graph].map((f) => path.relative(process.cwd(), f));
    expect(files).toContain('src/shared/contentMessages.ts');
    expect(files).toContain('zod/mini');
    expect(files).not.toContain('zod');
    expect(files).not.toContain('src/shared/zod.ts');
    expect(files).not.toContain('src/shared/messages.ts');
  });

  it('rejects a bad request with the English message and the path', () => {
    const bad = parseMessage(ContentRequest, { type: 'dom.click', ref: 'button-1' });
    expect(bad).toEqual({
      ok: false,
      error: 'invalid message at ref: a ref looks like kqe12 (as dom.snapshot shows it)',
    });
    const long = parseMessage(ContentRequest, { type: 'dom.query', selector: 'a'.repeat(2001) });
    expect(long.ok).toBe(false);
    expect(!long.ok && long.error).toMatch(
      /^invalid message at selector: Too big: expected string to have <=2000 characters$/,
    );
    const noTarget = parseMessage(ContentRequest, { type: 'dom.check' });
    expect(noTarget).toEqual({ ok: false, error: 'invalid message: give ref, selector or locator' });
    // dom.hover may also act where the pointer is (#43): a press or a hold needs no target.
    const nowhere = parseMessage(ContentRequest, { type: 'dom.hover' });
    expect(nowhere).toEqual({
      ok: false,
      error:
        'invalid message: give ref, selector or locator, or x and y in the viewport, or press/holdMs where the pointer is',
    });
    expect(parseMessage(ContentRequest, { type: 'dom.hover', press: 'up' }).ok).toBe(true);
    expect(parseMessage(ContentRequest, { type: 'dom.hover', x: 5 }).ok).toBe(false);
    expect(parseMessage(ContentRequest, { type: 'dom.hover', ref: 'e1', holdMs: 20_000 }).ok).toBe(false);
    const count = parseMessage(ContentRequest, { type: 'dom.press', key: 'Enter', count: 1.5 });
    expect(!count.ok && count.error).toBe('invalid message at count: Invalid input: expected int, received number');
  });

  it('accepts the requests and replies the worker and content script exchange', () => {
    expect(
      parseMessage(ContentRequest, {
        type: 'dom.fill_form',
        fields: [{ ref: 'f2e7', value: ['a', 'b'] }],
        submit: true,
      }),
    ).toEqual({
      ok: true,
      value: { type: 'dom.fill_form', fields: [{ ref: 'f2e7', value: ['a', 'b'] }], submit: true },
    });
    const reply = {
      url: 'u',
      title: 't',
      tree: [
        {
          kind: 'element',
          role: 'main',
          children: [{ kind: 'element', role: 'button', name: 'Go', ref: 'e1', children: [] }],
        },
        { kind: 'frame', role: 'iframe', ref: 'e2', frame: 0, children: [] },
      ],
      refs: 2,
      newRefs: 2,
      frames: [{ index: 0, src: 'https://x.example/', name: '' }],
      frameIndex: -1,
      scroll: { y: 0, height: 1, viewport: 1 },
      ms: 1,
    };
    expect(SnapshotReply.parse(reply)).toEqual(reply);
    expect(() => SnapshotReply.parse({ ...reply, refs: 1.5 })).toThrow();
    // The tree is checked node by node, nested ones too.
    const nested = {
      ...reply,
      tree: [{ kind: 'element', role: 'main', children: [{ kind: 'frame', frame: 0.5, children: [] }] }],
    };
    expect(() => SnapshotReply.parse(nested)).toThrow(
      "invalid outline tree: an outline node's frame is not an integer",
    );
    expect(() => SnapshotReply.parse({ ...reply, tree: [{ kind: 'text', text: 'x', children: 'y' }] })).toThrow(
      "invalid outline tree: an outline node's children are not a list",
    );
    // On the wire a node leaves out no children and kind element (shared/outlineWire.ts): the parse puts them back.
    expect(SnapshotReply.parse({ ...reply, tree: [{ role: 'main' }, { kind: 'text', text: 'x' }] }).tree).toEqual([
      { kind: 'element', role: 'main', children: [] },
      { kind: 'text', text: 'x', children: [] },
    ]);
  });
});
