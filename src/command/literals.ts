/**
 * Writing values as command-language source: `formatLiteral(v)` parses and evaluates back to a value deep-equal to
 * `v` (used for round-trip tests, "Try it" examples and snippet rendering).
 */
import { CommandError } from './commandErrors.ts';
import { MAX_DEPTH } from './parser.ts';
import { isPlainObject } from '../shared/plainObject.ts';

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*$/;

/** True when `name` can be written as a variable or keyword-argument name. */
export function isName(name: string): boolean {
  return NAME_RE.test(name) && !['True', 'true', 'False', 'false', 'None', 'null'].includes(name);
}

/**
 * A double-quoted string literal for `text`: `\\`, `\"`, `\n`, `\r`, `\t` escaped, other control characters as `\xHH`,
 * lone surrogates as `\uHHHH`; everything else (including non-ASCII) as is.
 */
export function formatString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const code = c.charCodeAt(0);
    if (c === '\\') out += '\\\\';
    else if (c === '"') out += '\\"';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out += c + (text[i + 1] as string);
        i++;
      } else out += `\\u${code.toString(16)}`;
    } else if (code >= 0xdc00 && code <= 0xdfff) out += `\\u${code.toString(16)}`;
    else out += c;
  }
  return `${out}"`;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new CommandError(`cannot write ${String(value)} as a literal: only finite numbers are supported`, {
      kind: 'value',
    });
  }
  if (Object.is(value, -0)) return '-0';
  return String(value); // e.g. 42, -1.5, 1e+21, 5e-324 — all valid number syntax
}

/**
 * Source text for a JSON-like value: strings, finite numbers, booleans (`True`/`False`), null (`None`), arrays and
 * plain objects (keys as quoted strings). Throws CommandError (kind `value`) for anything else (undefined, NaN,
 * Infinity, functions, class instances, cycles, nesting deeper than the parser accepts).
 */
export function formatLiteral(value: unknown): string {
  return format(value, 0, new Set());
}

function format(value: unknown, depth: number, path: Set<object>): string {
  if (value === null) return 'None';
  switch (typeof value) {
    case 'string':
      return formatString(value);
    case 'number':
      return formatNumber(value);
    case 'boolean':
      return value ? 'True' : 'False';
    case 'object':
      break;
    default:
      throw new CommandError(`cannot write a value of type ${typeof value} as a literal`, { kind: 'value' });
  }
  if (depth >= MAX_DEPTH)
    throw new CommandError(`value nested too deeply (more than ${MAX_DEPTH} levels)`, { kind: 'value' });
  if (path.has(value)) throw new CommandError('cannot write a value that contains itself', { kind: 'value' });
  path.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item: unknown) => format(item, depth + 1, path)).join(', ')}]`;
    if (!isPlainObject(value)) {
      throw new CommandError(`cannot write a ${value.constructor?.name ?? 'non-plain'} object as a literal`, {
        kind: 'value',
      });
    }
    const parts = Object.keys(value).map((key) => `${formatString(key)}: ${format(value[key], depth + 1, path)}`);
    return `{${parts.join(', ')}}`;
  } finally {
    path.delete(value);
  }
}

/**
 * A call with keyword arguments: `formatCall('web.fetch', {url: 'x'})` → `web.fetch(url="x")`. Arguments whose value
 * is undefined are left out. Throws CommandError when a name cannot be written.
 */
export function formatCall(name: string, args: Readonly<Record<string, unknown>> = {}): string {
  if (!name.split('.').every((part) => NAME_RE.test(part))) {
    throw new CommandError(`cannot write ${JSON.stringify(name)} as a call name`, { kind: 'value' });
  }
  const parts: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (!NAME_RE.test(key))
      throw new CommandError(`cannot write ${JSON.stringify(key)} as an argument name`, { kind: 'value' });
    parts.push(`${key}=${formatLiteral(value)}`);
  }
  return `${name}(${parts.join(', ')})`;
}
