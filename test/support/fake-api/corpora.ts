/**
 * Where the shared third-party corpora live: `../shared/corpora` relative to the project root. They are not part of
 * the project; everything that uses them must cope with their absence (CI may lack them).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (this file is test/support/fake-api/corpora.ts). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `OTTO_CORPORA_DIR` overrides the default location. */
export const CORPORA_DIR = process.env.OTTO_CORPORA_DIR ?? resolve(PROJECT_ROOT, '../shared/corpora');

export const corpusPath = (...parts: string[]): string => resolve(CORPORA_DIR, ...parts);

export const OPENAPI_SUBSET = corpusPath('openai-openapi', 'responses-subset.json');
export const SSE_CORPUS_DIR = corpusPath('openai-sse');

export const corpusPresent = (path: string): boolean => existsSync(path);
