// BaseTool and raw tools: names, destructiveness, and the nested Chat-Completions definition built from zod.
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { z } from '../../src/shared/zod.ts';
import { BaseTool } from '../../src/tools/BaseTool.ts';
import type { ToolContext } from '../../src/tools/context.ts';
import { defineTool } from '../../src/tools/defineTool.ts';
import { buildToolDefinition } from '../../src/tools/definition.ts';
import { ToolInterceptor } from '../../src/tools/interceptor.ts';
import { isDestructiveCall } from '../../src/tools/Tool.ts';
import { ToolRegistry } from '../../src/tools/ToolRegistry.ts';
import { makeCtx, newLogger } from './helpers.ts';

const TypeParams = z.object({
  ref: z.string().describe('Element ref from the snapshot, e.g. e12'),
  text: z.string(),
  submit: z.boolean().default(false),
  delay: z.number().int().min(0).optional(),
});

class TypeTool extends BaseTool<typeof TypeParams, string> {
  readonly pack = 'dom';
  readonly name = 'type';
  readonly description = 'Type text into an input';
  readonly parameters = TypeParams;
  readonly readOnly = false;
  override readonly examples = ["dom.type(ref='e3', text='hello')"];
  override readonly returns = 'What landed in the field';
  execute(args: z.output<typeof TypeParams>, _ctx: ToolContext): string {
    return `typed ${args.text}`;
  }
}

class ReadTool extends BaseTool<typeof TypeParams, string> {
  readonly pack = 'dom';
  readonly name = 'maybe_type';
  readonly description = 'Reads, and types only into a password field';
  readonly parameters = TypeParams;
  readonly readOnly = true;
  override isDestructive(args: z.output<typeof TypeParams>): boolean {
    return args.ref === 'password';
  }
  execute(): string {
    return 'ok';
  }
}

describe('BaseTool', () => {
  it('has a qualified name pack.name and derives destructive from readOnly', () => {
    const tool = new TypeTool();
    expect(tool.qualifiedName).toBe('dom.type');
    expect(tool.destructive).toBe(true);
    expect(new ReadTool().destructive).toBe(false);
  });

  it('isDestructive refines destructiveness per call (typing into a password field)', () => {
    const ctx = makeCtx();
    const tool = new ReadTool();
    expect(isDestructiveCall(tool, { ref: 'password', text: 'x', submit: false }, ctx)).toBe(true);
    expect(isDestructiveCall(tool, { ref: 'e1', text: 'x', submit: false }, ctx)).toBe(false);
    expect(isDestructiveCall(new TypeTool(), { ref: 'e1', text: 'x', submit: false }, ctx)).toBe(true);
  });

  it('createToolDefinition returns the nested Chat-Completions shape with a clean JSON Schema', () => {
    const def = new TypeTool().createToolDefinition('dom__type');
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
    expect(new TypeTool().createToolDefinition().function.name).toBe('dom.type');
  });

  it('the definition is a valid JSON Schema that accepts what the zod schema accepts', () => {
    const params = new TypeTool().createToolDefinition().function.parameters;
    const validator = new Validator(params as never, '2020-12');
    expect(validator.validate({ ref: 'e1', text: 'hi' }).valid).toBe(true);
    expect(validator.validate({ ref: 'e1' }).valid).toBe(false);
    expect(validator.validate({ ref: 'e1', text: 'hi', delay: 1.5 }).valid).toBe(false);
  });

  it('definitions are fresh copies: editing one does not leak into the next', () => {
    const tool = new TypeTool();
    const first = tool.createToolDefinition();
    (first.function.parameters as { properties: Record<string, unknown> }).properties.injected = {};
    expect(tool.createToolDefinition().function.parameters).not.toHaveProperty('properties.injected');
  });

  it('a subclass registers like any tool and runs through the interceptor with validated arguments', async () => {
    const registry = new ToolRegistry();
    registry.registerPack({ name: 'dom' }, [new TypeTool(), new ReadTool()]);
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
    class StrictTool extends TypeTool {
      override readonly strict = true;
    }
    const def = new StrictTool().createToolDefinition();
    expect(def.function.strict).toBe(true);
    expect(def.function.parameters.additionalProperties).toBe(false);
  });
});

describe('Raw tools (defineTool)', () => {
  it('a plain object tool needs no base class and yields the same definition shape', async () => {
    const tool = defineTool({
      pack: 'math',
      name: 'add',
      description: 'Add two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      readOnly: true,
      execute: ({ a, b }) => a + b,
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(await tool.execute({ a: 1, b: 2 }, makeCtx())).toBe(3);
    expect(buildToolDefinition(tool, 'math__add')).toEqual({
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

  it('refuses a pack with a dot, an empty name, or a missing execute', () => {
    const base = { description: '', parameters: z.object({}), readOnly: true, execute: () => 1 };
    expect(() => defineTool({ ...base, pack: 'a.b', name: 'x' })).toThrow(/without dots/);
    expect(() => defineTool({ ...base, pack: 'a', name: '' })).toThrow(/empty name/);
    expect(() => defineTool({ ...base, pack: 'a', name: 'x', execute: undefined as never })).toThrow(/no execute/);
  });

  it('a proxy tool can send its server JSON Schema verbatim', () => {
    const inputSchema = { type: 'object', properties: { q: { type: 'string', format: 'x-custom' } } };
    const tool = defineTool({
      pack: 'gh',
      name: 'search',
      description: '',
      parameters: z.looseObject({}),
      inputSchema,
      readOnly: true,
      execute: () => 1,
    });
    expect(buildToolDefinition(tool).function.parameters).toEqual(inputSchema);
  });
});
