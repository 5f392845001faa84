/**
 * `ot.run`, the one tool of code mode (config `agent.mode: code | both`): the model writes a short command-language
 * program instead of calling tools one response at a time. A chain like
 * `llm.transform(input=tabs.list(), prompt="...")` then costs one model round trip, and the intermediate results
 * never enter the model's context — only the last statement's value comes back.
 *
 * Every call inside runs through the interceptor (`ctx.callTool`). Approval (issue #31): each call is judged at the
 * moment it runs, on the page as it is then, by the same rules as a tool call of its own (the agent passes a gate
 * with the run's context); one that needs the user pauses the program until they answer, and a denial stops it with
 * "the user denied <tool>". Judging the program before it runs could not see what its first steps change (a click
 * that reveals the submit button the next click hits).
 *
 * Statistics (config `stats.enabled`): each run records `round_trips_avoided` = calls − 1 and `chars_kept_out` =
 * characters all calls produced − characters returned, as a `code_mode` saving (they feed `context_saved` and
 * `time_saved_ms` in `ot.stats`).
 */
import { z } from '../../../shared/zod.ts';
import { otTool } from './common.ts';
import type { ResolvedDeps } from './env.ts';
import { runCommandText } from './program.ts';
import { errorMessage } from '../../../shared/errorMessage.ts';
import { planFirstOn } from '../../../shared/planFirst.ts';

export const CODE_TOOL = 'ot.run';

export const CODE_TOOL_DESCRIPTION = [
  "Run a short program in Otto's command language: several tool calls in one step, returning only the last line's value (intermediate results stay out of your context).",
  'Syntax: one statement per line, `name = pack.fn(key=value)` or `pack.fn(key=value)`; keyword arguments only; values are strings, numbers, True/False/None, lists, {"key": value} dicts, variables, or nested calls, e.g. `llm.transform(input=tabs.list(), prompt="Which tab is about cooking?")`. No operators, loops or attribute access.',
  'Find tools and their arguments with `ot.help(query="...")` or `ot.tools(pattern="...", info="full")` (you can run those here too).',
].join('\n');

export function runTool(deps: ResolvedDeps) {
  return otTool({
    name: 'run',
    description: CODE_TOOL_DESCRIPTION,
    parameters: z.object({
      code: z.string().min(1).describe('The program: one statement per line; the last line is the result'),
    }),
    effect: 'changes',
    // Its calls are checked one by one with the exact labels of their arguments; its output carries the labels of
    // the program's value, which the interpreter reports (program.ts).
    flow: { source: 'reported', sink: 'none' },
    // Never judged as a whole: each call inside is judged when it runs (the agent's nested-call gate, issue #31).
    examples: [
      'ot.run(code="tabs = tabs.list()\\nllm.transform(input=tabs, prompt=\\"Which tab is about cooking?\\")")',
    ],
    returns: 'The value of the last statement, formatted (YAML flow style, or JSON per config).',
    spanFields: (args) => ({ codeLen: args.code.length }),
    async run(args, ctx) {
      const outcome = await runCommandText(args.code, ctx, {
        registry: deps.registry(),
        label: CODE_TOOL,
        planFirst: planFirstOn(ctx.config.agent),
      });
      if (ctx.config.stats.enabled && outcome.calls > 0) {
        try {
          await deps.stores.recordSaving({
            source: 'code_mode',
            tool: CODE_TOOL,
            roundTripsAvoided: Math.max(0, outcome.calls - 1),
            charsKeptOut: Math.max(0, outcome.callChars - outcome.output.length),
          });
        } catch (error) {
          ctx.logger.warn(`code mode statistics not recorded: ${errorMessage(error)}`);
        }
      }
      return outcome.output;
    },
  });
}
