/**
 * `ot.stats` (docs/specs/002-ot-tools.md, "Runtime Statistics"): a thin wrapper over the stats store
 * (src/storage/statsStore.ts). Its errors are returned as the reference's exact strings (`Error: Invalid period ...`,
 * `Error: Statistics collection is disabled in configuration`, `Error: Cannot write to '<output>': <reason>`). `output`
 * names an HTML report kept in Otto's files (open or download it from the panel); the reply's `html_report` names it.
 */
import { z } from '../../../shared/zod.ts';
import { StatsError } from '../../../results/statsLogic.ts';
import { otTool } from './common.ts';
import type { ResolvedDeps } from './env.ts';

export function statsTool(deps: ResolvedDeps) {
  return otTool({
    name: 'stats',
    description:
      'Usage statistics: tool calls, success rate, durations, model requests, and the context and time saved (large results stored, model round trips avoided by code mode). period = day, week, month or all; tool filters to one tool; output="name.html" also saves an HTML report in Otto\'s files.',
    parameters: z.object({
      period: z.string().default('all').describe('day, week, month or all'),
      tool: z.string().default('').describe('Only this tool, e.g. "tabs.list" ("" = all)'),
      output: z.string().optional().describe('Name of an HTML report to save, e.g. "stats.html"'),
    }),
    effect: 'changes',
    examples: [
      'ot.stats()',
      'ot.stats(period="day")',
      'ot.stats(tool="llm.transform")',
      'ot.stats(output="stats.html")',
    ],
    returns: '{period, total_calls, success_rate, context_saved, time_saved_ms, tools: [...], html_report, ...}',
    async run(args, ctx) {
      try {
        return await deps.stores.computeStats({
          period: args.period,
          ...(args.tool ? { tool: args.tool } : {}),
          ...(args.output !== undefined ? { output: args.output } : {}),
          enabled: ctx.config.stats.enabled,
        });
      } catch (error) {
        if (error instanceof StatsError) return error.message;
        throw error;
      }
    },
  });
}
