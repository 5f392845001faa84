/**
 * The one error type of the command language. Everything in src/command that rejects bad input (lexer, parser,
 * interpreter, alias and snippet handling, literal formatting) throws a CommandError and nothing else; failures of
 * the injected `call` are wrapped in one too (the original is kept as `cause`).
 */

/** A place in a source text. `line` and `column` are 1-based; `column` counts UTF-16 code units; `offset` is 0-based. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export type CommandErrorKind =
  | 'syntax' // the text does not lex or parse
  | 'name' // unknown variable or unknown tool
  | 'argument' // positional or duplicate argument
  | 'value' // a value that cannot be written as a literal
  | 'tool' // the injected call failed
  | 'aborted' // the run's AbortSignal fired
  | 'alias' // bad alias configuration
  | 'snippet' // bad snippet invocation, definition or template
  | 'limit'; // a run went past its nesting or step budget (budget.ts)

export interface CommandErrorOptions {
  kind: CommandErrorKind;
  position?: SourcePosition | null;
  /** Where the source came from, e.g. `snippet 'brv'`; printed before the position. */
  label?: string;
  cause?: unknown;
}

export class CommandError extends Error {
  override readonly name = 'CommandError';
  readonly kind: CommandErrorKind;
  /** The message without label and position, e.g. `unexpected ')'`. */
  readonly reason: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly offset: number | null;
  readonly label: string | null;

  constructor(reason: string, options: CommandErrorOptions) {
    const position = options.position ?? null;
    const label = options.label ?? null;
    super(
      formatCommandMessage(reason, position, label),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.kind = options.kind;
    this.reason = reason;
    this.line = position?.line ?? null;
    this.column = position?.column ?? null;
    this.offset = position?.offset ?? null;
    this.label = label;
  }

  get position(): SourcePosition | null {
    return this.line === null || this.column === null || this.offset === null
      ? null
      : { line: this.line, column: this.column, offset: this.offset };
  }

  /** The same error, attributed to a labelled source (an existing label is kept as the inner part). */
  withLabel(label: string): CommandError {
    const combined = this.label ? `${label}, ${this.label}` : label;
    return new CommandError(this.reason, {
      kind: this.kind,
      position: this.position,
      label: combined,
      cause: this.cause,
    });
  }
}

/** `snippet 'x', line 2, column 5: unexpected ')'`; parts that are absent are left out. */
export function formatCommandMessage(reason: string, position: SourcePosition | null, label: string | null): string {
  const where: string[] = [];
  if (label) where.push(label);
  if (position) where.push(`line ${position.line}, column ${position.column}`);
  return where.length ? `${where.join(', ')}: ${reason}` : reason;
}

/** Maps offsets of one source text to line/column positions. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(source: string) {
    for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): SourcePosition {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] ?? 0) + 1, offset };
  }
}

/** Short, printable rendering of a piece of source text for messages. */
export function quoteSnippet(text: string, max = 30): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  let printable = '';
  for (const c of cut) {
    const code = c.charCodeAt(0);
    printable += code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : c;
  }
  return `'${printable}'`;
}

/** The message of anything thrown, without ever throwing itself. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  try {
    return String(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}
