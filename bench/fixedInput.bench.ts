/**
 * #43 part 1 — the fixed input of a request: the characters every request carries besides the conversation (tool
 * definitions exactly as sent, flattened JSON, plus the instructions: Otto's system block for a typical tab), in
 * tools mode (the default tool set; ot.call's description lists the other tools of Otto's packs) and in code mode
 * (ot.run alone, its description listing every page tool with its parameters), in one run. Budget for tools mode:
 * 13,500 characters (test/tools/discovery.test.ts asserts it). For reference, `agent.tool_set: all`.
 *
 * Also how many page-task tools (packs dom, tabs, files, web, llm) the first request makes known — a full definition
 * or a line in ot.call's description — out of how many there are: a tool missing would cost a discovery request.
 *
 *   npx tsx bench/run.ts fixed_input --rounds 1
 */
import { buildRegistry } from '../src/background/registry.ts';
import { modeDefinitions } from '../src/background/codeMode.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { CALL_TOOL, PAGE_TASK_PACKS } from '../src/tools/packs/ot/index.ts';
import { FIXED_INPUT_BUDGET, fixedInput } from '../test/support/fixedInput.ts';
import type { BenchMetric } from './types.ts';

export const name = 'fixed_input';
// Deterministic: one round says it all.
export const rounds = 1;

export async function run(): Promise<BenchMetric[]> {
  const registry = buildRegistry(DEFAULT_CONFIG);
  const tools = fixedInput(registry, 'tools');
  const code = fixedInput(registry, 'code');
  const all = fixedInput(registry, 'tools', 'all');

  const defs = modeDefinitions(registry, 'tools');
  const sent = new Set(defs.map((d) => d.function.name));
  const call = defs.find((d) => d.function.name === registry.apiNameOf(CALL_TOOL))?.function.description ?? '';
  const page = registry.list().filter((t) => PAGE_TASK_PACKS.has(t.pack));
  const known = page.filter((t) => {
    const wire = registry.apiNameOf(`${t.pack}.${t.name}`)!;
    return sent.has(wire) || call.split('\n').some((line) => line.startsWith(`${wire}(`));
  });

  return [
    { name: 'tools_definition_chars', value: tools.definitions, unit: 'chars' },
    { name: 'tools_instruction_chars', value: tools.instructions, unit: 'chars' },
    { name: 'tools_fixed_input_chars', value: tools.total, unit: 'chars', budget: FIXED_INPUT_BUDGET },
    { name: 'code_definition_chars', value: code.definitions, unit: 'chars' },
    { name: 'code_instruction_chars', value: code.instructions, unit: 'chars' },
    { name: 'code_fixed_input_chars', value: code.total, unit: 'chars', budget: FIXED_INPUT_BUDGET },
    { name: 'all_tools_fixed_input_chars', value: all.total, unit: 'chars' },
    { name: 'page_tools', value: page.length, unit: 'tools' },
    {
      name: 'page_tools_sent_in_full',
      value: page.filter((t) => sent.has(registry.apiNameOf(`${t.pack}.${t.name}`)!)).length,
      unit: 'tools',
    },
    { name: 'page_tools_known_first_request', value: known.length, unit: 'tools' },
  ];
}
