/**
 * What every `ot.*` tool shares: the `info` and `pattern` parameters, case-insensitive substring filtering, the one
 * output formatter (config `output.format`: YAML flow style by default, JSON on request), and a LogSpan named
 * `ot.<function>` around each call (docs/specs/002-ot-tools.md, "Logging").
 */
import { z } from '../../../shared/zod.ts';
import type { LogFields } from '../../../shared/log.ts';
import { formatOutput } from '../../../shared/outputFormat.ts';
import { errorOutputMessage } from '../../errorOutput.ts';
import { defineTool } from '../../defineTool.ts';
import { FLOW, type ToolFlow } from '../../guard/flow.ts';
import type { ToolContext, AnyTool, ParamsSchema, ToolEffect } from '../../Tool.ts';

export const PACK = 'ot';

export const INFO_LEVELS = ['list', 'min', 'full'] as const;
export type InfoLevel = (typeof INFO_LEVELS)[number];

export const info = z
  .enum(INFO_LEVELS)
  .default('min')
  .describe('Detail: list = names, min = names and short descriptions (default), full = everything');

export const pattern = z.string().default('').describe('Case-insensitive substring filter on names ("" = all)');

/** True when `pattern` is empty or a case-insensitive substring of any of `texts`. */
export function matches(pattern: string, ...texts: (string | undefined)[]): boolean {
  if (!pattern) return true;
  const p = pattern.toLowerCase();
  return texts.some((t) => t !== undefined && t.toLowerCase().includes(p));
}

export function firstLine(text: string | undefined): string {
  if (!text) return '';
  const nl = text.indexOf('\n');
  return (nl < 0 ? text : text.slice(0, nl)).trim();
}

/** A brief description: the first sentence of the first line, at most `max` characters. */
export function brief(text: string | undefined, max = 120): string {
  const line = firstLine(text);
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > max ? `${sentence.slice(0, max - 1).trimEnd()}…` : sentence;
}

/** Formats a value as the config asks (strings pass through untouched). */
export function output(ctx: Pick<ToolContext, 'config'>, value: unknown): string {
  return formatOutput(value, ctx.config.output.format);
}

export interface OtToolSpec<S extends ParamsSchema> {
  name: string;
  description: string;
  parameters: S;
  /** Default 'reads'; tools that write (notify, reload) say 'changes', which never asks on its own. */
  effect?: ToolEffect;
  /** Default FLOW.internal: Otto's own tools read nothing from sites and send nothing to them. */
  flow?: ToolFlow;
  examples: string[];
  returns: string;
  /** The span's fields (default: the arguments). */
  spanFields?: (args: z.output<S>) => LogFields;
  /** The result: a string is returned as is, anything else through the formatter. */
  run(args: z.output<S>, ctx: ToolContext): unknown;
}

/** An `ot.<name>` tool: runs `run` inside the span `ot.<name>` and formats what it returns. */
export function otTool<S extends ParamsSchema>(spec: OtToolSpec<S>): AnyTool {
  const tool = defineTool({
    pack: PACK,
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    effect: spec.effect ?? 'reads',
    flow: spec.flow ?? FLOW.internal,
    examples: spec.examples,
    returns: spec.returns,
    async execute(args: z.output<S>, ctx: ToolContext): Promise<string> {
      const span = ctx.logger.span(
        `${PACK}.${spec.name}`,
        spec.spanFields ? spec.spanFields(args) : (args as LogFields),
      );
      try {
        const text = output(ctx, await spec.run(args, ctx));
        const failure = errorOutputMessage(text);
        if (failure === undefined) span.end({ chars: text.length });
        else span.fail(failure, { chars: text.length });
        return text;
      } catch (error) {
        span.fail(error);
        throw error;
      }
    },
  });
  return tool as unknown as AnyTool;
}
