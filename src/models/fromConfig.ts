/**
 * Config (`agent:` section) + secrets → OpenAIResponsesClient options, so the composition root does not need to
 * know how config names map onto client options (seconds vs milliseconds, snake_case vs camelCase).
 */
import type { OttoConfig, Secrets } from '../config/schema.ts';
import type { OpenAIResponsesClientOptions } from './OpenAIResponsesClient.ts';
import type { ChatCompletionsClientOptions } from './ChatCompletionsClient.ts';

export function clientOptionsFromConfig(agent: OttoConfig['agent'], secrets: Secrets): OpenAIResponsesClientOptions {
  return {
    baseURL: agent.base_url,
    apiKey: secrets.OPENAI_API_KEY ?? '',
    model: agent.model,
    ...(agent.instructions ? { instructions: agent.instructions } : {}),
    parallelToolCalls: agent.parallel_tool_calls,
    store: agent.store,
    ...(agent.reasoning_effort ? { reasoningEffort: agent.reasoning_effort } : {}),
    hostedTools: agent.hosted_tools,
    timeoutMs: agent.request_timeout * 1000,
    maxRetries: agent.max_retries,
  };
}

/** The same settings for the Chat Completions client (no `store`, no hosted tools: the wire has neither). */
export function chatOptionsFromConfig(agent: OttoConfig['agent'], secrets: Secrets): ChatCompletionsClientOptions {
  const { store: _store, hostedTools: _hosted, ...common } = clientOptionsFromConfig(agent, secrets);
  return { ...common, images: agent.images };
}
