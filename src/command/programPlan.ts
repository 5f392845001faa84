/**
 * What a program's text commits to before it runs (plan first, #42 part 2; docs/decisions/plan-first.md): the calls
 * it writes — each with the arguments it gives as literals — and the strings it writes itself. The text is the
 * plan: a call at run time is in it when the program writes a call to the same tool whose literal arguments the call
 * has with the same values (the arguments the program computes are free: a page can change what is read, never
 * which tool runs or on what the program named). A program inside the program counts when its code is a literal;
 * one whose code is computed adds nothing, so its steps are not in the plan.
 */
import type { Expr, Program, Statement } from './ast.ts';
import { parse } from './parser.ts';

export type PlanLiteral = string | number | boolean | null;

export interface PlanStep {
  /** The callee as written (an alias or snippet name is resolved by the checker). */
  readonly tool: string;
  /** The keyword arguments given as literals. */
  readonly literals: Readonly<Record<string, PlanLiteral>>;
}

export interface ProgramPlan {
  readonly steps: readonly PlanStep[];
  /** Every string literal the program writes (a typed answer's enum values among them). */
  readonly strings: ReadonlySet<string>;
}

/** How deep literal programs inside programs are read. */
const MAX_NESTED = 4;
/** The tools whose `code` argument is a program (a literal one is read as part of the plan). */
const PROGRAM_TOOLS = new Set(['ot.run']);

function literalOf(e: Expr): PlanLiteral | undefined {
  if (e.kind === 'string' || e.kind === 'number' || e.kind === 'boolean') return e.value;
  if (e.kind === 'null') return null;
  return undefined;
}

function walk(e: Expr, steps: PlanStep[], strings: Set<string>, depth: number): void {
  if (e.kind === 'string') strings.add(e.value);
  else if (e.kind === 'list') for (const item of e.items) walk(item, steps, strings, depth);
  else if (e.kind === 'dict') for (const entry of e.entries) walk(entry.value, steps, strings, depth);
  else if (e.kind === 'call') {
    const literals: Record<string, PlanLiteral> = {};
    for (const arg of e.args) {
      const v = literalOf(arg.value);
      if (v !== undefined) literals[arg.name] = v;
      walk(arg.value, steps, strings, depth);
    }
    steps.push({ tool: e.callee, literals });
    const code = literals['code'];
    if (PROGRAM_TOOLS.has(e.callee) && typeof code === 'string' && depth < MAX_NESTED) {
      const inner = tryParse(code);
      if (inner) collect(inner.statements, steps, strings, depth + 1);
    }
  }
}

function collect(statements: readonly Statement[], steps: PlanStep[], strings: Set<string>, depth: number): void {
  for (const st of statements) walk(st.kind === 'assign' ? st.value : st.expr, steps, strings, depth);
}

function tryParse(source: string): Program | undefined {
  try {
    return parse(source);
  } catch {
    return undefined;
  }
}

/** The plan a program's text makes; a text that does not parse plans nothing. */
export function planOf(source: string): ProgramPlan {
  const steps: PlanStep[] = [];
  const strings = new Set<string>();
  const program = tryParse(source);
  if (program) collect(program.statements, steps, strings, 0);
  return { steps, strings };
}

/** Whether a call's literal-argument values equal the step's (JSON equality for the rare structured value). */
function sameLiterals(step: PlanStep, args: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(step.literals).every(([k, v]) => JSON.stringify(args[k] ?? null) === JSON.stringify(v));
}

/**
 * Whether `tool` called with `args` is a step of `plan`. `resolve` turns a callee as written into the tool's
 * qualified name (aliases); a callee it does not know matches only itself.
 */
export function inPlan(
  plan: ProgramPlan,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  resolve: (callee: string) => string | undefined = (c) => c,
): boolean {
  return plan.steps.some((s) => (resolve(s.tool) ?? s.tool) === tool && sameLiterals(s, args));
}
