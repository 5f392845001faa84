/**
 * The body of `POST /v1/responses` for one turn. Kept apart from the client so tests can validate exactly what
 * would be sent against the OpenAPI `CreateResponse` schema.
 */
import type { ModelRequest, ResponseItem } from './events.ts';
import { flattenToolsForResponsesApi, type ResponsesApiTool } from './flattenTools.ts';

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export interface RequestSettings {
  model: string;
  instructions?: string;
  parallelToolCalls: boolean;
  store: boolean;
  reasoningEffort?: ReasoningEffort;
  /** Hosted tools the config enables (`agent.hosted_tools`), e.g. `[{type:'web_search'}]`. */
  hostedTools?: readonly Record<string, unknown>[];
  /** Override the model-name guess of whether this is a reasoning model. */
  reasoningModel?: boolean;
}

export interface ResponsesRequestBody {
  model: string;
  input: ResponseItem[];
  instructions?: string;
  tools?: ResponsesApiTool[];
  tool_choice?: 'auto';
  parallel_tool_calls?: boolean;
  store: boolean;
  stream: true;
  previous_response_id?: string;
  reasoning?: { effort: ReasoningEffort; summary: 'auto' };
  include?: string[];
}

/**
 * OpenAI's reasoning families (o1, o3, o4-mini, gpt-5*, codex-*), with or without a router prefix like `openai/`.
 * Only used to ask for encrypted reasoning under store:false; a wrong guess is corrected by `reasoningModel`.
 */
export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split('/').pop() ?? '';
  return /^(o\d|gpt-5|codex)/.test(name);
}

/**
 * Tools for the wire: the request's function tools flattened; hosted tools only when the config lists their type
 * (a tool pack cannot switch on a paid server-side tool by itself), plus the configured hosted tools themselves.
 */
export function toolsForRequest(
  tools: unknown[],
  hostedTools: readonly Record<string, unknown>[] = [],
): ResponsesApiTool[] {
  const allowedHosted = new Set(
    hostedTools.map((tool) => tool.type).filter((type): type is string => typeof type === 'string'),
  );
  const flat = flattenToolsForResponsesApi(tools).filter((tool) => {
    if (tool.type === 'function' || allowedHosted.has(tool.type)) return true;
    console.warn(`[OpenAIResponsesClient] Hosted tool "${tool.type}" is not enabled in agent.hosted_tools; not sent.`);
    return false;
  });
  const present = new Set(flat.filter((tool) => tool.type !== 'function').map((tool) => tool.type));
  for (const hosted of flattenToolsForResponsesApi(hostedTools)) {
    if (hosted.type !== 'function' && !present.has(hosted.type)) flat.push(hosted);
  }
  return flat;
}

export function buildRequestBody(settings: RequestSettings, request: ModelRequest): ResponsesRequestBody {
  const tools = toolsForRequest(request.tools, settings.hostedTools);
  const instructions = request.instructions ?? settings.instructions;
  const reasoningModel =
    settings.reasoningModel ?? (settings.reasoningEffort !== undefined || isReasoningModel(settings.model));
  const body: ResponsesRequestBody = {
    model: settings.model,
    input: request.input,
    store: settings.store,
    stream: true,
  };
  if (instructions) body.instructions = instructions;
  // Without tools, tool_choice/parallel_tool_calls are noise that some compatible servers reject.
  if (tools.length > 0) {
    body.tools = tools;
    body.tool_choice = 'auto';
    body.parallel_tool_calls = settings.parallelToolCalls;
  }
  if (request.previousResponseId) body.previous_response_id = request.previousResponseId;
  if (settings.reasoningEffort) body.reasoning = { effort: settings.reasoningEffort, summary: 'auto' };
  // Under store:false the server keeps nothing: reasoning must travel with the transcript, encrypted, or the next
  // turn that replays a reasoning item fails with "Item with id 'rs_…' not found".
  if (reasoningModel && !settings.store) body.include = ['reasoning.encrypted_content'];
  return body;
}
