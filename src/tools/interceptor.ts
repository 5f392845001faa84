/**
 * The tool-execution interceptor (docs/specs/003-tool-interceptor.md): the only path by which anything runs a tool —
 * the model's calls, the command line, snippets, the SDK, nested `ctx.callTool`. Tools hold business logic only; the
 * conveniences live here, once:
 *   before  validate arguments against the zod schema (defaults applied), log `Starting` and the truncated
 *           arguments, start a high-resolution timer;
 *   after   duration in ms (2 decimals), log `Completed`/`Failed`, merge `_execution_metadata` into a copy of a
 *           plain-object result, report a record for statistics;
 *   error   log the message and the first 5 stack lines, report the record, rethrow.
 * Settings come from config `tool_execution` and are frozen per interceptor (a new config means a new interceptor).
 * A tool that declares `conveniences` does not get those doubled. Every call keeps its state in
 * locals, so concurrent calls cannot see each other's timers, arguments or results.
 */
import { redactDeep } from '../config/redact.ts';
import { ConfigSchema, DEFAULT_CONFIG, type OttoConfig, type ToolExecutionSettings } from '../config/schema.ts';
import { log as sharedLog, previewValue, type Logger } from '../shared/log.ts';
import { type ToolContext, qualifiedNameOf, type AnyTool, type ParamsSchema, type BaseTool } from './Tool.ts';
import { validateArguments } from './validate.ts';
import type { Labels } from './guard/labels.ts';
import { isPlainObject } from '../shared/plainObject.ts';
import { round2 } from '../shared/round.ts';
import { errorMessage } from '../shared/errorMessage.ts';
import { errorOutputMessage } from './errorOutput.ts';

/** What the statistics recorder receives for every call, success or not. */
export interface ToolCallRecord {
  /** Qualified name (`dom.click`). */
  readonly tool: string;
  readonly durationMs: number;
  readonly success: boolean;
  /** The thrown error's name (`ToolValidationError`, `AbortError`, `TypeError`), or `ResultError` for `{success:false}`
   * and for an `Error: …` text. */
  readonly errorType?: string;
  /** Characters of arguments in (the model's raw JSON when given) and of the result out. */
  readonly charsIn: number;
  readonly charsOut: number;
}

export interface InterceptorOptions {
  /** Overrides of config `tool_execution`; missing keys take the defaults (true/true/true/true/100). */
  config?: Partial<ToolExecutionSettings>;
  /** Where the `[TOOL EXECUTION]` lines go (default: the worker's shared logger). */
  logger?: Logger;
  /** Called once per call with its record (the stats store plugs in here). Errors it throws are logged, not raised. */
  onRecord?: (record: ToolCallRecord) => void;
  /** High-resolution clock in ms; injectable for tests. Default `performance.now()`. */
  clock?: () => number;
  /**
   * Removes secret values from text (the worker passes one that knows every stored secret). Applied to every result
   * and every error message before anyone — the model, the command line, a calling tool — sees them.
   */
  redact?: (text: string) => string;
}

export interface ExecuteOptions {
  /**
   * Runs after validation and before the tool, with the parsed arguments — where the agent asks for approval of a
   * destructive call. Throwing refuses the call (logged and recorded like any error). Its wait is not timed. It gets
   * the call's context too: its data-flow guard (`ctx.flow`) is consulted next, and an approval may cover both.
   */
  gate?: (tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext) => void | Promise<void>;
}

export interface ExecutionMetadata {
  duration_ms: number;
  tool_name: string;
  timestamp: string;
  [key: string]: unknown;
}

const TOOL_EXECUTION_SCHEMA = ConfigSchema.shape.tool_execution.unwrap();
const PREFIX = '[TOOL EXECUTION]';
// Argument keys whose values are never logged: a password typed into a page is no configured secret, so the
// redactor would not know it. Matched on the key's words (`api_key`, `apiKey`, `X-Api-Key`, `client_secret`), so
// that harmless keys that merely contain such letters (`max_tokens`, `passage`, `keyboard`) are still shown.
const SENSITIVE_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'secret',
  'token',
  'apikey',
  'authorization',
  'auth',
  'credential',
  'credentials',
  'cookie',
  'otp',
  'pin',
]);
const SENSITIVE_PAIRS = [/\bapi key\b/, /\bprivate key\b/, /\bsecret key\b/, /\baccess key\b/];

/** Whether an argument's key names something secret: its words, split at `_`, `-`, `.`, spaces and camelCase. */
export function isSensitiveKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((w) => SENSITIVE_WORDS.has(w))) return true;
  const phrase = words.join(' ');
  return SENSITIVE_PAIRS.some((p) => p.test(phrase));
}
const defaultClock = (): number => performance.now();

/** Cuts a value's text to `max` characters, ending in `...` when cut (so the line still reads as truncated). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return max > 3 ? text.slice(0, max - 3) + '...' : text.slice(0, max);
}

/** `k: v, ...` with each value cut to `max` characters (docs/specs/003-tool-interceptor.md, 2.2). */
export function formatArguments(args: unknown, max: number): string {
  if (!isPlainObject(args)) return cut(previewValue(args, max), max);
  let out = '';
  for (const key in args) {
    const value = isSensitiveKey(key) ? '[redacted]' : cut(previewValue(args[key], max), max);
    out += out ? `, ${key}: ${value}` : `${key}: ${value}`;
  }
  return out;
}

/** The first `n` stack frames (V8's `    at ...` lines), without the message header. */
export function stackLines(error: unknown, n = 5): string[] {
  if (!(error instanceof Error) || !error.stack) return [];
  const lines = error.stack.split('\n');
  const frames = lines.filter((line) => /^\s+at /.test(line));
  return (frames.length ? frames : lines.slice(1)).slice(0, n).map((line) => line.trim());
}

function errorType(error: unknown): string {
  if (
    error instanceof Error ||
    (typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string')
  ) {
    return (error as { name: string }).name;
  }
  return typeof error;
}

function textLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === undefined) return 0;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return previewValue(value, 100_000).length; // cycles or BigInt: an estimate is enough for statistics
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export class ToolInterceptor {
  /** The settings in force: validated, complete and frozen. */
  readonly config: Readonly<ToolExecutionSettings>;
  private readonly logger: Logger;
  private readonly onRecord: ((record: ToolCallRecord) => void) | undefined;
  private readonly clock: () => number;
  private readonly options: InterceptorOptions;

  constructor(options: InterceptorOptions = {}) {
    const parsed = TOOL_EXECUTION_SCHEMA.safeParse({ ...DEFAULT_CONFIG.tool_execution, ...options.config });
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join('.') || 'tool_execution'}: ${i.message}`).join('; ');
      throw new Error(`Invalid tool_execution config: ${why}`);
    }
    // A copy, frozen: changing the caller's object later (or this one) cannot alter calls already configured.
    this.config = Object.freeze(parsed.data);
    this.options = { ...options, config: this.config };
    this.logger = options.logger ?? sharedLog;
    this.onRecord = options.onRecord;
    this.clock = options.clock ?? defaultClock;
  }

  /** An interceptor for a loaded config (its `tool_execution` section). */
  static fromConfig(
    config: Pick<OttoConfig, 'tool_execution'>,
    options: Omit<InterceptorOptions, 'config'> = {},
  ): ToolInterceptor {
    return new ToolInterceptor({ ...options, config: config.tool_execution });
  }

  /** Runs `tool` with `args` through validation, logging, timing and metadata. Rethrows whatever the tool throws. */
  async execute<R = unknown>(
    tool: BaseTool<ParamsSchema, R>,
    args: unknown,
    ctx: ToolContext,
    options?: ExecuteOptions,
  ): Promise<R> {
    const cfg = this.config;
    const own = tool.conveniences;
    const name = qualifiedNameOf(tool);
    const logger = this.logger;
    const logging = cfg.enable_logging && !own?.logging && logger.enabled('debug');
    let start = this.clock();
    let result: unknown;
    const flow = ctx.flow;
    let before: Labels | undefined;
    let checkedArgs: Record<string, unknown> | undefined;
    try {
      if (ctx.signal.aborted) throw abortError(ctx.signal);
      // BEFORE: validate (unless the tool does it), let the agent approve, log, start the timer.
      const input = (
        cfg.enable_validation && !own?.validation ? validateArguments(tool.parameters, args) : args
      ) as Record<string, unknown>;
      if (options?.gate) await options.gate(tool, input, ctx);
      // The data-flow guard: may this call send what it could carry where it goes? Throws before the tool runs.
      if (flow) before = await flow.check(tool as AnyTool, input, ctx);
      checkedArgs = input;
      if (logging) {
        logger.debug(`${PREFIX} Starting ${name}`, { tool: name });
        if (cfg.log_arguments)
          logger.debug(`${PREFIX} Arguments: ${formatArguments(args, cfg.truncate_logs)}`, { tool: name });
      }
      start = this.clock();
      // EXECUTE: the raw tool.
      result = await tool.execute(input, ctx);
    } catch (error) {
      const durationMs = round2(this.clock() - start);
      if (cfg.enable_logging && !own?.logging) {
        logger.error(`${PREFIX} Error in ${name}: ${errorMessage(error)}`, { tool: name, duration_ms: durationMs });
        const frames = stackLines(error);
        if (frames.length) logger.error(`${PREFIX} Stack trace: ${frames.join('\n')}`, { tool: name });
      }
      this.record(name, durationMs, false, errorType(error), args, undefined);
      // An error message can quote what the tool read: label it like an output.
      if (flow && checkedArgs) await flow.record(tool as AnyTool, checkedArgs, ctx, before).catch(() => undefined);
      throw this.cleanError(error);
    }
    // AFTER: duration, completion line, metadata, record.
    const durationMs = round2(this.clock() - start);
    if (flow && checkedArgs) await flow.record(tool as AnyTool, checkedArgs, ctx, before);
    const failure = failureOf(result);
    const failed = failure !== undefined;
    if (logging) {
      if (failed) {
        const why = cut(previewValue(failure.why, cfg.truncate_logs), cfg.truncate_logs);
        logger.debug(`${PREFIX} Failed ${name} (${durationMs}ms): ${why}`, { tool: name, duration_ms: durationMs });
      } else logger.debug(`${PREFIX} Completed ${name} (${durationMs}ms)`, { tool: name, duration_ms: durationMs });
    }
    if (cfg.enable_metadata && !own?.metadata && isPlainObject(result)) {
      result = withMetadata(result, name, durationMs, own?.timing === true);
    }
    this.record(name, durationMs, !failed, failed ? 'ResultError' : undefined, args, result);
    return (this.options.redact ? redactDeep(result, this.options.redact) : result) as R;
  }

  /** The error with its message cleaned of secrets (same object, so its type and stack stay what they were). */
  private cleanError(error: unknown): unknown {
    const redact = this.options.redact;
    if (!redact) return error;
    if (error instanceof Error) {
      const clean = redact(error.message);
      if (clean !== error.message) error.message = clean;
      return error;
    }
    return typeof error === 'string' ? redact(error) : error;
  }

  private record(
    tool: string,
    durationMs: number,
    success: boolean,
    type: string | undefined,
    args: unknown,
    result: unknown,
  ): void {
    const onRecord = this.onRecord;
    if (!onRecord) return;
    try {
      const charsIn = textLength(args);
      const rec: ToolCallRecord =
        type === undefined
          ? { tool, durationMs, success, charsIn, charsOut: textLength(result) }
          : { tool, durationMs, success, errorType: type, charsIn, charsOut: textLength(result) };
      onRecord(rec);
    } catch (error) {
      this.logger.warn(`${PREFIX} Statistics hook failed for ${tool}: ${errorMessage(error)}`);
    }
  }
}

/** What a result that reports failure says (`{success: false, error}` or an `Error: …` text); undefined on success. */
function failureOf(result: unknown): { why: unknown } | undefined {
  if (isPlainObject(result) && result.success === false) return { why: result.error };
  const message = errorOutputMessage(result);
  return message === undefined ? undefined : { why: message };
}

/**
 * A new object: the result's own keys, plus `_execution_metadata` merged over any the tool already set
 * (docs/specs/003-tool-interceptor.md,
 * 3.3 — preserve the original structure). The tool's object is not touched: it may be shared or frozen.
 * With `keepToolTiming`, a `duration_ms` the tool measured itself wins over ours.
 */
export function withMetadata(
  result: Record<string, unknown>,
  toolName: string,
  durationMs: number,
  keepToolTiming = false,
): Record<string, unknown> {
  const existing = result._execution_metadata;
  const base = isPlainObject(existing) ? existing : undefined;
  const meta: ExecutionMetadata = {
    ...base,
    duration_ms: durationMs,
    tool_name: toolName,
    timestamp: new Date().toISOString(),
  };
  if (keepToolTiming && typeof base?.duration_ms === 'number') meta.duration_ms = base.duration_ms;
  return { ...result, _execution_metadata: meta };
}
