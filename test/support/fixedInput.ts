/**
 * The fixed input of a request (#43 part 1): the characters every request carries besides the conversation — the
 * tool definitions exactly as sent to the Responses API (flattened, JSON) plus the instructions (Otto's system block
 * for a typical tab, in the names the model calls). Measured the same way by test/tools/discovery.test.ts (which
 * asserts the budget) and bench/fixedInput.bench.ts (which reports it).
 */
import { modeDefinitions } from '../../src/background/codeMode.ts';
import { systemBlock } from '../../src/background/systemBlock.ts';
import { flattenToolsForResponsesApi } from '../../src/models/flattenTools.ts';
import type { ToolSetMode } from '../../src/tools/toolSet.ts';
import type { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { wireRewriter } from '../../src/tools/wireNames.ts';

/** A tools-mode request's fixed input may not exceed this many characters (issue #43). */
export const FIXED_INPUT_BUDGET = 13_500;

export interface FixedInput {
  definitions: number;
  instructions: number;
  total: number;
}

/** The fixed input of a request in `mode` over `registry` (default tool set unless told). */
export function fixedInput(
  registry: ToolRegistry,
  mode: 'tools' | 'code',
  toolSet: ToolSetMode = 'default',
): FixedInput {
  const definitions = JSON.stringify(flattenToolsForResponsesApi(modeDefinitions(registry, mode, toolSet))).length;
  const block = systemBlock({
    conversationId: 'fixed-input',
    tab: {
      title: 'Inbox (3) — Example Mail: messages from your team and more',
      url: 'https://mail.example.com/u/0/#inbox?compose=new',
    },
    date: '2026-11-25',
    mode,
  });
  // Tools mode speaks in wire names (dom__click); code mode keeps the dotted names its programs use.
  const instructions = (mode === 'tools' ? wireRewriter(registry)(block) : block).length;
  return { definitions, instructions, total: definitions + instructions };
}
