import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// zod must be imported through src/shared/zod.ts, which sets jitless mode first (every src file; repeated in each
// block below that sets no-restricted-imports, since a later block's options replace an earlier one's).
const zodPaths = [
  { name: 'zod', message: "Import { z } from 'src/shared/zod.ts' (jitless, no eval)." },
  { name: 'zod/mini', message: "Import { z } from 'src/shared/zodMini.ts' (jitless, no eval)." },
];

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
    // Layers (docs/architecture.md): packs reach pages only through the PageApi type; src/page/index.ts and the
    // router pull in the content scripts (Vite-only ?iife imports), and background/ is the composition root.
    files: ['src/tools/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/page/*', '**/background/*'],
              allowTypeImports: true,
              message:
                'Tools take the page as a dependency (createDomTools({ page })): import only types from src/page/api.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // The content script runs in the page: it never imports the worker's side.
    files: ['src/content/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/page/*', '**/background/*'],
              message: 'content/ and shared/ sit below the worker (docs/architecture.md).',
            },
          ],
        },
      ],
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
  // #15: the extension's pages talk to the worker over the panel port only (shared/messages.ts types each request
  // and its reply); nothing of the worker's composition root is imported into a page. The panel and the options page
  // share what they share through src/ui/ and never import each other; src/ui/ imports neither.
  ...[
    ['src/sidepanel/**/*.{ts,tsx}', ['**/options/**']],
    ['src/options/**/*.{ts,tsx}', ['**/sidepanel/**']],
    ['src/ui/**/*.{ts,tsx}', ['**/sidepanel/**', '**/options/**']],
    ['src/connect/**/*.{ts,tsx}', []],
    ['src/docs/**/*.ts', []],
  ].map(([files, pages]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: zodPaths,
          patterns: [
            {
              group: ['**/background/**'],
              message:
                'A page does not import the worker: request it over the port (shared/messages.ts, PanelReplies).',
            },
            ...(pages.length
              ? [{ group: pages, message: 'The panel and the options page share code through src/ui/ only.' }]
              : []),
          ],
        },
      ],
    },
  })),
);
