/**
 * Where the build puts the YAML-check worker (vite.config.ts makes it an entry of the extension's one build, so it
 * shares the yaml, zod and config chunks; see docs/decisions.md "Bundle budget"), and the page starts it from there.
 */
export const YAML_CHECK_WORKER_NAME = 'yamlCheck.worker';
export const YAML_CHECK_WORKER_FILE = 'assets/yamlCheck.worker.js';
