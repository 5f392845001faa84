/**
 * The interpreter: walks a parsed Program. It never evaluates host code — the only effects are the injected `call`,
 * invoked once per call expression, inner calls first, arguments in source order.
 *
 * Before anything runs, the whole program is checked: aliases resolved, every callee known (when `isKnownCallable`
 * is given) and every variable assigned before it is read — so a typo on line 3 cannot leave lines 1–2 half done.
 */
import { resolveAlias, type AliasMap } from './toolAliases.ts';
import type { Expr, Program } from './ast.ts';
import { CommandError, describeThrown, type SourcePosition } from './commandErrors.ts';
import { parse } from './parser.ts';
import { join, Labelled, NONE, type ValueLabels } from './valueLabels.ts';
import { maybeYield, newBudget, spendCall, type RunBudget } from './budget.ts';
import { raceAbort } from '../shared/raceAbort.ts';

/**
 * Runs one tool. The lead wires this to the tool interceptor, so every call goes through it. `labels` are the
 * provenance labels of the arguments (their union); return a `Labelled` to add what the call itself read.
 */
export type CallFn = (
  qualifiedName: string,
  args: Record<string, unknown>,
  position: SourcePosition,
  labels: ValueLabels,
) => Promise<unknown>;

export interface InterpreterOptions {
  call: CallFn;
  /** When given, a program calling anything it rejects fails before running, with the callee's position. */
  isKnownCallable?: (qualifiedName: string) => boolean;
  /** Aliases resolved at each callee (same effect as `rewriteAliases`, but positions stay those of the source). */
  aliases?: AliasMap;
  /** Variables defined before the program starts. */
  variables?: Readonly<Record<string, unknown>>;
  signal?: AbortSignal;
  /** Prefix for error messages, e.g. `snippet 'brv'`. */
  label?: string;
  /** Labels every literal carries (what the program's author had read; see valueLabels.ts). Default none. */
  literalLabels?: ValueLabels;
  /** Labels of the `variables` given. */
  variableLabels?: Readonly<Record<string, ValueLabels>>;
  /** Tool-call budget shared with the programs this one runs in or starts (budget.ts); default: a fresh one. */
  budget?: RunBudget;
}

export interface RunResult {
  /** The value of the last statement (an expression's value or the value just assigned); null for an empty program. */
  value: unknown;
  /** All variables after the run. */
  variables: Record<string, unknown>;
  /** How many times `call` was invoked. */
  calls: number;
  /** The provenance labels of `value`. */
  labels: ValueLabels;
  /** The union of the labels of every value the program computed (what it read in all). */
  allLabels: ValueLabels;
}

/** Parses and runs `source`. Throws only CommandError (tool failures are wrapped with the call's line and column). */
export async function runProgram(source: string, options: InterpreterOptions): Promise<RunResult> {
  let program: Program;
  try {
    program = parse(source);
  } catch (error) {
    throw options.label && error instanceof CommandError ? error.withLabel(options.label) : error;
  }
  return interpret(program, options);
}

/**
 * Checks the program without running it: alias cycles, unknown tools, variables read before assignment. Returns the
 * resolved tool name of every call in evaluation order.
 */
export function checkProgram(program: Program, options: Omit<InterpreterOptions, 'call'> = {}): string[] {
  const defined = new Set(Object.keys(options.variables ?? {}));
  const calls: string[] = [];
  const visit = (expr: Expr): void => {
    switch (expr.kind) {
      case 'variable':
        if (!defined.has(expr.name)) throw unknownVariable(expr.name, expr.pos, defined);
        return;
      case 'list':
        expr.items.forEach(visit);
        return;
      case 'dict':
        expr.entries.forEach((entry) => visit(entry.value));
        return;
      case 'call': {
        expr.args.forEach((arg) => visit(arg.value));
        let name: string;
        try {
          name = resolveAlias(expr.callee, options.aliases ?? {});
        } catch (error) {
          throw error instanceof CommandError
            ? new CommandError(error.reason, { kind: 'alias', position: expr.pos })
            : error;
        }
        if (options.isKnownCallable && !options.isKnownCallable(name)) {
          const shown = name === expr.callee ? `'${name}'` : `'${expr.callee}' (alias of '${name}')`;
          throw new CommandError(`unknown tool ${shown}; search with ot.help(query="${name.replace(/["\\]/g, '')}")`, {
            kind: 'name',
            position: expr.pos,
          });
        }
        calls.push(name);
        return;
      }
      default:
        return;
    }
  };
  try {
    for (const statement of program.statements) {
      if (statement.kind === 'assign') {
        visit(statement.value);
        defined.add(statement.name);
      } else visit(statement.expr);
    }
  } catch (error) {
    throw options.label && error instanceof CommandError ? error.withLabel(options.label) : error;
  }
  return calls;
}

function unknownVariable(name: string, pos: SourcePosition, defined: ReadonlySet<string>): CommandError {
  const known = [...defined].sort();
  const hint = known.length ? ` (defined: ${known.join(', ')})` : '';
  return new CommandError(`unknown variable '${name}'${hint}`, { kind: 'name', position: pos });
}

/** Runs a parsed program (see `runProgram`). */
export async function interpret(program: Program, options: InterpreterOptions): Promise<RunResult> {
  checkProgram(program, options);
  const run = new Run(options);
  try {
    let result: Value = { v: null, l: NONE };
    for (const statement of program.statements) {
      run.checkAborted(statement.pos);
      if (statement.kind === 'assign') {
        result = await run.evaluate(statement.value);
        run.variables.set(statement.name, result);
      } else {
        result = await run.evaluate(statement.expr);
      }
    }
    const variables: Record<string, unknown> = {};
    for (const [k, x] of run.variables) variables[k] = x.v;
    return { value: result.v, variables, calls: run.calls, labels: result.l, allLabels: run.seen };
  } catch (error) {
    // A budget stop says itself what ran away; wrapping it once per nesting level would bury that.
    if (error instanceof CommandError && error.kind === 'limit') throw error;
    const wrapped =
      error instanceof CommandError
        ? error
        : new CommandError(`internal error: ${describeThrown(error)}`, { kind: 'tool', cause: error });
    throw options.label ? wrapped.withLabel(options.label) : wrapped;
  }
}

/** A value with its provenance labels. */
interface Value {
  readonly v: unknown;
  readonly l: ValueLabels;
}

class Run {
  readonly variables: Map<string, Value>;
  readonly literal: ValueLabels;
  readonly budget: RunBudget;
  calls = 0;
  /** Union of every label seen (for an error message, which may quote anything the program read). */
  seen: ValueLabels;

  constructor(private readonly options: InterpreterOptions) {
    this.literal = options.literalLabels ?? NONE;
    this.budget = options.budget ?? newBudget();
    this.seen = this.literal;
    const given = options.variableLabels ?? {};
    this.variables = new Map(
      Object.entries(options.variables ?? {}).map(([k, v]) => [k, { v, l: given[k] ?? this.literal }]),
    );
  }

  checkAborted(pos: SourcePosition): void {
    if (this.options.signal?.aborted)
      throw new CommandError('aborted', { kind: 'aborted', position: pos, cause: this.options.signal.reason });
  }

  async evaluate(expr: Expr): Promise<Value> {
    switch (expr.kind) {
      case 'string':
      case 'number':
      case 'boolean':
        return { v: expr.value, l: this.literal };
      case 'null':
        return { v: null, l: this.literal };
      case 'variable': {
        const found = this.variables.get(expr.name);
        if (!found) throw unknownVariable(expr.name, expr.pos, new Set(this.variables.keys()));
        return found;
      }
      case 'list': {
        const items: unknown[] = [];
        let l = this.literal;
        for (const item of expr.items) {
          const x = await this.evaluate(item);
          items.push(x.v);
          l = join(l, x.l);
        }
        return { v: items, l };
      }
      case 'dict': {
        const dict: Record<string, unknown> = {};
        let l = this.literal;
        for (const entry of expr.entries) {
          const x = await this.evaluate(entry.value);
          defineOwn(dict, entry.key, x.v);
          l = join(l, x.l);
        }
        return { v: dict, l };
      }
      case 'call': {
        const args: Record<string, unknown> = {};
        let l = NONE;
        for (const arg of expr.args) {
          const x = await this.evaluate(arg.value);
          defineOwn(args, arg.name, x.v);
          l = join(l, x.l);
        }
        const name = resolveAlias(expr.callee, this.options.aliases ?? {});
        // Let the worker breathe (Cancel must get through), then check for it and for the run's budget.
        await maybeYield(this.budget);
        this.checkAborted(expr.pos);
        spendCall(this.budget);
        this.calls++;
        try {
          const pending = this.options.call(name, args, expr.pos, l);
          // Cancel ends the program even when a tool ignores its signal.
          // (A signal that fired during the call's own synchronous part stops the run at the next call instead.)
          const signal = this.options.signal;
          const out = await (signal && !signal.aborted ? raceAbort(pending, signal) : pending);
          // A result carries its inputs' labels plus what the call read.
          const value = out instanceof Labelled ? { v: out.value, l: join(l, out.labels) } : { v: out, l };
          this.seen = join(this.seen, value.l);
          return value;
        } catch (error) {
          if (error instanceof CommandError && error.kind === 'limit') throw error;
          if (this.options.signal?.aborted) {
            throw new CommandError(`${name} aborted`, { kind: 'aborted', position: expr.pos, cause: error });
          }
          throw new CommandError(`${name} failed: ${describeThrown(error)}`, {
            kind: 'tool',
            position: expr.pos,
            cause: error,
          });
        }
      }
    }
  }
}

/** Sets an own, enumerable property even for keys like `__proto__`. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
