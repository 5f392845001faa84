import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// zod must be imported through src/shared/zod.ts, which sets jitless mode first (every src file; repeated in each
// block below that sets no-restricted-imports, since a later block's options replace an earlier one's).
const zodPaths = [
  { name: 'zod', message: "Import { z } from 'src/shared/zod.ts' (jitless, no eval)." },
  { name: 'zod/mini', message: "Import { z } from 'src/shared/zodMini.ts' (jitless, no eval)." },
];

/**
 * The layers of src/ (docs/architecture.md): for each folder, the folders it may import values from and those it may
 * import only types from. Anything else is an error. A key with a slash (`tools/packs`) is a part of a folder with
 * rules of its own, a row of the table like any folder; it is listed after its folder, whose rules it replaces for the
 * files inside it, and its folder may not import it unless listed. docs/architecture.md shows this table,
 * test/build/layers.test.ts checks that the two agree, and test/build/importGraph.test.ts checks the whole import
 * graph against it (types, `import()` and circles included).
 */
export const layers = {
  cli: { values: ['background', 'config', 'shared'], types: ['tools'] },
  background: {
    values: ['agent', 'bridge', 'command', 'config', 'mcp', 'models', 'page', 'replay', 'results', 'sdk'].concat([
      'shared',
      'storage',
      'tools',
      'tools/packs',
    ]),
    types: ['port'],
  },
  sidepanel: {
    values: ['agent', 'command', 'config', 'port', 'shared', 'ui'],
    types: ['models', 'results', 'storage'],
  },
  options: { values: ['port', 'shared', 'ui'], types: [] },
  connect: { values: ['port', 'shared'], types: [] },
  docs: { values: ['port', 'shared'], types: [] },
  ui: { values: ['config', 'shared'], types: ['mcp', 'port', 'storage'] },
  port: {
    values: ['shared'],
    types: ['bridge', 'command', 'config', 'mcp', 'models', 'results', 'sdk', 'storage', 'tools/packs'],
  },
  bridge: { values: ['shared'], types: ['agent', 'models'] },
  agent: { values: ['shared', 'storage'], types: ['config', 'models'] },
  mcp: { values: ['config', 'sdk', 'shared', 'tools', 'tools/packs'], types: [] },
  tools: { values: ['config', 'shared'], types: ['command'] },
  'tools/packs': {
    values: ['command', 'config', 'models', 'offscreen', 'replay', 'results', 'sdk', 'shared', 'storage', 'tools'],
    types: ['content', 'page'],
  },
  sdk: { values: ['shared', 'tools'], types: [] },
  replay: { values: ['command', 'shared', 'tools'], types: [] },
  page: { values: ['content', 'shared'], types: [] },
  offscreen: { values: ['content', 'shared'], types: [] },
  command: { values: ['shared'], types: [] },
  content: { values: ['shared'], types: [] },
  storage: { values: ['config', 'results', 'shared'], types: ['models'] },
  models: { values: ['config', 'shared'], types: [] },
  results: { values: ['shared'], types: [] },
  config: { values: ['shared'], types: [] },
  shared: { values: [], types: [] },
};

/** A `no-restricted-imports` pattern that refuses `target` (a row's key) from `key`, or allows only its types. */
function refusal(key, target, group, types) {
  return {
    group: [group],
    ...(types.includes(target) ? { allowTypeImports: true } : {}),
    message: types.includes(target)
      ? `src/${key}/ may import only types from src/${target}/ (docs/architecture.md).`
      : `src/${key}/ may not import src/${target}/ (docs/architecture.md).`,
  };
}

/**
 * `@typescript-eslint/no-restricted-imports` blocks for one row. Patterns are written per depth — a file in
 * src/<folder>/a/b/ reaches src/ through exactly three `../` — so a nested folder that shares a top-level name
 * (src/cli/mcp/) is never mistaken for it. Imports within the row are always allowed; a part of it with a row of its
 * own (src/tools/packs/ for src/tools/) is reached through `./packs/…`, `../packs/…` and is refused unless listed.
 */
function layerBlocks(key, { values, types }) {
  const own = key.split('/')[0];
  const base = key.split('/').length;
  const blocks = [];
  for (let depth = base; depth <= 5; depth++) {
    const up = '../'.repeat(depth);
    const files = [`src/${key}/${'*/'.repeat(depth - base)}*.{ts,tsx}`];
    const others = Object.keys(layers).filter((k) => k !== key && !values.includes(k));
    const patterns = others.flatMap((k) => {
      if (k.startsWith(`${key}/`))
        return [refusal(key, k, `${'../'.repeat(depth - base) || './'}${k.slice(key.length + 1)}/**`, types)];
      if (k === own || k.split('/')[0] === own) return []; // the row's own folder, or a sibling part of it
      return [refusal(key, k, `${up}${k}/**`, types)];
    });
    blocks.push({ files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } });
  }
  return blocks;
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'e2e/fixtures/pages/apps/',
      'node_modules/',
      '.otto-profile/',
      'test-results/',
      'playwright-report/',
      'e2e-artifacts/',
      '.test-output/',
      'bench/tmp/',
      '.scratch/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.webextensions } },
    rules: {
      // MV3 forbids eval; keep it out of the code base entirely.
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Playwright fixtures declare "no dependencies" with an empty pattern.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // zod must be imported through src/shared/zod.ts, which sets jitless mode first.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/shared/zod.ts', 'src/shared/zodMini.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: zodPaths }],
    },
  },
  {
    // The content script runs in every frame of every page: it must not pull in the classic zod API (~90 KB).
    files: ['src/content/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'The content script uses zod/mini through src/shared/zodMini.ts.' }],
          patterns: [
            {
              group: ['**/shared/zod.ts', '**/shared/messages.ts'],
              message: 'Classic zod in the content script: use src/shared/zodMini.ts and src/shared/parseMessage.ts.',
            },
          ],
        },
      ],
    },
  },
  // Layers (docs/architecture.md): one block per folder and depth; each file gets exactly one, since a later block's
  // options for the same rule would replace an earlier one's. The extension's pages reach the worker over the panel
  // port only (shared/messages.ts types each request and its reply), never by importing it.
  ...Object.entries(layers).flatMap(([key, rule]) => layerBlocks(key, rule)),
);
