// Otto's own tools' schemas as the model reads them (#43 part 1): bounds zod checks at the call are left out; what
// tells the model what to write stays, and a property that happens to be called like a keyword is kept.
import { describe, expect, it } from 'vitest';
import { schemaForModel } from '../../src/tools/schemaForModel.ts';

describe('schemaForModel', () => {
  it('drops bounds at any depth, keeps types, enums, defaults, required and properties named like keywords', () => {
    const schema = {
      type: 'object',
      properties: {
        ref: { description: 'Ref (kqe12)', type: 'string', pattern: '^e\\d+$' },
        pattern: { type: 'string', minLength: 1, maxLength: 2000, description: 'A property called pattern' },
        limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
        levels: { type: 'array', maxItems: 6, minItems: 1, items: { type: 'string', enum: ['log', 'error'] } },
        args: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        when: {
          anyOf: [
            { type: 'number', exclusiveMinimum: 0 },
            { type: 'string', maxLength: 9 },
          ],
        },
        options: { type: 'object', default: { minimum: 3 } },
      },
      required: ['ref'],
      additionalProperties: false,
    };
    expect(schemaForModel(schema)).toEqual({
      type: 'object',
      properties: {
        ref: { description: 'Ref (kqe12)', type: 'string' },
        pattern: { type: 'string', description: 'A property called pattern' },
        limit: { type: 'integer', default: 50 },
        levels: { type: 'array', items: { type: 'string', enum: ['log', 'error'] } },
        args: { type: 'object', additionalProperties: {} },
        when: { anyOf: [{ type: 'number' }, { type: 'string' }] },
        options: { type: 'object', default: { minimum: 3 } },
      },
      required: ['ref'],
      additionalProperties: false,
    });
    // The input is not changed.
    expect(schema.properties.ref.pattern).toBe('^e\\d+$');
  });
});

describe('snippet-only parameters', () => {
  it('are left out of what the model reads (a test id, #44), at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        label: { type: 'string' },
        testid: { snippetOnly: true, type: 'string' },
        fields: {
          type: 'array',
          items: { type: 'object', properties: { testid: { snippetOnly: true, type: 'string' } } },
        },
      },
    };
    expect(schemaForModel(schema)).toEqual({
      type: 'object',
      properties: {
        label: { type: 'string' },
        fields: { type: 'array', items: { type: 'object', properties: {} } },
      },
    });
  });
});
