/**
 * `ot.reload` (docs/specs/002-ot-tools.md, "Reload Configuration"): drops the cached config and secrets, re-reads them
 * from extension storage, rebuilds the registry and interceptor (through the worker's hook) and clears the help index.
 */
import { z } from '../../../shared/zod.ts';
import { otTool } from './common.ts';
import type { ResolvedDeps } from './env.ts';
import { clearHelpCache } from './search.ts';

export const RELOADED = 'OK: Configuration reloaded';

export function reloadTool(deps: ResolvedDeps) {
  return otTool({
    name: 'reload',
    description:
      'Reload the configuration: re-read config and secrets from storage, clear caches, rebuild the tools and reconnect servers.',
    parameters: z.object({}),
    effect: 'changes',
    examples: ['ot.reload()'],
    returns: '"OK: Configuration reloaded"',
    async run() {
      clearHelpCache(deps.registry());
      await deps.reload?.();
      return RELOADED;
    },
  });
}
