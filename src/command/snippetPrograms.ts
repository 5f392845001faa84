/**
 * Snippets: named, parameterised programs from config.
 *
 *   $name k=v k2="a b"          single-line form: key=value pairs
 *   $name                       multi-line form: one `key: value` per following line
 *   k: v
 *   k2: "a b"
 *
 * The body is a program with `{{ param }}` placeholders, rendered strictly, then run by the interpreter.
 * How a value is inserted depends on where the placeholder stands in the body:
 * - inside a string literal (`query="{{ topic }}"`): the value's text is escaped for that literal, so the string's
 *   value is exactly the text passed (quotes, backslashes and newlines included);
 * - in code (`count={{ count }}`): a string value is inserted as source text as is (`count=5` gives `count=5`; a value
 *   can be any expression), any other value (a default from config) as its literal (`5`, `True`, `None`, `[1, 2]`);
 * - in a comment: as text, with line breaks turned into spaces.
 * Inside a string, a non-string value is inserted as its JSON text (`5`, `true`, `null`).
 */
import { CommandError, LineMap, type SourcePosition } from './commandErrors.ts';
import { readStringLiteral } from './lexer.ts';
import { formatLiteral } from './literals.ts';

export interface SnippetParam {
  default?: unknown;
  description?: string;
  required?: boolean;
  /**
   * #44: with no value given (and no default), each body line holding its placeholder is left out — replaced by a
   * comment, so line numbers stay — instead of the render failing. A saved snippet's start page is one. The
   * placeholder should stand in a statement of one line (the line alone is left out).
   */
  optional?: boolean;
}

export interface SnippetDefinition {
  description?: string;
  params?: Readonly<Record<string, SnippetParam>>;
  body: string;
}

export type SnippetMap = Readonly<Record<string, SnippetDefinition>>;

export interface SnippetInvocation {
  name: string;
  /** Values as typed (quotes removed, escapes decoded). */
  args: Record<string, string>;
  form: 'single' | 'multi';
}

/** Snippet names: letters, digits, '_' and '-' (`brv_research`, `rg-count`). */
const SNIPPET_NAME_RE = /[A-Za-z0-9_][A-Za-z0-9_-]*/y;
const KEY_RE = /[A-Za-z_][A-Za-z0-9_-]*/y;
const PLACEHOLDER_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when the text (after leading whitespace) starts with `$` followed by a snippet name character. */
export function isSnippetInvocation(text: string): boolean {
  return /^\s*\$[A-Za-z0-9_]/.test(text);
}

/** Parses `$name k=v ...` or the multi-line form. Throws CommandError (kind `snippet`) with line and column. */
export function parseSnippetInvocation(text: string): SnippetInvocation {
  const lines = new LineMap(text);
  const fail = (reason: string, at: number): never => {
    throw new CommandError(reason, { kind: 'snippet', position: lines.position(Math.min(at, text.length)) });
  };
  let i = 0;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  if (text[i] !== '$') fail("a snippet invocation starts with '$'", i);
  i++;
  SNIPPET_NAME_RE.lastIndex = i;
  const nameMatch = SNIPPET_NAME_RE.exec(text);
  if (!nameMatch) fail("expected a snippet name after '$'", i);
  const name = (nameMatch as RegExpExecArray)[0];
  i += name.length;
  const args: Record<string, string> = {};
  const seen = new Set<string>();
  const addArg = (key: string, value: string, at: number): void => {
    if (seen.has(key)) fail(`parameter '${key}' given twice`, at);
    seen.add(key);
    Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
  };
  const lineEnd = (from: number): number => {
    const nl = text.indexOf('\n', from);
    return nl < 0 ? text.length : nl;
  };
  const firstLineEnd = lineEnd(i);
  const firstRest = text.slice(i, firstLineEnd);
  if (firstRest !== '' && !/^\s/.test(firstRest)) fail(`invalid character after snippet name '${name}'`, i);
  const singleLine = firstRest.trim() !== '';
  if (singleLine) {
    // key=value pairs until the end of the first line; an unquoted value runs to the next ` key=` or the line end.
    while (i < firstLineEnd) {
      while (i < firstLineEnd && /\s/.test(text[i] as string)) i++;
      if (i >= firstLineEnd) break;
      const keyAt = i;
      KEY_RE.lastIndex = i;
      const keyMatch = KEY_RE.exec(text);
      if (!keyMatch || text[i + keyMatch[0].length] !== '=') {
        fail(`expected key=value, found '${text.slice(i, firstLineEnd).trim().slice(0, 30)}'`, i);
      }
      const key = (keyMatch as RegExpExecArray)[0];
      i += key.length + 1;
      let value: string;
      if (text[i] === '"' || text[i] === "'") {
        const literal = readSnippetString(text, i, lines);
        if (literal.end > firstLineEnd)
          fail('a single-line snippet value cannot span lines; use the multi-line form', i);
        if (literal.end < firstLineEnd && !/\s/.test(text[literal.end] as string)) {
          fail('expected a space after the quoted value', literal.end);
        }
        value = literal.value;
        i = literal.end;
      } else {
        const rest = text.slice(i, firstLineEnd);
        const boundary = nextKeyBoundary(rest);
        const raw = boundary < 0 ? rest : rest.slice(0, boundary);
        value = raw.trim().replace(/\\=/g, '=');
        i += raw.length;
      }
      addArg(key, value, keyAt);
    }
  }
  // Following lines: `key: value` (multi-line form); blank lines and `#` comment lines are skipped.
  i = firstLineEnd + 1;
  while (i < text.length) {
    const end = lineEnd(i);
    const line = text.slice(i, end);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      i = end + 1;
      continue;
    }
    const keyAt = i + (line.length - line.trimStart().length);
    if (singleLine)
      fail('give parameters either on the first line (k=v) or on the following lines (k: v), not both', keyAt);
    KEY_RE.lastIndex = keyAt;
    const keyMatch = KEY_RE.exec(text);
    const key = keyMatch ? keyMatch[0] : '';
    let j = keyAt + key.length;
    while (j < end && /[^\S\n]/.test(text[j] as string)) j++;
    if (!keyMatch || text[j] !== ':') fail(`expected 'key: value', found '${trimmed.slice(0, 30)}'`, keyAt);
    j++;
    while (j < end && /[^\S\n]/.test(text[j] as string)) j++;
    if (text[j] === '"' || text[j] === "'") {
      const literal = readSnippetString(text, j, lines);
      const after = lineEnd(literal.end);
      if (text.slice(literal.end, after).trim() !== '') fail('unexpected text after the quoted value', literal.end);
      addArg(key, literal.value, keyAt);
      i = after + 1;
    } else {
      addArg(key, text.slice(j, end).trim(), keyAt);
      i = end + 1;
    }
  }
  return { name, args, form: singleLine || Object.keys(args).length === 0 ? 'single' : 'multi' };
}

/**
 * Where the next ` key=` starts in an unquoted value (the start of its whitespace run), or -1. Linear: the regex
 * `\s+key=` searched from every start backtracks quadratically over a long run of spaces.
 */
function nextKeyBoundary(rest: string): number {
  const runs = /\s+/g;
  const key = /[A-Za-z_][A-Za-z0-9_-]*=/y;
  for (let run = runs.exec(rest); run; run = runs.exec(rest)) {
    key.lastIndex = run.index + run[0].length;
    if (key.test(rest)) return run.index;
  }
  return -1;
}

function readSnippetString(text: string, at: number, lines: LineMap): { value: string; end: number } {
  try {
    return readStringLiteral(text, at, lines);
  } catch (error) {
    if (error instanceof CommandError)
      throw new CommandError(error.reason, { kind: 'snippet', position: error.position });
    throw error;
  }
}

/** Parameter names of a definition, in declaration order. */
function paramNames(def: SnippetDefinition): string[] {
  return Object.keys(def.params ?? {});
}

function getParam(def: SnippetDefinition, name: string): SnippetParam | undefined {
  const params = def.params ?? {};
  return Object.hasOwn(params, name) ? params[name] : undefined;
}

/** A default counts when it is neither undefined nor null (null means "no default", as in the reference). */
function hasDefault(param: SnippetParam | undefined): boolean {
  return param !== undefined && param.default !== undefined && param.default !== null;
}

interface Placeholder {
  name: string;
  start: number;
  end: number;
  context: 'code' | 'comment' | { quote: '"' | "'"; triple: boolean };
  pos: SourcePosition;
}

/**
 * Finds the `{{ name }}` placeholders of a body and where each stands (code, comment, or inside which kind of string).
 * Throws CommandError for a malformed or unterminated placeholder. Never throws anything else.
 */
export function scanPlaceholders(body: string): Placeholder[] {
  const lines = new LineMap(body);
  const found: Placeholder[] = [];
  let state: Placeholder['context'] = 'code';
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c === '{' && body[i + 1] === '{') {
      const close = body.indexOf('}}', i + 2);
      const pos = lines.position(i);
      if (close < 0)
        throw new CommandError("unterminated placeholder: '{{' without '}}'", { kind: 'snippet', position: pos });
      const inner = body.slice(i + 2, close).trim();
      if (!PLACEHOLDER_NAME_RE.test(inner)) {
        throw new CommandError(
          `invalid placeholder '{{${body.slice(i + 2, close)}}}': write {{ name }} with a parameter name`,
          {
            kind: 'snippet',
            position: pos,
          },
        );
      }
      found.push({ name: inner, start: i, end: close + 2, context: state, pos });
      i = close + 2;
      continue;
    }
    if (state === 'code') {
      if (c === '#') state = 'comment';
      else if (c === '"' || c === "'") {
        const triple = body[i + 1] === c && body[i + 2] === c;
        state = { quote: c, triple };
        i += triple ? 3 : 1;
        continue;
      }
    } else if (state === 'comment') {
      if (c === '\n') state = 'code';
    } else {
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === state.quote && (!state.triple || (body[i + 1] === c && body[i + 2] === c))) {
        i += state.triple ? 3 : 1;
        state = 'code';
        continue;
      }
      if (c === '\n' && !state.triple) state = 'code'; // unterminated; the parser will say so
    }
    i++;
  }
  return found;
}

function jsonText(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (typeof text === 'string') return text;
  } catch {
    // fall through
  }
  throw new CommandError(`cannot insert a value of type ${typeof value} into a snippet`, { kind: 'snippet' });
}

function insertion(value: unknown, context: Placeholder['context']): string {
  if (context === 'code') return typeof value === 'string' ? value : formatLiteral(value);
  if (context === 'comment') return (typeof value === 'string' ? value : jsonText(value)).replace(/\r?\n|\r/g, ' ');
  const text = typeof value === 'string' ? value : jsonText(value);
  let out = '';
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === context.quote) out += `\\${ch}`;
    else if (!context.triple && ch === '\n') out += '\\n';
    else if (!context.triple && ch === '\r') out += '\\r';
    else out += ch;
  }
  return out;
}

/**
 * Matches given argument names to parameters: exact names, or an unambiguous prefix (`t=` for `topic`).
 * Throws CommandError for an unknown or ambiguous name.
 */
function resolveArgs(
  name: string,
  def: SnippetDefinition,
  args: Readonly<Record<string, unknown>>,
): Map<string, unknown> {
  const names = paramNames(def);
  const resolved = new Map<string, unknown>();
  for (const key of Object.keys(args)) {
    let param = key;
    if (!names.includes(key)) {
      const candidates = names.filter((p) => p.startsWith(key));
      if (candidates.length === 1) param = candidates[0] as string;
      else if (candidates.length > 1) {
        throw new CommandError(`Snippet '${name}': parameter '${key}' is ambiguous (${candidates.join(', ')})`, {
          kind: 'snippet',
        });
      } else {
        throw new CommandError(
          `Snippet '${name}' has no parameter '${key}'. Parameters: ${names.join(', ') || '(none)'}`,
          {
            kind: 'snippet',
          },
        );
      }
    }
    if (resolved.has(param))
      throw new CommandError(`Snippet '${name}': parameter '${param}' given twice`, { kind: 'snippet' });
    resolved.set(param, args[key]);
  }
  return resolved;
}

/**
 * The body with each line that holds the placeholder of an optional parameter without a value replaced by a comment
 * saying so (#44): the step is left out, the other lines keep their numbers.
 */
function leaveOutOptional(def: SnippetDefinition, values: ReadonlyMap<string, unknown>): string {
  const missing = scanPlaceholders(def.body).filter((p) => getParam(def, p.name)?.optional && !values.has(p.name));
  if (!missing.length) return def.body;
  const lines = def.body.split('\n');
  for (const p of missing) {
    const line = p.pos.line - 1;
    lines[line] = `# left out: no value given for '${p.name}'`;
  }
  return lines.join('\n');
}

/**
 * Renders a snippet body with the given arguments (strings as typed, or any JSON-like value). Strict: an argument
 * that is no parameter, a required parameter without a value, a placeholder naming no parameter, or a placeholder
 * whose parameter has neither a value nor a default is a CommandError (kind `snippet`). Never throws anything else.
 */
export function renderSnippet(name: string, def: SnippetDefinition, args: Readonly<Record<string, unknown>>): string {
  const given = resolveArgs(name, def, args);
  const values = new Map<string, unknown>();
  for (const param of paramNames(def)) {
    const spec = getParam(def, param);
    if (given.has(param)) {
      let value = given.get(param);
      if (typeof spec?.default === 'boolean' && typeof value === 'string' && /^(true|false)$/i.test(value)) {
        value = value.toLowerCase() === 'true';
      }
      values.set(param, value);
    } else if (hasDefault(spec)) values.set(param, spec?.default);
    else if (spec?.required)
      throw new CommandError(`Snippet '${name}' requires parameter '${param}'`, { kind: 'snippet' });
  }
  let placeholders: Placeholder[];
  let body: string;
  try {
    body = leaveOutOptional(def, values);
    placeholders = scanPlaceholders(body);
  } catch (error) {
    throw error instanceof CommandError ? error.withLabel(`snippet '${name}' body`) : error;
  }
  let out = '';
  let copied = 0;
  for (const placeholder of placeholders) {
    if (getParam(def, placeholder.name) === undefined) {
      const known = paramNames(def);
      throw new CommandError(
        `unknown placeholder '{{ ${placeholder.name} }}'; parameters: ${known.join(', ') || '(none)'}`,
        { kind: 'snippet', position: placeholder.pos, label: `snippet '${name}' body` },
      );
    }
    if (!values.has(placeholder.name)) {
      throw new CommandError(`Snippet '${name}' requires parameter '${placeholder.name}'`, { kind: 'snippet' });
    }
    let text: string;
    try {
      text = insertion(values.get(placeholder.name), placeholder.context);
    } catch (error) {
      if (error instanceof CommandError) {
        throw new CommandError(`Snippet '${name}': parameter '${placeholder.name}': ${error.reason}`, {
          kind: 'snippet',
        });
      }
      throw error;
    }
    out += body.slice(copied, placeholder.start) + text;
    copied = placeholder.end;
  }
  return out + body.slice(copied);
}

/** Looks a snippet up by name; throws `Unknown snippet '<n>'. Available: a, b`. */
export function getSnippet(name: string, snippets: SnippetMap): SnippetDefinition {
  if (!Object.hasOwn(snippets, name)) {
    const available = Object.keys(snippets).sort().join(', ') || '(none)';
    throw new CommandError(`Unknown snippet '${name}'. Available: ${available}`, { kind: 'snippet' });
  }
  return snippets[name] as SnippetDefinition;
}

/** Parses an invocation (text or already parsed) and returns the rendered body. */
export function expandSnippet(invocation: string | SnippetInvocation, snippets: SnippetMap): string {
  const parsed = typeof invocation === 'string' ? parseSnippetInvocation(invocation) : invocation;
  return renderSnippet(parsed.name, getSnippet(parsed.name, snippets), parsed.args);
}

/** Problems with a definition that can be found without arguments (placeholder syntax, unknown placeholders). */
export function findSnippetProblems(name: string, def: SnippetDefinition): string[] {
  try {
    const unknown = scanPlaceholders(def.body).filter((p) => getParam(def, p.name) === undefined);
    return unknown.map(
      (p) =>
        `snippet '${name}' body, line ${p.pos.line}, column ${p.pos.column}: unknown placeholder '{{ ${p.name} }}'`,
    );
  } catch (error) {
    if (error instanceof CommandError) return [error.withLabel(`snippet '${name}' body`).message];
    throw error;
  }
}

/** Writes a value for an invocation: bare when it is safe, else as a double-quoted string. */
function invocationValue(value: unknown): string {
  const text = typeof value === 'string' ? value : jsonText(value);
  return /^[^\s"'=\\]+$/.test(text) ? text : formatLiteral(text);
}

/**
 * An example invocation and its expansion, for `ot.snippets(info="full")` and help. Parameters with a default are
 * left out (the example shows the defaults at work); every other parameter gets `values[p]`, or `<p>` when absent.
 */
export function snippetExample(
  name: string,
  def: SnippetDefinition,
  values: Readonly<Record<string, unknown>> = {},
): { invocation: string; expansion: string } {
  const parts = [`$${name}`];
  for (const param of paramNames(def)) {
    if (Object.hasOwn(values, param)) parts.push(`${param}=${invocationValue(values[param])}`);
    else if (!hasDefault(getParam(def, param)) && !getParam(def, param)?.optional) parts.push(`${param}=<${param}>`);
  }
  const invocation = parts.join(' ');
  return { invocation, expansion: expandSnippet(invocation, { [name]: def }) };
}
