/** The `llm` pack: `llm.transform`, a second model call that reshapes data by a prompt. */
import { z } from '../../../shared/zod.ts';
import { defineTool } from '../../defineTool.ts';
import type { AnyTool } from '../../Tool.ts';
import type { PackSpec } from '../../ToolRegistry.ts';
import { transform, type TransformDeps } from './transform.ts';
import { configInvalidMessage } from '../../../config/status.ts';
import { answerInstruction, answerSchemaSchema, readAnswer, schemaProblem } from './typedAnswer.ts';

export interface LlmToolsDeps {
  /** Records each transform request's tokens and latency in the statistics, like the agent's own requests. */
  onUsage?: TransformDeps['onUsage'];
}

export const LLM_PACK: PackSpec = {
  name: 'llm',
  instructions: 'llm.transform reshapes data (often another tool’s output) by a prompt, with a separate model call.',
};

export function createLlmTools(deps: LlmToolsDeps = {}): AnyTool[] {
  const transformTool = defineTool({
    pack: 'llm',
    name: 'transform',
    description:
      'Transform data with an LLM: extract, reformat, summarise or classify the input as the prompt says. Returns only the requested output.',
    parameters: z.object({
      input: z.unknown().describe('The data to transform: text, or any JSON value (converted to text)'),
      prompt: z.string().describe('What to do with the input, e.g. "Extract the price as a number"'),
      model: z.string().optional().describe('Model to use instead of transform.model from config'),
      json_mode: z.boolean().default(false).describe('Ask for a JSON object as output'),
      schema: answerSchemaSchema
        .optional()
        .describe('A typed answer: {"type": "boolean"}, {"type": "string", "enum": [...]}, arrays, objects'),
    }),
    effect: 'reads',
    // Its output carries its input's labels; its model is the user's own endpoint, not a site.
    flow: { source: 'inputs', sink: 'none' },
    examples: [
      'llm.transform(input=dom.text(ref="e4"), prompt="Extract the price as a number")',
      'llm.transform(input=data, prompt="Return as JSON with fields: name, value", json_mode=True)',
    ],
    returns:
      'The transformed text (valid JSON when json_mode is set; with schema, the typed value), or "Error: <message>".',
    execute: async (args, ctx) => {
      // With a stored config that does not validate, `ctx.config` is the defaults: never call a model with those.
      if (ctx.configStatus?.status === 'invalid') return `Error: ${configInvalidMessage(ctx.configStatus.problems)}`;
      const typed = args.schema;
      const problem = typed ? schemaProblem(typed) : undefined;
      if (problem) return `Error: ${problem}`;
      const reply = await transform(
        {
          input: args.input,
          prompt: typed ? `${args.prompt}\n\n${answerInstruction(typed)}` : args.prompt,
          ...(args.model ? { model: args.model } : {}),
          json_mode: args.json_mode || !!typed,
        },
        {
          config: ctx.config.transform,
          apiKey: ctx.getSecret('OPENAI_API_KEY'),
          logger: ctx.logger,
          signal: ctx.signal,
          ...(deps.onUsage ? { onUsage: deps.onUsage } : {}),
        },
      );
      // A typed answer (#42 part 2) is the parsed, checked value; an error stays the transform's own words.
      return typed && !reply.startsWith('Error: ') ? readAnswer(reply, typed) : reply;
    },
  });
  return [transformTool as AnyTool];
}
