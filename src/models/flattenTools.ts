/**
 * Tool definition flattening for the Responses API (docs/specs/001-tool-flattening.md, "Tool Definition
 * Transformation").
 *
 * createToolDefinition(tool) (src/tools/toolDefinition.ts) produces the nested Chat-Completions shape
 * `{type:'function', function:{name, description, strict?, parameters}}`; `/v1/responses` wants it flat:
 * `{type:'function', name, description, strict, parameters}`. Hosted tools (`{type:'web_search'}`, ...) pass through
 * unchanged (less any `function` key: INV-1). Anything invalid is dropped with a console warning rather than thrown, because one bad tool must not
 * take the whole agent down — but it must not reach the API either, where it would fail the entire request.
 */
import { isRecord } from '../shared/plainObject.ts';

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  strict: boolean;
  parameters: Record<string, unknown>;
}

/** A hosted (server-side) tool such as `{type:'web_search'}`: passed through verbatim. */
export type ResponsesHostedTool = Record<string, unknown> & { type: string };

export type ResponsesApiTool = ResponsesFunctionTool | ResponsesHostedTool;

/**
 * Tool types the Responses API defines besides `function` (the `Tool` union in the OpenAPI spec; the conformance
 * suite checks this list against corpora/openai-openapi). Unknown types are dropped: the seed's error case 1
 * (`{type:'invalid'}`) must not reach the API.
 */
export const HOSTED_TOOL_TYPES: ReadonlySet<string> = new Set([
  'file_search',
  'computer',
  'computer_use_preview',
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'mcp',
  'code_interpreter',
  'programmatic_tool_calling',
  'image_generation',
  'local_shell',
  'shell',
  'custom',
  'namespace',
  'tool_search',
  'apply_patch',
]);

/** Hard fact 5: names on the wire. Qualified names (`dom.click`) must have been encoded by the registry already. */
export const WIRE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const LOG_PREFIX = '[OpenAIResponsesClient]';

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** One function tool, nested or (leniently) already flat, to the flat shape; null (with a warning) if invalid. */
function flattenFunctionTool(tool: Record<string, unknown>): ResponsesFunctionTool | null {
  // Already-flat definitions are accepted too, so callers may pass either shape without double work.
  const fn = isRecord(tool.function) ? tool.function : 'name' in tool ? tool : undefined;
  if (!fn) {
    console.warn(`${LOG_PREFIX} Function tool has no "function" object; dropped:`, tool);
    return null;
  }
  if (!nonEmptyString(fn.name) || !nonEmptyString(fn.description)) {
    // The seed's error case 2 says "log error" (case 1, an unknown type, is a warning).
    console.error(
      `${LOG_PREFIX} Function tool missing required fields (function.name, function.description); dropped:`,
      tool,
    );
    return null;
  }
  if (!WIRE_TOOL_NAME.test(fn.name)) {
    console.warn(
      `${LOG_PREFIX} Tool name "${fn.name}" does not match ${String(WIRE_TOOL_NAME)} (encode qualified names); dropped.`,
    );
    return null;
  }
  if (fn.parameters !== undefined && fn.parameters !== null && !isRecord(fn.parameters)) {
    console.warn(`${LOG_PREFIX} Tool "${fn.name}" has parameters that are not a JSON Schema object; dropped.`);
    return null;
  }
  return {
    type: 'function',
    name: fn.name,
    description: fn.description,
    // The API requires `strict`; absent means the lenient mode the seed specifies.
    strict: fn.strict === true,
    // Copied by reference, unmodified (TR-3): the schema is identical in both APIs.
    parameters: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
  };
}

/**
 * Nested (Chat Completions) tool definitions → Responses API tools. Pure apart from console warnings; the output
 * is never longer than the input (INV-3) and no output has a `function` property (INV-1).
 */
export function flattenToolsForResponsesApi(tools: unknown): ResponsesApiTool[] {
  if (!Array.isArray(tools)) return [];
  const out: ResponsesApiTool[] = [];
  const names = new Set<string>();
  for (const tool of tools) {
    if (!isRecord(tool)) {
      console.warn(`${LOG_PREFIX} Invalid tool object; dropped:`, tool);
      continue;
    }
    if (tool.type === 'function') {
      const flat = flattenFunctionTool(tool);
      if (!flat) continue;
      // The API refuses a request with two functions of the same name; keep the first.
      if (names.has(flat.name)) {
        console.warn(`${LOG_PREFIX} Duplicate tool name "${flat.name}"; later definition dropped.`);
        continue;
      }
      names.add(flat.name);
      out.push(flat);
    } else if (typeof tool.type === 'string' && HOSTED_TOOL_TYPES.has(tool.type)) {
      // Verbatim except a stray `function` key, which no hosted tool has and INV-1 forbids in any output.
      if ('function' in tool) {
        const { function: _dropped, ...hosted } = tool;
        out.push(hosted as ResponsesHostedTool);
      } else out.push(tool as ResponsesHostedTool);
    } else {
      console.warn(`${LOG_PREFIX} Unknown tool type ${JSON.stringify(tool.type)}; dropped:`, tool);
    }
  }
  return out;
}
