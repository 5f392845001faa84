/**
 * Lexer: source text → tokens. Newlines are tokens (statement separators) except inside brackets, where they are
 * whitespace, so calls may span lines. `#` starts a comment to the end of the line.
 */
import { CommandError, LineMap, quoteSnippet, type SourcePosition } from './commandErrors.ts';

export type TokenKind = 'name' | 'number' | 'string' | 'punct' | 'newline' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The raw source slice (for `newline` and `eof` the empty string or `\n`). */
  readonly text: string;
  /** Decoded value: the string's contents or the number. */
  readonly value?: string | number;
  readonly start: number;
  readonly end: number;
  readonly pos: SourcePosition;
}

/** Characters that are tokens of their own. */
const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', ':', '=', '.', ';', '-']);
const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);

/**
 * A name: an ASCII identifier, optionally with inner hyphens before a letter or '_' (`get-issue`), so MCP tool names
 * such as `github.get-issue` can be called. `a-1` is the name `a` and the number `-1`.
 */
const NAME_RE = /[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*/y;
const NUMBER_RE = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const STRING_PREFIX_RE = /^[rRfFbBuU]{1,2}$/;
/** Whitespace other than '\n' (JavaScript's \s: spaces, tabs, CR, NBSP, BOM, U+2028, ...). */
const SPACE_RE = /[^\S\n]/;

export function isNameStart(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z_]/.test(c);
}

export interface StringLiteral {
  value: string;
  /** Offset just after the closing quote(s). */
  end: number;
}

/**
 * Reads the string literal that starts at `start` (a `'` or `"`, possibly tripled). Escapes follow Python:
 * `\\ \' \" \n \r \t \a \b \f \v \0-\377 (octal) \xHH \uHHHH \u{H…} \UHHHHHHHH`, backslash-newline is a line
 * continuation, and an unknown escape such as `\d` keeps its backslash. Throws CommandError with the position of the
 * opening quote for an unterminated string, or of the backslash for a malformed escape.
 */
export function readStringLiteral(source: string, start: number, lines: LineMap = new LineMap(source)): StringLiteral {
  const quote = source[start];
  if (quote !== '"' && quote !== "'") {
    throw new CommandError('expected a string', { kind: 'syntax', position: lines.position(start) });
  }
  const triple = source[start + 1] === quote && source[start + 2] === quote;
  let i = start + (triple ? 3 : 1);
  let out = '';
  const unterminated = (): CommandError =>
    new CommandError(triple ? 'unterminated triple-quoted string' : 'unterminated string', {
      kind: 'syntax',
      position: lines.position(start),
    });
  for (;;) {
    if (i >= source.length) throw unterminated();
    const c = source[i] as string;
    if (c === quote) {
      if (!triple) return { value: out, end: i + 1 };
      if (source[i + 1] === quote && source[i + 2] === quote) return { value: out, end: i + 3 };
      out += c;
      i++;
      continue;
    }
    if (c === '\n' && !triple) throw unterminated();
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    // An escape sequence.
    const escapeAt = i;
    const e = source[i + 1];
    if (e === undefined) throw unterminated();
    i += 2;
    const badEscape = (what: string): CommandError =>
      new CommandError(`invalid ${what} escape in string`, { kind: 'syntax', position: lines.position(escapeAt) });
    switch (e) {
      case '\n':
        break; // line continuation
      case '\\':
      case "'":
      case '"':
        out += e;
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x': {
        const hex = source.slice(i, i + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw badEscape('\\x');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 2;
        break;
      }
      case 'u': {
        if (source[i] === '{') {
          const close = source.indexOf('}', i);
          const hex = close < 0 ? '' : source.slice(i + 1, close);
          if (!/^[0-9a-fA-F]{1,6}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) throw badEscape('\\u{…}');
          out += String.fromCodePoint(parseInt(hex, 16));
          i = close + 1;
        } else {
          const hex = source.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw badEscape('\\u');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
        }
        break;
      }
      case 'U': {
        const hex = source.slice(i, i + 8);
        if (!/^[0-9a-fA-F]{8}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) throw badEscape('\\U');
        out += String.fromCodePoint(parseInt(hex, 16));
        i += 8;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          let digits = e;
          while (digits.length < 3 && /[0-7]/.test(source[i] ?? '')) digits += source[i++];
          out += String.fromCharCode(parseInt(digits, 8));
        } else {
          out += `\\${e}`; // unknown escape: kept as written, as in Python
        }
    }
  }
}

export interface PartialTokens {
  tokens: Token[];
  /** The first lexical error, if any; `tokens` then holds the tokens before it. */
  error: CommandError | null;
  /** Offset where the token that failed started (source.length when there was no error). */
  stoppedAt: number;
}

/** Tokenizes the whole source; throws CommandError at the first lexical error. Ends with an `eof` token. */
export function tokenize(source: string): Token[] {
  const result = tokenizePartial(source);
  if (result.error) throw result.error;
  return result.tokens;
}

/** Like `tokenize`, but returns the tokens before the first error instead of throwing (for tolerant consumers). */
export function tokenizePartial(source: string): PartialTokens {
  const lines = new LineMap(source);
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  let tokenStart = 0;
  const push = (kind: TokenKind, start: number, end: number, value?: string | number): void => {
    const token: Token = { kind, text: source.slice(start, end), start, end, pos: lines.position(start) };
    tokens.push(value === undefined ? token : { ...token, value });
  };
  const fail = (reason: string, at: number): never => {
    throw new CommandError(reason, { kind: 'syntax', position: lines.position(at) });
  };
  try {
    while (i < source.length) {
      tokenStart = i;
      const c = source[i] as string;
      if (c === '\n') {
        if (depth === 0) push('newline', i, i + 1);
        i++;
      } else if (SPACE_RE.test(c)) {
        i++;
      } else if (c === '#') {
        const nl = source.indexOf('\n', i);
        i = nl < 0 ? source.length : nl;
      } else if (c === '"' || c === "'") {
        const str = readStringLiteral(source, i, lines);
        push('string', i, str.end, str.value);
        i = str.end;
      } else if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
        NUMBER_RE.lastIndex = i;
        const m = NUMBER_RE.exec(source);
        const text = m ? m[0] : c;
        const next = source[i + text.length] ?? '';
        if (/[A-Za-z0-9_.]/.test(next)) fail(`invalid number ${quoteSnippet(source.slice(i, i + text.length + 1))}`, i);
        const value = Number(text);
        if (!Number.isFinite(value)) fail(`number out of range: ${quoteSnippet(text)}`, i);
        push('number', i, i + text.length, value);
        i += text.length;
      } else if (isNameStart(c)) {
        NAME_RE.lastIndex = i;
        const text = (NAME_RE.exec(source) as RegExpExecArray)[0];
        const next = source[i + text.length];
        if ((next === '"' || next === "'") && STRING_PREFIX_RE.test(text)) {
          fail(`string prefixes such as ${text}"…" are not supported; write a plain "…" string`, i);
        }
        push('name', i, i + text.length);
        i += text.length;
      } else if (PUNCT.has(c)) {
        if (OPENERS.has(c)) depth++;
        else if (CLOSERS.has(c)) depth = Math.max(0, depth - 1);
        push('punct', i, i + 1);
        i++;
      } else {
        const cp = String.fromCodePoint(source.codePointAt(i) ?? 0);
        if (c === '\\') fail("unexpected '\\' outside a string (line continuations are not supported)", i);
        fail(`unexpected character ${quoteSnippet(cp)}`, i);
      }
    }
  } catch (error) {
    if (error instanceof CommandError) return { tokens, error, stoppedAt: tokenStart };
    throw error;
  }
  tokens.push({ kind: 'eof', text: '', start: source.length, end: source.length, pos: lines.position(source.length) });
  return { tokens, error: null, stoppedAt: source.length };
}

/** How a token is named in messages: `')'`, `name 'foo'`, `end of line`, `end of input`. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return 'end of input';
    case 'newline':
      return 'end of line';
    case 'punct':
      return `'${token.text}'`;
    case 'name':
      return `name ${quoteSnippet(token.text)}`;
    case 'number':
      return `number ${token.text}`;
    case 'string':
      return `string ${quoteSnippet(token.text)}`;
  }
}
