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
 * rules of its own; it is listed after its folder, whose rules it replaces. docs/architecture.md shows this table and
 * test/build/layers.test.ts checks that the two agree.
 */
export const layers = {
  cli: { values: ['background', 'config', 'shared'], types: ['tools'] },
  background: {
    values: ['agent', 'bridge', 'command', 'config', 'mcp', 'models', 'offscreen', 'page', 'replay', 'results'].concat([
      'sdk',
      'shared',
      'storage',
      'tools',
    ]),
    types: [],
  },
  sidepanel: {
    values: ['agent', 'command', 'config', 'shared', 'ui'],
    types: ['models', 'results', 'storage', 'tools'],
  },
  options: { values: ['shared', 'ui'], types: [] },
  connect: { values: ['shared'], types: [] },
  docs: { values: ['shared'], types: [] },
  ui: { values: ['config', 'shared'], types: ['mcp', 'storage'] },
  bridge: { values: ['shared'], types: ['agent', 'models'] },
  agent: { values: ['shared', 'storage'], types: ['config', 'models'] },
  mcp: { values: ['config', 'sdk', 'shared', 'tools'], types: [] },
  tools: { values: ['config', 'shared'], types: ['command'] },
  'tools/packs': {
    values: ['command', 'config', 'models', 'offscreen', 'replay', 'results', 'sdk', 'shared', 'storage'],
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

/**
 * The one arrow that runs up, types only: the panel's reply map names the types the worker's handlers return, which
 * the layers above shared/ define (#15 step 3). Erased at build time; nothing of those layers is bundled through it.
 */
const replyTypes = ['bridge', 'command', 'config', 'mcp', 'models', 'results', 'sdk', 'storage', 'tools'];

const folders = Object.keys(layers).filter((k) => !k.includes('/'));

/**
 * `@typescript-eslint/no-restricted-imports` blocks for one folder (or part). Patterns are written per depth — a file
 * in src/<folder>/a/b/ reaches src/ through exactly three `../` — so a nested folder that shares a top-level name
 * (src/cli/mcp/) is never mistaken for it. Imports within the folder are always allowed.
 */
function layerBlocks(key, { values, types }, extraFiles = []) {
  const own = key.split('/')[0];
  const base = key.split('/').length;
  const blocks = [];
  for (let depth = base; depth <= 5; depth++) {
    const up = '../'.repeat(depth);
    const files = extraFiles.length ? extraFiles : [`src/${key}/${'*/'.repeat(depth - base)}*.{ts,tsx}`];
    const patterns = folders
      .filter((f) => f !== own && !values.includes(f))
      .map((f) => ({
        group: [`${up}${f}/**`],
        ...(types.includes(f) ? { allowTypeImports: true } : {}),
        message: types.includes(f)
          ? `src/${key}/ may import only types from src/${f}/ (docs/architecture.md).`
          : `src/${key}/ may not import src/${f}/ (docs/architecture.md).`,
      }));
    blocks.push({ files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } });
    if (extraFiles.length) break;
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
  ...layerBlocks('shared', { values: [], types: replyTypes }, ['src/shared/replies.ts']),
);
