/**
 * Proxy tools' arguments are validated against their server's JSON Schema without eval: `@cfworker/json-schema`
 * (an interpreter, built for runtimes that forbid code generation) runs inside a zod refinement, and its findings
 * become zod issues — so the interceptor validates proxy tools like any other tool (config `enable_validation`
 * applies), and the model reads the reference's messages: `Missing required parameter: p`, `Parameter k must be
 * a string`, `Parameter e must be one of: "a", "b"`, `Unknown parameter: x`, and one clear sentence otherwise.
 *
 * A schema the validator cannot compile (a broken `$ref`) is not enforced here — the server still validates — and
 * the tool says so in the log once.
 */
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { z } from '../shared/zod.ts';
import { log } from '../shared/log.ts';
import { errorMessage } from '../shared/errorMessage.ts';

type Json = Record<string, unknown>;
type Draft = '4' | '7' | '2019-09' | '2020-12';

const ZOD_TYPES: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'int',
  number: 'number',
  boolean: 'boolean',
  array: 'array',
  object: 'object',
  null: 'null',
};

const ARTICLES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

/** The draft a schema declares in `$schema` (default 2019-09, which reads draft-07 schemas the same way). */
export function draftOf(schema: Json): Draft {
  const s = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-04/.test(s)) return '4';
  if (/draft-0[67]/.test(s)) return '7';
  if (/2020-12/.test(s)) return '2020-12';
  return '2019-09';
}

/**
 * The schema the model is shown: the server's, minus `$schema`, always an object schema with `properties` (the
 * Responses API requires both).
 */
export function modelSchema(inputSchema: unknown): Json {
  const s: Json = inputSchema && typeof inputSchema === 'object' ? { ...(inputSchema as Json) } : {};
  delete s.$schema;
  s.type = 'object';
  if (!s.properties || typeof s.properties !== 'object') s.properties = {};
  return s;
}

function pointerPath(location: string, instance: unknown): (string | number)[] {
  const parts = location.replace(/^#\/?/, '');
  if (!parts) return [];
  const out: (string | number)[] = [];
  let cur: unknown = instance;
  for (const raw of parts.split('/')) {
    const key = decodeURIComponent(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    const seg = Array.isArray(cur) && /^\d+$/.test(key) ? Number(key) : key;
    out.push(seg);
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[seg] : undefined;
  }
  return out;
}

/** Keywords whose error only says "something inside failed"; the inner errors say what. */
const WRAPPERS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'allOf',
  'false',
  'patternProperties',
  'dependentSchemas',
  'unevaluatedItems',
  'then',
  'else',
  'if',
]);
const ALTERNATIVES = new Set(['anyOf', 'oneOf', 'not']);

/** A zod issue as `ctx.addIssue` takes it (codes invalid_type, invalid_value, unrecognized_keys, custom). */
export interface Issue {
  code: 'invalid_type' | 'invalid_value' | 'unrecognized_keys' | 'custom';
  path: (string | number)[];
  message: string;
  expected?: string;
  values?: unknown[];
  keys?: string[];
  input?: unknown;
}

/** The validator's output units as zod issues, with the reference's wording where it has one. */
export function toIssues(errors: readonly OutputUnit[], instance: unknown): Issue[] {
  const alternatives = errors.filter((e) => ALTERNATIVES.has(e.keyword)).map((e) => `${e.keywordLocation}/`);
  const out: Issue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (WRAPPERS.has(e.keyword)) continue;
    if (alternatives.some((prefix) => e.keywordLocation.startsWith(prefix))) continue; // explained by the anyOf
    const path = pointerPath(e.instanceLocation, instance);
    let issue: Issue;
    if (e.keyword === 'required') {
      const prop = /required property "(.*)"\.$/.exec(e.error)?.[1] ?? '';
      issue = {
        code: 'invalid_type',
        expected: 'string',
        input: undefined,
        path: [...path, prop],
        message: 'Required',
      };
    } else if (e.keyword === 'type') {
      const expected = [...e.error.matchAll(/"([a-z]+)"/g)].map((m) => m[1]!).slice(1);
      issue =
        expected.length === 1 && ZOD_TYPES[expected[0]!]
          ? { code: 'invalid_type', expected: ZOD_TYPES[expected[0]!]!, input: null, path, message: e.error }
          : { code: 'custom', path, message: `must be ${expected.map((t) => ARTICLES[t] ?? t).join(' or ')}` };
    } else if (e.keyword === 'enum' || e.keyword === 'const') {
      const listed = /match (?:any of )?(.*)\.$/.exec(e.error)?.[1];
      let values: unknown[];
      try {
        const parsed = listed === undefined ? undefined : (JSON.parse(listed) as unknown);
        values = e.keyword === 'enum' && Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        values = [];
      }
      issue = values.length
        ? { code: 'invalid_value', values, input: null, path, message: e.error }
        : { code: 'custom', path, message: e.error.replace(/^Instance /, '').replace(/\.$/, '') };
    } else if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
      const prop = /Property "(.*)" does not match/.exec(e.error)?.[1] ?? '';
      issue = { code: 'unrecognized_keys', keys: [prop], input: null, path, message: e.error };
    } else if (ALTERNATIVES.has(e.keyword)) {
      const inner = errors
        .filter((x) => x.keyword === 'type' && x.keywordLocation.startsWith(`${e.keywordLocation}/`))
        .map((x) => /Expected "([a-z]+)"/.exec(x.error)?.[1])
        .filter((t): t is string => !!t);
      issue = {
        code: 'custom',
        path,
        message: inner.length
          ? `must be ${[...new Set(inner)].map((t) => ARTICLES[t] ?? t).join(' or ')}`
          : `does not match the allowed forms (${e.keyword})`,
      };
    } else {
      issue = { code: 'custom', path, message: e.error.replace(/^Instance /, '').replace(/\.$/, '') };
    }
    const key = `${issue.code}|${JSON.stringify(issue.path)}|${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  // Unknown properties are reported together, as zod does.
  const merged: Issue[] = [];
  for (const issue of out) {
    const prev = merged.find(
      (m) =>
        m.code === 'unrecognized_keys' &&
        issue.code === 'unrecognized_keys' &&
        JSON.stringify(m.path) === JSON.stringify(issue.path),
    );
    if (prev) prev.keys!.push(...issue.keys!);
    else merged.push(issue);
  }
  return merged;
}

/** A validator for a server's input schema, or undefined when the schema cannot be used (logged, not thrown). */
export function compileSchema(schema: Json, label: string): Validator | undefined {
  try {
    return new Validator(schema as Schema, draftOf(schema), false);
  } catch (error) {
    log.warn(`MCP ${label}: input schema not usable for validation (${errorMessage(error)}); the server validates`);
    return undefined;
  }
}

/**
 * The zod parameters of a proxy tool: any object (unknown keys kept — the server decides what it accepts), refined
 * by the server's JSON Schema.
 */
export function proxyParameters(inputSchema: unknown, label: string): z.ZodObject {
  const schema = modelSchema(inputSchema);
  const validator = compileSchema(schema, label);
  const base = z.looseObject({});
  if (!validator) return base;
  return base.superRefine((value, ctx) => {
    let result: ReturnType<Validator['validate']>;
    try {
      result = validator.validate(value);
    } catch {
      return; // a validator bug must not block the call; the server validates too
    }
    if (result.valid) return;
    for (const issue of toIssues(result.errors, value)) ctx.addIssue(issue as never);
  }) as unknown as z.ZodObject;
}
