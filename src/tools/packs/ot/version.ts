/** `ot.version` (docs/specs/002-ot-tools.md, "Version"): the manifest's version, `0.0.0-dev` when unknown. */
import { z } from '../../../shared/zod.ts';
import { otTool } from './common.ts';
import { DEV_VERSION, type ResolvedDeps } from './env.ts';

export function versionTool(deps: ResolvedDeps) {
  return otTool({
    name: 'version',
    description: "Otto's version string (from the extension manifest).",
    parameters: z.object({}),
    examples: ['ot.version()'],
    returns: 'The version, e.g. "0.1.0" ("0.0.0-dev" when unknown).',
    run: () => deps.environment.version() || DEV_VERSION,
  });
}
