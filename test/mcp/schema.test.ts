/** Proxy tools' arguments are validated against the server's JSON Schema without eval, in the reference's words. */
import { afterEach, describe, expect, it } from 'vitest';
import { draftOf, modelSchema, proxyParameters } from '../../src/mcp/index.ts';
import { validateArguments, ToolValidationError } from '../../src/tools/validate.ts';

const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer', minimum: 1 },
    mode: { enum: ['fast', 'full'] },
    id: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    tags: { type: 'array', items: { type: 'string' } },
    filter: { type: 'object', properties: { lang: { type: 'string' } }, required: ['lang'] },
  },
  required: ['query'],
  additionalProperties: false,
};

const problems = (args: unknown): string[] => {
  try {
    validateArguments(proxyParameters(SCHEMA, 'demo.search'), args);
    return [];
  } catch (error) {
    return [...(error as ToolValidationError).problems];
  }
};

const realFunction = globalThis.Function;
afterEach(() => {
  globalThis.Function = realFunction;
});

describe('proxy argument validation (@cfworker/json-schema inside zod)', () => {
  it('valid arguments pass unchanged, unknown keys included when the schema allows them', () => {
    expect(validateArguments(proxyParameters(SCHEMA, 'x'), { query: 'q', limit: 3, id: 7 })).toEqual({
      query: 'q',
      limit: 3,
      id: 7,
    });
    const open = proxyParameters({ type: 'object', properties: { a: { type: 'string' } } }, 'x');
    expect(validateArguments(open, { a: 'x', extra: true })).toEqual({ a: 'x', extra: true });
  });

  it('reports every problem in the reference messages', () => {
    expect(
      problems({ limit: 'ten', mode: 'slow', id: true, tags: ['a', 2], filter: {}, colour: 'red', size: 1 }),
    ).toEqual([
      'Missing required parameter: query',
      'Parameter limit must be an integer',
      'Parameter mode must be one of: "fast", "full"',
      'Parameter id: must be a string or a number',
      'Parameter tags[1] must be a string',
      'Missing required parameter: filter.lang',
      'Unknown parameters: colour, size',
    ]);
    expect(problems({ query: 'q', limit: 0 })).toEqual(['Parameter limit: 0 is less than 1']);
  });

  it('runs without eval: validation works with the Function constructor disabled', () => {
    globalThis.Function = new Proxy(realFunction, {
      construct() {
        throw new EvalError('new Function is forbidden (MV3 CSP)');
      },
      apply() {
        throw new EvalError('Function() is forbidden (MV3 CSP)');
      },
    });
    const params = proxyParameters(SCHEMA, 'demo.search');
    expect(validateArguments(params, { query: 'ok' })).toEqual({ query: 'ok' });
    expect(() => validateArguments(params, {})).toThrow('Missing required parameter: query');
  });

  it('the model sees the server schema without $schema, always an object with properties', () => {
    expect(modelSchema(SCHEMA)).not.toHaveProperty('$schema');
    expect(modelSchema({})).toEqual({ type: 'object', properties: {} });
    expect(modelSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });

  it('picks the draft from $schema', () => {
    expect(draftOf({ $schema: 'http://json-schema.org/draft-04/schema#' })).toBe('4');
    expect(draftOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('7');
    expect(draftOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12');
    expect(draftOf({})).toBe('2019-09');
  });

  it('a schema the validator cannot use is not enforced (the server validates) instead of breaking the tool', () => {
    const params = proxyParameters({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }, 'x.y');
    expect(() => validateArguments(params, { a: 1 })).not.toThrow();
  });
});
