/**
 * Recursive-descent parser: tokens → Program. See README.md for the grammar. Nesting is limited to MAX_DEPTH so no
 * input can overflow the stack.
 */
import type { CallExpr, DictEntry, Expr, KeywordArg, Program, Statement } from './ast.ts';
import { CommandError, quoteSnippet, type SourcePosition } from './commandErrors.ts';
import { describeToken, tokenize, type Token } from './lexer.ts';

/** Deepest nesting of lists, dicts and calls accepted by the parser (and produced by formatLiteral). */
export const MAX_DEPTH = 200;

const CLOSING = new Set([')', ']', '}']);

const LITERAL_NAMES: Readonly<Record<string, boolean | null>> = {
  True: true,
  true: true,
  False: false,
  false: false,
  None: null,
  null: null,
};

export function isLiteralName(name: string): boolean {
  return Object.hasOwn(LITERAL_NAMES, name);
}

/** Parses a whole program; throws CommandError (kind `syntax` or `argument`) with line and column. */
export function parse(source: string): Program {
  return new Parser(source, tokenize(source)).program();
}

/** Parses a single expression (e.g. a literal), allowing surrounding blank lines and comments. */
export function parseExpression(source: string): Expr {
  const parser = new Parser(source, tokenize(source));
  return parser.soleExpression();
}

class Parser {
  private index = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: readonly Token[],
  ) {}

  program(): Program {
    const statements: Statement[] = [];
    this.skipSeparators();
    while (this.peek().kind !== 'eof') {
      statements.push(this.statement());
      const next = this.peek();
      if (next.kind === 'eof') break;
      if (next.kind !== 'newline' && !this.isPunct(next, ';')) {
        if (next.kind === 'punct' && CLOSING.has(next.text)) throw this.unexpected(next);
        throw this.error(`expected a new line or ';' after the statement, found ${describeToken(next)}`, next.pos);
      }
      this.skipSeparators();
    }
    return { source: this.source, statements };
  }

  soleExpression(): Expr {
    this.skipNewlines();
    const expr = this.expression(0);
    this.skipNewlines();
    const next = this.peek();
    if (next.kind !== 'eof') throw this.unexpected(next);
    return expr;
  }

  private statement(): Statement {
    const first = this.peek();
    if (first.kind === 'name' && !isLiteralName(first.text)) {
      // `name = expr`, or a mistaken `a.b = expr`.
      let j = this.index + 1;
      while (this.isPunct(this.tokens[j], '.') && this.tokens[j + 1]?.kind === 'name') j += 2;
      if (this.isPunct(this.tokens[j], '=')) {
        if (j !== this.index + 1) {
          const dotted = this.tokens
            .slice(this.index, j)
            .map((t) => t.text)
            .join('');
          throw this.error(`cannot assign to ${quoteSnippet(dotted)}: variable names cannot contain '.'`, first.pos);
        }
        this.index += 2;
        const value = this.expression(0, `after '=' in the assignment to '${first.text}'`);
        return { kind: 'assign', name: first.text, value, pos: first.pos };
      }
    }
    if (first.kind === 'name' && isLiteralName(first.text) && this.isPunct(this.tokens[this.index + 1], '=')) {
      throw this.error(`cannot assign to '${first.text}'`, first.pos);
    }
    const expr = this.expression(0);
    return { kind: 'expression', expr, pos: expr.pos };
  }

  private expression(depth: number, context?: string): Expr {
    const token = this.peek();
    if (depth > MAX_DEPTH) throw this.error(`nesting too deep (more than ${MAX_DEPTH} levels)`, token.pos);
    switch (token.kind) {
      case 'string':
        this.index++;
        return { kind: 'string', value: token.value as string, pos: token.pos };
      case 'number':
        this.index++;
        return { kind: 'number', value: token.value as number, pos: token.pos };
      case 'name':
        return this.nameExpression(depth);
      case 'punct':
        if (token.text === '-') {
          const next = this.tokens[this.index + 1];
          if (next?.kind !== 'number') {
            throw this.error(
              `'-' must be followed by a number, found ${next ? describeToken(next) : 'end of input'}`,
              token.pos,
            );
          }
          this.index += 2;
          return { kind: 'number', value: -(next.value as number), pos: token.pos };
        }
        if (token.text === '[') return this.list(depth);
        if (token.text === '{') return this.dict(depth);
        break;
      default:
        break;
    }
    throw context
      ? this.error(`expected a value ${context}, found ${describeToken(token)}`, token.pos)
      : this.unexpected(token);
  }

  private nameExpression(depth: number): Expr {
    const first = this.next();
    const literal = LITERAL_NAMES[first.text];
    if (literal !== undefined) {
      return literal === null ? { kind: 'null', pos: first.pos } : { kind: 'boolean', value: literal, pos: first.pos };
    }
    let callee = first.text;
    while (this.isPunct(this.peek(), '.')) {
      const dot = this.next();
      const part = this.peek();
      if (part.kind !== 'name') throw this.error(`expected a name after '.', found ${describeToken(part)}`, dot.pos);
      callee += `.${this.next().text}`;
    }
    if (this.isPunct(this.peek(), '(')) return this.call(callee, first.pos, depth);
    if (callee.includes('.')) {
      throw this.error(
        `expected '(' after ${quoteSnippet(callee)}: only calls may have dotted names (attribute access is not supported)`,
        first.pos,
      );
    }
    return { kind: 'variable', name: callee, pos: first.pos };
  }

  private call(callee: string, pos: SourcePosition, depth: number): CallExpr {
    const open = this.next(); // '('
    const args: KeywordArg[] = [];
    const seen = new Set<string>();
    for (;;) {
      const token = this.peek();
      if (this.isPunct(token, ')')) {
        this.index++;
        return { kind: 'call', callee, args, pos };
      }
      if (token.kind === 'name' && this.isPunct(this.tokens[this.index + 1], '=')) {
        this.index += 2;
        if (seen.has(token.text)) {
          throw new CommandError(`duplicate argument '${token.text}' in call to '${callee}'`, {
            kind: 'argument',
            position: token.pos,
          });
        }
        seen.add(token.text);
        const value = this.expression(depth + 1, `for argument '${token.text}'`);
        args.push({ name: token.text, namePos: token.pos, value });
      } else if (token.kind === 'eof') {
        throw this.unclosed(token, ')', open);
      } else if (token.kind === 'punct' && (CLOSING.has(token.text) || token.text === ',' || token.text === ';')) {
        throw this.unexpected(token);
      } else {
        throw new CommandError(
          `positional arguments are not allowed: '${callee}' takes keyword arguments only (write name=value)`,
          { kind: 'argument', position: token.pos },
        );
      }
      const after = this.peek();
      if (this.isPunct(after, ',')) this.index++;
      else if (!this.isPunct(after, ')')) {
        if (after.kind === 'eof') throw this.unclosed(after, ')', open);
        throw this.error(
          `expected ',' or ')' after argument '${args[args.length - 1]?.name ?? ''}', found ${describeToken(after)}`,
          after.pos,
        );
      }
    }
  }

  private list(depth: number): Expr {
    const open = this.next(); // '['
    const items: Expr[] = [];
    for (;;) {
      const token = this.peek();
      if (this.isPunct(token, ']')) {
        this.index++;
        return { kind: 'list', items, pos: open.pos };
      }
      if (token.kind === 'eof') throw this.unclosed(token, ']', open);
      items.push(this.expression(depth + 1));
      const after = this.peek();
      if (this.isPunct(after, ',')) this.index++;
      else if (!this.isPunct(after, ']')) {
        if (after.kind === 'eof') throw this.unclosed(after, ']', open);
        throw this.error(`expected ',' or ']' in list, found ${describeToken(after)}`, after.pos);
      }
    }
  }

  private dict(depth: number): Expr {
    const open = this.next(); // '{'
    const entries: DictEntry[] = [];
    const seen = new Set<string>();
    for (;;) {
      const token = this.peek();
      if (this.isPunct(token, '}')) {
        this.index++;
        return { kind: 'dict', entries, pos: open.pos };
      }
      if (token.kind === 'eof') throw this.unclosed(token, '}', open);
      if (token.kind === 'name' && !isLiteralName(token.text) && this.isPunct(this.tokens[this.index + 1], ':')) {
        throw this.error(
          `dict keys must be quoted strings: write "${token.text}": instead of ${token.text}:`,
          token.pos,
        );
      }
      if (token.kind !== 'string')
        throw this.error(`expected a quoted string as dict key, found ${describeToken(token)}`, token.pos);
      this.index++;
      const key = token.value as string;
      if (seen.has(key)) throw this.error(`duplicate key ${JSON.stringify(key)} in dict`, token.pos);
      seen.add(key);
      const colon = this.peek();
      if (!this.isPunct(colon, ':'))
        throw this.error(`expected ':' after dict key, found ${describeToken(colon)}`, colon.pos);
      this.index++;
      const value = this.expression(depth + 1, `for key ${JSON.stringify(key)}`);
      entries.push({ key, keyPos: token.pos, value });
      const after = this.peek();
      if (this.isPunct(after, ',')) this.index++;
      else if (!this.isPunct(after, '}')) {
        if (after.kind === 'eof') throw this.unclosed(after, '}', open);
        throw this.error(`expected ',' or '}' in dict, found ${describeToken(after)}`, after.pos);
      }
    }
  }

  private skipSeparators(): void {
    while (this.peek().kind === 'newline' || this.isPunct(this.peek(), ';')) this.index++;
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'newline') this.index++;
  }

  private peek(): Token {
    return this.tokens[this.index] ?? (this.tokens[this.tokens.length - 1] as Token);
  }

  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  private isPunct(token: Token | undefined, text: string): boolean {
    return token?.kind === 'punct' && token.text === text;
  }

  private unexpected(token: Token): CommandError {
    return this.error(`unexpected ${describeToken(token)}`, token.pos);
  }

  private unclosed(at: Token, closer: string, open: Token): CommandError {
    return this.error(
      `unexpected end of input: expected '${closer}' to close '${open.text}' from line ${open.pos.line}, column ${open.pos.column}`,
      at.pos,
    );
  }

  private error(reason: string, position: SourcePosition): CommandError {
    return new CommandError(reason, { kind: 'syntax', position });
  }
}
