// docs/specs/001-tool-flattening.md "Tool Definition Transformation": its four tests, its invariants and its error
// cases, through the public client method the agent uses.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { OpenAIResponsesClient } from '../../src/models/OpenAIResponsesClient.ts';
import { flattenToolsForResponsesApi, type ResponsesFunctionTool } from '../../src/models/flattenTools.ts';

const client = new OpenAIResponsesClient({
  baseURL: 'http://127.0.0.1:1/v1',
  apiKey: 'sk-unused-000000',
  model: 'gpt-5-mini',
});
const flatten = (tools: unknown[]) => client.createToolsJsonForResponsesApi(tools);
const asFunction = (tool: unknown) => tool as ResponsesFunctionTool;

let warn: MockInstance;
let error: MockInstance;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
  error.mockRestore();
});

describe('createToolsJsonForResponsesApi', () => {
  it('should transform nested function definition to flat structure', () => {
    const input = [
      {
        type: 'function',
        function: {
          name: 'browser_dom',
          description: 'Interact with DOM elements',
          parameters: { type: 'object', properties: { action: { type: 'string' } } },
        },
      },
    ];
    const output = flatten(input);
    expect(output).toEqual([
      {
        type: 'function',
        name: 'browser_dom',
        description: 'Interact with DOM elements',
        strict: false,
        parameters: { type: 'object', properties: { action: { type: 'string' } } },
      },
    ]);
    expect(output[0]).not.toHaveProperty('function');
  });

  it('should preserve strict field when present', () => {
    const output = flatten([
      { type: 'function', function: { name: 'test_tool', description: 'Test', strict: true, parameters: {} } },
    ]);
    expect(asFunction(output[0]).strict).toBe(true);
  });

  it('should filter out invalid tools', () => {
    const input = [
      { type: 'function', function: { name: 'valid', description: 'Valid tool', parameters: {} } },
      { type: 'function', function: { name: 'invalid' } }, // Missing description
      { type: 'function' }, // Missing function object
      null,
      undefined,
    ];
    const output = flatten(input);
    expect(output).toHaveLength(1);
    expect(asFunction(output[0]).name).toBe('valid');
  });

  it('should preserve complex parameters schema', () => {
    const complexSchema = {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['query', 'click'] },
        selector: { type: 'string' },
        options: { type: 'object', properties: { timeout: { type: 'number', default: 5000 } } },
      },
      required: ['action'],
      additionalProperties: false,
    };
    const output = flatten([
      { type: 'function', function: { name: 'dom_tool', description: 'DOM operations', parameters: complexSchema } },
    ]);
    expect(asFunction(output[0]).parameters).toEqual(complexSchema);
  });

  it('defaults parameters to an empty object schema and strict to false', () => {
    const [tool] = flatten([{ type: 'function', function: { name: 'noop', description: 'Does nothing' } }]);
    expect(tool).toEqual({
      type: 'function',
      name: 'noop',
      description: 'Does nothing',
      strict: false,
      parameters: { type: 'object', properties: {} },
    });
  });

  it('passes hosted tool types through unchanged', () => {
    const webSearch = { type: 'web_search', search_context_size: 'low' };
    const output = flatten([webSearch, { type: 'function', function: { name: 'a', description: 'A' } }]);
    expect(output[0]).toBe(webSearch);
    expect(output).toHaveLength(2);
  });

  it('accepts an already-flat function tool', () => {
    const [tool] = flatten([
      { type: 'function', name: 'flat', description: 'Already flat', parameters: { type: 'object', properties: {} } },
    ]);
    expect(tool).toEqual({
      type: 'function',
      name: 'flat',
      description: 'Already flat',
      strict: false,
      parameters: { type: 'object', properties: {} },
    });
  });

  it('drops names the API would refuse (hard fact 5) and duplicates, with a warning', () => {
    const output = flatten([
      { type: 'function', function: { name: 'dom.click', description: 'dotted' } },
      { type: 'function', function: { name: 'x'.repeat(65), description: 'too long' } },
      { type: 'function', function: { name: 'dom_click', description: 'first' } },
      { type: 'function', function: { name: 'dom_click', description: 'second' } },
    ]);
    expect(output.map((t) => asFunction(t).description)).toEqual(['first']);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('returns [] for input that is not an array', () => {
    expect(flattenToolsForResponsesApi(undefined)).toEqual([]);
    expect(flattenToolsForResponsesApi({ type: 'function' })).toEqual([]);
  });
});

// Arbitrary mixes of valid, invalid and hosted tools, for the invariants.
const validTool = fc.record({
  type: fc.constant('function'),
  function: fc.record(
    {
      name: fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/),
      description: fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0),
      strict: fc.boolean(),
      parameters: fc.constant({ type: 'object', properties: { q: { type: 'string' } } }),
    },
    { requiredKeys: ['name', 'description'] },
  ),
});
const anyTool = fc.oneof(
  validTool,
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({ type: 'function' }),
  fc.record({ type: fc.constant('function'), function: fc.record({ name: fc.string() }) }),
  fc.constant({ type: 'web_search' }),
  // A hosted tool carrying a nested function key (INV-1 must still hold).
  fc.record({ type: fc.constantFrom('web_search', 'file_search', 'mcp'), function: fc.anything() }),
  fc.record({ type: fc.string() }),
  fc.anything(),
);

describe('invariants', () => {
  it('INV-1: no output has a nested function property', () => {
    fc.assert(
      fc.property(fc.array(anyTool), (input) => {
        for (const tool of flatten(input)) expect(tool).not.toHaveProperty('function');
      }),
    );
  });

  it('INV-2: every function tool has type, name, description and parameters', () => {
    fc.assert(
      fc.property(fc.array(anyTool), (input) => {
        for (const tool of flatten(input).filter((t) => t.type === 'function')) {
          const fn = asFunction(tool);
          expect(fn.type).toBe('function');
          expect(fn.name).toBeTruthy();
          expect(fn.description).toBeTruthy();
          expect(fn.parameters).toBeDefined();
          expect(typeof fn.strict).toBe('boolean');
        }
      }),
    );
  });

  it('INV-3: the output is never longer than the input', () => {
    fc.assert(
      fc.property(fc.array(anyTool), (input) => {
        expect(flatten(input).length).toBeLessThanOrEqual(input.length);
      }),
    );
  });
});

describe('error cases', () => {
  it('Error case 1: an invalid tool type is warned about and filtered out', () => {
    expect(flatten([{ type: 'invalid' }])).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('Error case 2: a function tool missing its description is logged as an error and filtered out', () => {
    expect(flatten([{ type: 'function', function: { name: 'test' } }])).toEqual([]);
    expect(error).toHaveBeenCalledOnce();
    expect(warn).not.toHaveBeenCalled();
    expect(String(error.mock.calls[0]?.[0])).toMatch(/missing required fields/);
  });

  it('Error case 3: null and undefined tools are filtered out, valid ones kept', () => {
    const valid = { type: 'function', function: { name: 'ok', description: 'Fine' } };
    const output = flatten([null, undefined, valid]);
    expect(output).toHaveLength(1);
    expect(asFunction(output[0]).name).toBe('ok');
  });
});
