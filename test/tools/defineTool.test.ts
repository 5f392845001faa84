// The one tool contract (BaseTool, made with defineTool): effects, approval per call, and the nested Chat-Completions
// definition built from zod.
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { createToolDefinition } from '../../src/tools/toolDefinition.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { callNeedsApproval, fixedApproval, qualifiedNameOf, readsOnly } from '../../src/tools/Tool.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { makeCtx, newLogger } from './helpers.ts';

const TypeParams = z.object({
  ref: z.string().describe('Element ref from the snapshot, e.g. e12'),
  text: z.string(),
  submit: z.boolean().default(false),
  delay: z.number().int().min(0).optional(),
});

const typeTool = (extra: { strict?: boolean } = {}) =>
  defineTool({
    pack: 'dom',
    name: 'type',
    description: 'Type text into an input',
    parameters: TypeParams,
    effect: 'changes',
    needsApproval: (args) => args.ref === 'password',
    examples: ["dom.type(ref='e3', text='hello')"],
    returns: 'What landed in the field',
    ...extra,
    execute: (args) => `typed ${args.text}`,
  });

const plain = (effect: 'reads' | 'changes' | 'sends') =>
  defineTool({ pack: 'p', name: effect, description: '', parameters: z.object({}), effect, execute: () => 1 });

describe('BaseTool: one contract, made with defineTool', () => {
  it('has a qualified name pack.name; only "reads" reads only', () => {
    expect(qualifiedNameOf(typeTool())).toBe('dom.type');
    expect([readsOnly(plain('reads')), readsOnly(plain('changes')), readsOnly(plain('sends'))]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('each effect has its default approval: reads and changes do not ask, sends does', () => {
    const ctx = makeCtx();
    expect(callNeedsApproval(plain('reads'), {}, ctx)).toBe(false);
    expect(callNeedsApproval(plain('changes'), {}, ctx)).toBe(false);
    expect(callNeedsApproval(plain('sends'), {}, ctx)).toBe(true);
    expect([fixedApproval(plain('reads')), fixedApproval(plain('sends')), fixedApproval(typeTool())]).toEqual([
      false,
      true,
      undefined,
    ]);
  });

  it('needsApproval refines the effect per call (typing into a password field), or fixes it (closing a tab)', () => {
    const ctx = makeCtx();
    const tool = typeTool();
    expect(callNeedsApproval(tool, { ref: 'password', text: 'x', submit: false }, ctx)).toBe(true);
    expect(callNeedsApproval(tool, { ref: 'e1', text: 'x', submit: false }, ctx)).toBe(false);
    const close = defineTool({ ...plain('changes'), needsApproval: true });
    expect(callNeedsApproval(close, {}, ctx)).toBe(true);
    const quiet = defineTool({ ...plain('sends'), needsApproval: false });
    expect(fixedApproval(quiet)).toBe(false);
  });

  it('createToolDefinition returns the nested Chat-Completions shape with a clean JSON Schema', () => {
    const def = createToolDefinition(typeTool(), 'dom__type');
    expect(def.type).toBe('function');
    expect(def.function.name).toBe('dom__type');
    expect(def.function.description).toBe('Type text into an input');
    expect(def.function).not.toHaveProperty('strict');
    const params = def.function.parameters as {
      $schema?: string;
      type: string;
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(params.$schema).toBeUndefined();
    expect(params.type).toBe('object');
    expect(params.properties.ref!.description).toBe('Element ref from the snapshot, e.g. e12');
    expect(params.required).toEqual(['ref', 'text']); // defaulted and optional parameters are optional for the model
    expect(params.properties.delay).toEqual({ type: 'integer', minimum: 0 }); // no ±MAX_SAFE_INTEGER noise
    expect(createToolDefinition(typeTool()).function.name).toBe('dom.type');
  });

  it('the definition is a valid JSON Schema that accepts what the zod schema accepts', () => {
    const params = createToolDefinition(typeTool()).function.parameters;
    const validator = new Validator(params as never, '2020-12');
    expect(validator.validate({ ref: 'e1', text: 'hi' }).valid).toBe(true);
    expect(validator.validate({ ref: 'e1' }).valid).toBe(false);
    expect(validator.validate({ ref: 'e1', text: 'hi', delay: 1.5 }).valid).toBe(false);
  });

  it('definitions are fresh copies: editing one does not leak into the next', () => {
    const tool = typeTool();
    const first = createToolDefinition(tool);
    (first.function.parameters as { properties: Record<string, unknown> }).properties.injected = {};
    expect(createToolDefinition(tool).function.parameters).not.toHaveProperty('properties.injected');
  });

  it('registers like any tool and runs through the interceptor with validated arguments', async () => {
    const registry = new ToolRegistry();
    registry.registerPack({ name: 'dom' }, [typeTool(), { ...typeTool(), name: 'maybe_type' }]);
    const tool = registry.fromApiName('dom__type')!;
    const result = await new ToolInterceptor({ logger: newLogger() }).execute(
      tool,
      { ref: 'e1', text: 'hi' },
      makeCtx(),
    );
    expect(result).toBe('typed hi');
    expect(registry.definitions()[0]!.function.name).toBe('dom__maybe_type');
  });

  it('strict tools say so and get additionalProperties: false', () => {
    const def = createToolDefinition(typeTool({ strict: true }));
    expect(def.function.strict).toBe(true);
    expect(def.function.parameters.additionalProperties).toBe(false);
  });

  it('a plain object tool is frozen and yields the definition shape', async () => {
    const tool = defineTool({
      pack: 'math',
      name: 'add',
      description: 'Add two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      effect: 'reads',
      execute: ({ a, b }) => a + b,
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(await tool.execute({ a: 1, b: 2 }, makeCtx())).toBe(3);
    expect(createToolDefinition(tool, 'math__add')).toEqual({
      type: 'function',
      function: {
        name: 'math__add',
        description: 'Add two numbers',
        parameters: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
      },
    });
  });

  it('refuses a pack with a dot, an empty name, a missing execute or a missing effect', () => {
    const base = { description: '', parameters: z.object({}), effect: 'reads' as const, execute: () => 1 };
    expect(() => defineTool({ ...base, pack: 'a.b', name: 'x' })).toThrow(/without dots/);
    expect(() => defineTool({ ...base, pack: 'a', name: '' })).toThrow(/empty name/);
    expect(() => defineTool({ ...base, pack: 'a', name: 'x', execute: undefined as never })).toThrow(/no execute/);
    expect(() => defineTool({ ...base, pack: 'a', name: 'x', effect: 'writes' as never })).toThrow(
      "Tool 'a.x' must declare its effect: 'reads', 'changes', 'sends'",
    );
  });

  it('a proxy tool can send its server JSON Schema verbatim', () => {
    const inputSchema = { type: 'object', properties: { q: { type: 'string', format: 'x-custom' } } };
    const tool = defineTool({
      pack: 'gh',
      name: 'search',
      description: '',
      parameters: z.looseObject({}),
      inputSchema,
      effect: 'reads',
      execute: () => 1,
    });
    expect(createToolDefinition(tool).function.parameters).toEqual(inputSchema);
  });
});
