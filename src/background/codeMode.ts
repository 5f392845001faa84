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
import type { ToolDefinition } from '../tools/toolDefinition.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import { CALL_TOOL, CODE_TOOL, callLine, callList, PAGE_TASK_PACKS } from '../tools/packs/ot/index.ts';
import { schemaForModel } from '../tools/schemaForModel.ts';
import { BUILTIN_PACKS, isSent, type ToolSetMode } from '../tools/toolSet.ts';
import { rewriteSchemaDescriptions, wireRewriter } from '../tools/wireNames.ts';

export type AgentMode = OttoConfig['agent']['mode'];

/** Tool names shown per pack in the summary; larger packs end with `…`. */
export const SUMMARY_TOOLS_PER_PACK = 8;

/**
 * `Packs and tools: llm: transform; tabs: list, open, …` — one line per pack; Otto's page-task packs (dom, tabs,
 * files, web, llm) list every tool with its parameters instead (tools/packs/ot/callList.ts), so a program can be
 * written from the first request.
 */
export function packSummary(registry: ToolRegistry): string {
  const lines = ['Packs and their tools (call as pack.fn; page tools also take tab_id):'];
  for (const pack of registry.packs()) {
    if (PAGE_TASK_PACKS.has(pack.name) && pack.source === 'local') {
      for (const q of pack.tools) lines.push(`- ${callLine(q, registry.get(q)!)}`);
      continue;
    }
    const fns = pack.tools.map((q) => q.slice(pack.name.length + 1));
    const shown = fns.slice(0, SUMMARY_TOOLS_PER_PACK).join(', ');
    const more = fns.length > SUMMARY_TOOLS_PER_PACK ? `, … (${fns.length} tools)` : '';
    lines.push(`- ${pack.name}: ${shown}${more}`);
  }
  return lines.join('\n');
}

/**
 * The definitions for a request in `mode`. Tools mode sends the tool set (`agent.tool_set`, tools/toolSet.ts) and
 * speaks in wire names (tools/wireNames.ts); code mode keeps dotted names, which its programs use. Otto's own tools
 * go without the bounds zod checks at the call (tools/schemaForModel.ts), and ot.call's description lists every tool
 * of Otto's packs the request leaves out, with its parameters (tools/packs/ot/callList.ts): nothing needs a
 * discovery request.
 */
export function modeDefinitions(
  registry: ToolRegistry,
  mode: AgentMode,
  toolSet: ToolSetMode = 'default',
): ToolDefinition[] {
  if (mode === 'tools') {
    const rewrite = wireRewriter(registry);
    const callApi = registry.apiNameOf(CALL_TOOL);
    const listed = callList(registry, toolSet);
    return registry
      .definitions((tool, qualified) => qualified !== CODE_TOOL && isSent(qualified, tool.pack, toolSet))
      .map((d) => {
        const qualified = registry.qualifiedNameOf(d.function.name);
        const pack = qualified === undefined ? undefined : registry.get(qualified)?.pack;
        const own = pack !== undefined && BUILTIN_PACKS.has(pack);
        const parameters = structuredClone(own ? schemaForModel(d.function.parameters) : d.function.parameters);
        rewriteSchemaDescriptions(parameters as typeof d.function.parameters, rewrite);
        const described =
          d.function.name === callApi && listed ? `${d.function.description}\n${listed}` : d.function.description;
        return {
          ...d,
          function: {
            ...d.function,
            description: rewrite(described),
            parameters: parameters as typeof d.function.parameters,
          },
        };
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
