/**
 * `ot.run`, the one tool of code mode (config `agent.mode: code | both`): the model writes a short command-language
 * program instead of calling tools one response at a time. A chain like
 * `llm.transform(input=tabs.list(), prompt="...")` then costs one model round trip, and the intermediate results
 * never enter the model's context — only the last statement's value comes back.
 *
 * Every call inside runs through the interceptor (`ctx.callTool`). Approval: the program is analysed before it runs; if
 * any call may be destructive (a tool that is not read-only, unless its own `isDestructive` hook clears the literal
 * arguments), the whole `ot.run` call needs the user's approval, like that tool would.
 *
 * Statistics (config `stats.enabled`): each run records `round_trips_avoided` = calls − 1 and `chars_kept_out` =
 * characters all calls produced − characters returned, as a `code_mode` saving (they feed `context_saved` and
 * `time_saved_ms` in `ot.stats`).
 */
import { z } from '../../../shared/zod.ts';
import {
  commandSource,
  parse,
  resolveAlias,
  type Expr,
  type Program,
  type SnippetMap,
} from '../../../command/index.ts';
import type { ToolContext } from '../../context.ts';
import type { ToolRegistry } from '../../ToolRegistry.ts';
import { otTool } from './common.ts';
import type { ResolvedDeps } from './env.ts';
import { runCommandText } from './program.ts';

export const CODE_TOOL = 'ot.run';

export const CODE_TOOL_DESCRIPTION = [
  "Run a short program in Otto's command language: several tool calls in one step, returning only the last line's value (intermediate results stay out of your context).",
  'Syntax: one statement per line, `name = pack.fn(key=value)` or `pack.fn(key=value)`; keyword arguments only; values are strings, numbers, True/False/None, lists, {"key": value} dicts, variables, or nested calls, e.g. `llm.transform(input=tabs.list(), prompt="Which tab is about cooking?")`. No operators, loops or attribute access.',
  'Find tools and their arguments with `ot.help(query="...")` or `ot.tools(pattern="...", info="full")` (you can run those here too).',
].join('\n');

/** The value of an expression made only of literals, or NOT_LITERAL. */
const NOT_LITERAL = Symbol('not literal');
function literalValue(expr: Expr): unknown {
  switch (expr.kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return expr.value;
    case 'null':
      return null;
    case 'list': {
      const out: unknown[] = [];
      for (const item of expr.items) {
        const v = literalValue(item);
        if (v === NOT_LITERAL) return NOT_LITERAL;
        out.push(v);
      }
      return out;
    }
    case 'dict': {
      const out: Record<string, unknown> = {};
      for (const e of expr.entries) {
        const v = literalValue(e.value);
        if (v === NOT_LITERAL) return NOT_LITERAL;
        Object.defineProperty(out, e.key, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    default:
      return NOT_LITERAL;
  }
}

function* callsOf(program: Program): Generator<Extract<Expr, { kind: 'call' }>> {
  const stack: Expr[] = program.statements.map((s) => (s.kind === 'assign' ? s.value : s.expr)).reverse();
  while (stack.length) {
    const e = stack.pop()!;
    if (e.kind === 'call') {
      yield e;
      for (const a of e.args) stack.push(a.value);
    } else if (e.kind === 'list') stack.push(...e.items);
    else if (e.kind === 'dict') for (const entry of e.entries) stack.push(entry.value);
  }
}

/**
 * Whether running `code` may do something destructive. A program that does not parse, or calls an unknown tool, runs
 * nothing (the interpreter checks everything first), so it is not destructive.
 */
export async function programIsDestructive(code: string, registry: ToolRegistry, ctx: ToolContext): Promise<boolean> {
  let program: Program;
  try {
    program = parse(commandSource(code, ctx.config.snippets as SnippetMap).source);
  } catch {
    return false;
  }
  for (const call of callsOf(program)) {
    let name: string;
    try {
      name = resolveAlias(call.callee, ctx.config.aliases);
    } catch {
      return false;
    }
    const tool = registry.resolve(name);
    if (!tool || tool.readOnly) continue;
    if (!tool.isDestructive) return true;
    const args: Record<string, unknown> = {};
    for (const a of call.args) {
      const v = literalValue(a.value);
      if (v === NOT_LITERAL) return true; // depends on a value only known while running
      args[a.name] = v;
    }
    const parsed = tool.parameters.safeParse(args);
    // A tool's check may need the page (is this ref a password field?), so it may answer asynchronously.
    if (!parsed.success || (await tool.isDestructive(parsed.data, ctx))) return true;
  }
  return false;
}

export function runTool(deps: ResolvedDeps) {
  return otTool({
    name: 'run',
    description: CODE_TOOL_DESCRIPTION,
    parameters: z.object({
      code: z.string().min(1).describe('The program: one statement per line; the last line is the result'),
    }),
    readOnly: false,
    // Its calls are checked one by one with the exact labels of their arguments; its output carries the labels of
    // the program's value, which the interpreter reports (program.ts).
    flow: { source: 'reported', sink: 'none' },
    isDestructive: (args, ctx) => programIsDestructive(args.code, deps.registry(), ctx),
    examples: [
      'ot.run(code="tabs = tabs.list()\\nllm.transform(input=tabs, prompt=\\"Which tab is about cooking?\\")")',
    ],
    returns: 'The value of the last statement, formatted (YAML flow style, or JSON per config).',
    spanFields: (args) => ({ codeLen: args.code.length }),
    async run(args, ctx) {
      const outcome = await runCommandText(args.code, ctx, { registry: deps.registry(), label: CODE_TOOL });
      if (ctx.config.stats.enabled && outcome.calls > 0) {
        try {
          await deps.stores.recordSaving({
            source: 'code_mode',
            tool: CODE_TOOL,
            roundTripsAvoided: Math.max(0, outcome.calls - 1),
            charsKeptOut: Math.max(0, outcome.callChars - outcome.output.length),
          });
        } catch (error) {
          ctx.logger.warn(
            `code mode statistics not recorded: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      return outcome.output;
    },
  });
}
