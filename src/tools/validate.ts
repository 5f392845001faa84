/**
 * Argument validation against a tool's zod schema, reporting problems in the reference's words
 * (docs/specs/003-tool-interceptor.md, 2.1): `Missing required parameter: <p>` and `Parameter <k> must be a string | an
 * integer | ...`. Other schema failures (enum, bounds, unknown keys of a strict object) get one clear sentence each, so
 * the model can fix its call.
 */
import type { z } from '../shared/zod.ts';
import { parametersJsonSchema } from './toolDefinition.ts';

export class ToolValidationError extends Error {
  override readonly name = 'ToolValidationError';
  /** One message per problem, in schema order; `message` joins them with '; '. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

const ARTICLE_TYPES: Record<string, string> = {
  string: 'a string',
  int: 'an integer',
  number: 'a number',
  array: 'an array',
  object: 'an object',
  boolean: 'a boolean',
  record: 'an object',
  tuple: 'an array',
  bigint: 'an integer',
  null: 'null',
};

type Issue = z.core.$ZodIssue;

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * Whether the schema wants an integer at `path`. Zod reports a string sent for an int field as "expected number";
 * the reference says "must be an integer", so look the field up in the (cached) JSON Schema. Error path only.
 */
function expectsInteger(schema: z.ZodObject, path: readonly PropertyKey[]): boolean {
  let node: unknown = parametersJsonSchema(schema);
  for (const key of path) {
    const obj = node as { properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[] } | undefined;
    if (!obj) return false;
    node = typeof key === 'number' ? obj.items : obj.properties?.[String(key)];
  }
  const isInt = (n: unknown): boolean => (n as { type?: unknown } | undefined)?.type === 'integer';
  return isInt(node) || ((node as { anyOf?: unknown[] } | undefined)?.anyOf?.some(isInt) ?? false);
}

function describe(issue: Issue, args: unknown, schema: z.ZodObject): string {
  const where = pathText(issue.path);
  if (!where) {
    // The arguments as a whole: the model sent a string, an array or null instead of named arguments.
    if (issue.code === 'invalid_type') return 'Arguments must be an object of named parameters';
    if (issue.code === 'unrecognized_keys')
      return `Unknown parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    return `Invalid arguments: ${issue.message}`;
  }
  if (issue.code === 'invalid_type') {
    if (valueAt(args, issue.path) === undefined) return `Missing required parameter: ${where}`;
    const expected =
      issue.expected === 'number' && expectsInteger(schema, issue.path) ? 'an integer' : ARTICLE_TYPES[issue.expected];
    if (expected) return `Parameter ${where} must be ${expected}`;
  }
  if (issue.code === 'unrecognized_keys')
    return `Unknown parameter${issue.keys.length > 1 ? 's' : ''} in ${where}: ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_value' && issue.values.length > 0) {
    return `Parameter ${where} must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (issue.code === 'too_big' || issue.code === 'too_small') return `Parameter ${where} ${bound(issue)}`;
  return `Parameter ${where}: ${issue.message}`;
}

/** A size or range bound in words ("must have at most 5 items"), instead of zod's "Too big: expected array to have <=5 items". */
function bound(issue: Extract<Issue, { code: 'too_big' | 'too_small' }>): string {
  const big = issue.code === 'too_big';
  const limit = Number(big ? issue.maximum : issue.minimum);
  const strict = issue.inclusive === false;
  const side = big ? (strict ? 'less than' : 'at most') : strict ? 'more than' : 'at least';
  const unit = (one: string, many: string) => `${limit} ${limit === 1 ? one : many}`;
  switch (issue.origin) {
    case 'string':
      return `must be ${side} ${unit('character', 'characters')} long`;
    case 'array':
    case 'set':
      return `must have ${side} ${unit('item', 'items')}`;
    case 'number':
    case 'int':
    case 'bigint':
      return `must be ${side} ${limit}`;
    default:
      return `must be ${side} ${limit} in size`;
  }
}

/** Zod's issues turned into the reference's messages (exported for tools that validate themselves). */
export function describeIssues(issues: readonly Issue[], args: unknown, schema: z.ZodObject): string[] {
  return issues.map((issue) => describe(issue, args, schema));
}

const strictViews = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * The schema that refuses unknown top-level arguments (issue #31): an argument the tool does not have is an error the
 * model hears, never silently dropped — a call padded with 900 characters of "reassuring" text the tool ignores would
 * otherwise reach the user's approval card. Schemas that chose a catch-all (`z.looseObject`, an MCP proxy tool's
 * "the server decides") keep it.
 */
export function strictParameters<S extends z.ZodObject>(schema: S): S {
  if (schema._zod.def.catchall !== undefined) return schema;
  let view = strictViews.get(schema);
  if (!view) strictViews.set(schema, (view = schema.strict()));
  return view as S;
}

/** Parses `args` (applying defaults; unknown top-level keys are an error) or throws ToolValidationError. */
export function validateArguments<S extends z.ZodObject>(schema: S, args: unknown): z.output<S> {
  const parsed = strictParameters(schema).safeParse(args);
  if (parsed.success) return parsed.data;
  throw new ToolValidationError(describeIssues(parsed.error.issues, args, schema));
}
