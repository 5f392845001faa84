/**
 * Builds the nested Chat-Completions tool definition `{type:'function', function:{name, description, strict?,
 * parameters}}` that the model client flattens for the Responses API. The JSON Schema comes from the same zod schema
 * the interceptor validates with, so what the model is told and what is enforced cannot drift apart.
 */
import { z } from '../shared/zod.ts';
import { qualifiedNameOf, type AnyTool } from './Tool.ts';

export interface ToolDefinition {
  type: 'function';
  function: {
    name: string;
    description: string;
    strict?: boolean;
    parameters: Record<string, unknown>;
  };
}

type JsonObject = Record<string, unknown>;

// Converting a schema is the expensive part (it walks the whole zod tree); tools are long-lived, so convert once.
const cache = new WeakMap<object, { input?: JsonObject; output?: JsonObject }>();

/**
 * The JSON Schema of a tool's parameters. `io: 'input'` describes what the caller may send, so parameters with zod
 * defaults are optional for the model; strict tools get the output view, whose objects carry
 * `additionalProperties: false` as OpenAI's strict mode requires.
 */
export function parametersJsonSchema(schema: z.ZodObject, io: 'input' | 'output' = 'input'): JsonObject {
  let entry = cache.get(schema);
  if (!entry) cache.set(schema, (entry = {}));
  const hit = entry[io];
  if (hit) return structuredClone(hit);
  // 'any' keeps a schema with an unrepresentable part (a transform, a date) usable instead of throwing at listing.
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
  delete json.$schema; // the API wants the bare object schema
  stripSafeIntBounds(json);
  if (json.type !== 'object') throw new Error('Tool parameters must be an object schema');
  if (!json.properties) json.properties = {};
  // Unknown arguments are refused at validation (validate.ts) with an error the model reads; the schema sent does not
  // repeat it (additionalProperties: false on every tool cost ~440 characters of the 12,000 definition budget).
  entry[io] = json;
  return structuredClone(json);
}

// z.int() emits ±MAX_SAFE_INTEGER bounds on every integer: noise that costs tokens on every request.
function stripSafeIntBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) stripSafeIntBounds(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as JsonObject;
  if (obj.minimum === Number.MIN_SAFE_INTEGER) delete obj.minimum;
  if (obj.maximum === Number.MAX_SAFE_INTEGER) delete obj.maximum;
  for (const key in obj) stripSafeIntBounds(obj[key]);
}

/** The nested definition, named `apiName` on the wire (the registry's encoded name) or the qualified name. */
export function createToolDefinition(tool: AnyTool, apiName?: string): ToolDefinition {
  const parameters = tool.inputSchema
    ? (structuredClone(tool.inputSchema) as JsonObject)
    : parametersJsonSchema(tool.parameters, tool.strict ? 'output' : 'input');
  const fn: ToolDefinition['function'] = {
    name: apiName ?? qualifiedNameOf(tool),
    description: tool.description,
    parameters,
  };
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}
