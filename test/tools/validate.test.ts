// Argument validation messages: the reference's exact wording for missing and mistyped parameters, clear text else.
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { ToolValidationError, validateArguments } from '../../src/tools/validate.ts';

const problems = (schema: z.ZodObject, args: unknown): readonly string[] => {
  try {
    validateArguments(schema, args);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ToolValidationError);
    return (error as ToolValidationError).problems;
  }
};

describe('validateArguments', () => {
  it('returns the parsed arguments with defaults', () => {
    expect(validateArguments(z.object({ a: z.string(), b: z.number().default(2) }), { a: 'x' })).toEqual({
      a: 'x',
      b: 2,
    });
  });

  it('reports every problem, in the reference words where it has them', () => {
    const schema = z.object({ a: z.string(), b: z.number().int(), c: z.boolean() });
    expect(problems(schema, { b: 'x', c: true })).toEqual([
      'Missing required parameter: a',
      'Parameter b must be an integer',
    ]);
  });

  it('names nested paths', () => {
    const schema = z.object({ opts: z.object({ depth: z.number() }), items: z.array(z.string()) });
    expect(problems(schema, { opts: { depth: 'deep' }, items: ['ok', 3] })).toEqual([
      'Parameter opts.depth must be a number',
      'Parameter items[1] must be a string',
    ]);
  });

  it('explains enums, bounds, unknown keys and a non-object argument', () => {
    expect(problems(z.object({ mode: z.enum(['a', 'b']) }), { mode: 'c' })).toEqual([
      'Parameter mode must be one of: "a", "b"',
    ]);
    expect(problems(z.object({ n: z.number().min(1) }), { n: 0 })[0]).toBe('Parameter n must be at least 1');
    expect(problems(z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 })).toEqual(['Unknown parameters: b, c']);
    expect(problems(z.object({ a: z.string() }), 'a string')).toEqual([
      'Arguments must be an object of named parameters',
    ]);
  });
});
