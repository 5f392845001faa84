/**
 * The layer rule (docs/architecture.md, #15 "How it is checked"): eslint reports an import that runs against the
 * layers, allows what the table allows, and the table in docs/architecture.md is the one eslint.config.js enforces.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

type Layers = Record<string, { values: string[]; types: string[] }>;
/** The table eslint.config.js enforces (a JS module without types: loaded by URL). */
const { layers } = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.js')).href)) as { layers: Layers };

/** The layer rule's messages for `code` linted as if it were the file `file` (which need not exist). */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message.replace(/^'[^']*' import is restricted from being used by a pattern\. /, ''));
}

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

describe('the layer rule bites', () => {
  it('tools/ importing the composition root is an error', async () => {
    expect(await layerErrors('src/tools/x.ts', "import x from '../background/index.ts';\nexport { x };\n")).toEqual([
      'src/tools/ may not import src/background/ (docs/architecture.md).',
    ]);
  });

  it('a pack may import types from page/, not values', async () => {
    const file = 'src/tools/packs/dom/x.ts';
    expect(
      await layerErrors(file, "import type { PageApi } from '../../../page/api.ts';\nexport type P = PageApi;\n"),
    ).toEqual([]);
    expect(await layerErrors(file, "import { pageApi } from '../../../page/index.ts';\nexport { pageApi };\n")).toEqual(
      ['src/tools/packs/ may import only types from src/page/ (docs/architecture.md).'],
    );
  });

  it('the rule counts depth: a file deeper in a folder is held to the same table', async () => {
    expect(await layerErrors('src/content/actions/x.ts', "export * from '../../storage/db.ts';\n")).toEqual([
      'src/content/ may not import src/storage/ (docs/architecture.md).',
    ]);
  });

  it("a nested folder with a top-level folder's name is not mistaken for it (src/cli/mcp/)", async () => {
    expect(await layerErrors('src/cli/run/x.ts', "export * from '../mcp/index.ts';\n")).toEqual([]);
    expect(await layerErrors('src/cli/x.ts', "export * from '../mcp/manager.ts';\n")).toEqual([
      'src/cli/ may not import src/mcp/ (docs/architecture.md).',
    ]);
  });

  it('the panel and the settings page do not import each other, nor the worker', async () => {
    expect(await layerErrors('src/sidepanel/x.tsx', "export * from '../options/Settings.tsx';\n")).toEqual([
      'src/sidepanel/ may not import src/options/ (docs/architecture.md).',
    ]);
    expect(await layerErrors('src/options/x.tsx', "export * from '../background/index.ts';\n")).toEqual([
      'src/options/ may not import src/background/ (docs/architecture.md).',
    ]);
  });

  it("shared/ imports nothing above it, not even types (the panel's replies live in port/)", async () => {
    expect(
      await layerErrors('src/shared/x.ts', "import type { X } from '../tools/Tool.ts';\nexport type Y = X;\n"),
    ).toEqual(['src/shared/ may not import src/tools/ (docs/architecture.md).']);
    expect(
      await layerErrors('src/shared/messages.ts', "import type { X } from '../port/replies.ts';\nexport type Y = X;\n"),
    ).toEqual(['src/shared/ may not import src/port/ (docs/architecture.md).']);
  });

  it('tools/packs/ is a row of its own: the tools core may not import it, from any depth', async () => {
    const value = (from: string) => `import { helpText } from '${from}packs/ot/help.ts';\nexport { helpText };\n`;
    const refused = ['src/tools/ may not import src/tools/packs/ (docs/architecture.md).'];
    expect(await layerErrors('src/tools/x.ts', value('./'))).toEqual(refused);
    expect(await layerErrors('src/tools/guard/x.ts', value('../'))).toEqual(refused);
    expect(await layerErrors('src/tools/packs/ot/x.ts', "export * from '../../Tool.ts';\n")).toEqual([]);
  });

  it('a row that lists tools/ but not tools/packs/ reaches only the core', async () => {
    const file = 'src/port/x.ts';
    expect(
      await layerErrors(file, "import type { H } from '../tools/packs/ot/help.ts';\nexport type Y = H;\n"),
    ).toEqual([]);
    expect(await layerErrors(file, "import type { T } from '../tools/Tool.ts';\nexport type Y = T;\n")).toEqual([
      'src/port/ may not import src/tools/ (docs/architecture.md).',
    ]);
    expect(await layerErrors('src/sdk/x.ts', "export * from '../tools/packs/ot/help.ts';\n")).toEqual([
      'src/sdk/ may not import src/tools/packs/ (docs/architecture.md).',
    ]);
  });
});

describe('docs/architecture.md', () => {
  it('shows the table eslint.config.js enforces, row for row', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const folders = (cell = '') => [...cell.matchAll(/`([\w/]+)\/`/g)].map((m) => m[1]).sort();
    const rows = Object.fromEntries(
      [...doc.matchAll(/^\| `([\w/]+)\/` +\|([^|]*)\|([^|]*)\|$/gm)].map((m) => [
        m[1],
        { values: folders(m[2]), types: folders(m[3]) },
      ]),
    );
    const table = Object.fromEntries(
      Object.entries(layers).map(([k, v]) => [k, { values: [...v.values].sort(), types: [...v.types].sort() }]),
    );
    expect(rows).toEqual(table);
  });
});
