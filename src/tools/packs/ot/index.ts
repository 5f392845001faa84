/**
 * The `ot` pack (docs/specs/002-ot-tools.md): Otto's introspection and housekeeping tools — discovery (`ot.tools`,
 * `ot.packs`, `ot.aliases`, `ot.snippets`, `ot.help`), state (`ot.config`, `ot.health`, `ot.version`, `ot.stats`,
 * `ot.result`), actions (`ot.notify`, `ot.reload`) and code mode's `ot.run`. Every function logs a span `ot.<function>`
 * and returns text from the one formatter (YAML flow style by default, JSON with config `output.format: json`).
 */
import { callTool } from './call.ts';
import type { AnyTool } from '../../Tool.ts';
import type { PackSpec } from '../../ToolRegistry.ts';
import { aliasesTool } from './aliases.ts';
import { configTool } from './config.ts';
import { resolveDeps } from './env.ts';
import { healthTool } from './health.ts';
import { helpTool } from './help.ts';
import { notifyTool } from './notify.ts';
import { packsTool } from './packs.ts';
import { reloadTool } from './reload.ts';
import { resultTool } from './result.ts';
import { runTool } from './run.ts';
import type { OtDeps } from './runtime.ts';
import { snippetsTool } from './snippets.ts';
import { saveSnippetTool } from './saveSnippet.ts';
import { statsTool } from './stats.ts';
import { toolsTool } from './tools.ts';
import { versionTool } from './version.ts';

export const OT_PACK: PackSpec = {
  name: 'ot',
  instructions:
    'Otto itself: ot.help(query="...") finds any tool, pack, snippet or alias (typos are fine); ot.tools / ot.packs list them; ot.result reads stored large outputs.',
};

/** The pack's tools over `deps` (the registry they describe; what is left out gets a default that needs no browser). */
export function createOtTools(deps: OtDeps): AnyTool[] {
  const d = resolveDeps(deps);
  return [
    aliasesTool(),
    callTool(d),
    configTool(),
    healthTool(d),
    helpTool(d),
    notifyTool(d),
    packsTool(d),
    reloadTool(d),
    resultTool(d),
    runTool(d),
    saveSnippetTool(d),
    snippetsTool(),
    statsTool(d),
    toolsTool(d),
    versionTool(d),
  ];
}

export type { OtDeps, OtEnvironment, OtRuntime, OtStores, SnippetStore } from './runtime.ts';
export { storesOver } from './env.ts';
export { CODE_TOOL, CODE_TOOL_DESCRIPTION } from './run.ts';
export { CALL_TOOL } from './call.ts';
export { callLine, callList, PAGE_TASK_PACKS } from './callList.ts';
export { runCommandText } from './program.ts';
export { helpIndex, helpSources, toolDetail, type HelpIndex, type HelpToolDetail } from './help.ts';
export { searchHelp, type HelpHit } from './search.ts';
export { docSlug, docUrl, DOC_SLUG_OVERRIDES } from './docs.ts';
