/**
 * Code mode (config `agent.mode`): which tool definitions the model is given.
 *
 *   tools  every tool except `ot.run` (the default);
 *   code   only `ot.run` — the model writes a command-language program, so a chain of calls costs one round trip and
 *          the intermediate results stay out of its context;
 *   both   every tool, `ot.run` included.
 *
 * `ot.run`'s description gets a short list of the packs and their tools (a handful of names per pack) and says how to
 * discover the rest (`ot.help`, `ot.tools`), so the model can start without a discovery round trip.
 */
import type { OttoConfig } from '../config/schema.ts';
import type { ToolDefinition } from '../tools/definition.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import { CODE_TOOL } from '../tools/packs/ot/index.ts';
import { isSent, type ToolSetMode } from '../tools/toolSet.ts';
import { rewriteSchemaDescriptions, wireRewriter } from '../tools/wireNames.ts';

export type AgentMode = OttoConfig['agent']['mode'];

/** Tool names shown per pack in the summary; larger packs end with `…`. */
export const SUMMARY_TOOLS_PER_PACK = 8;

/** `Packs and tools: llm: transform; tabs: list, open, …` — one line per pack. */
export function packSummary(registry: ToolRegistry): string {
  const lines = ['Packs and their tools (call as pack.fn):'];
  for (const pack of registry.packs()) {
    const fns = pack.tools.map((q) => q.slice(pack.name.length + 1));
    const shown = fns.slice(0, SUMMARY_TOOLS_PER_PACK).join(', ');
    const more = fns.length > SUMMARY_TOOLS_PER_PACK ? `, … (${fns.length} tools)` : '';
    lines.push(`- ${pack.name}: ${shown}${more}`);
  }
  return lines.join('\n');
}

/**
 * The definitions for a request in `mode`. Tools mode sends the tool set (`agent.tool_set`, tools/toolSet.ts) and
 * speaks in wire names (tools/wireNames.ts); code mode keeps dotted names, which its programs use.
 */
export function modeDefinitions(
  registry: ToolRegistry,
  mode: AgentMode,
  toolSet: ToolSetMode = 'default',
): ToolDefinition[] {
  if (mode === 'tools') {
    const rewrite = wireRewriter(registry);
    return registry
      .definitions((tool, qualified) => qualified !== CODE_TOOL && isSent(qualified, tool.pack, toolSet))
      .map((d) => {
        const parameters = structuredClone(d.function.parameters);
        rewriteSchemaDescriptions(parameters, rewrite);
        return { ...d, function: { ...d.function, description: rewrite(d.function.description), parameters } };
      });
  }
  const defs = registry.definitions((_tool, qualified) => mode === 'both' || qualified === CODE_TOOL);
  const apiName = registry.apiNameOf(CODE_TOOL);
  const run = defs.find((d) => d.function.name === apiName);
  // Without ot.run (a registry built without the ot pack) code mode degrades to plain tools.
  if (!run) return registry.definitions();
  run.function.description = `${run.function.description}\n\n${packSummary(registry)}`;
  return defs;
}
