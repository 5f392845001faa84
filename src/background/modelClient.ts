/**
 * The model the agent talks to, built from the settings in force at each request: editing the base URL, model or key
 * applies to the next turn without restarting anything. With no key for OpenAI's own API, the run fails at once with
 * a message that says where to put one.
 */
import { OpenAIResponsesClient } from '../models/OpenAIResponsesClient.ts';
import { clientOptionsFromConfig } from '../models/fromConfig.ts';
import type { ModelClient, ModelEvent, ModelRequest } from '../models/events.ts';
import type { Settings } from './settings.ts';

export const NO_KEY_MESSAGE = 'No API key is set. Open Settings and add OPENAI_API_KEY (or point the base URL at a local server).';

function needsKey(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith('openai.com');
  } catch {
    return false;
  }
}

export function configuredModelClient(settings: () => Promise<Settings>): ModelClient {
  return {
    async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
      const { config, secrets } = await settings();
      if (!secrets.OPENAI_API_KEY && needsKey(config.agent.base_url)) {
        yield { type: 'failed', error: { kind: 'auth', message: NO_KEY_MESSAGE, retryable: true } };
        return;
      }
      yield* new OpenAIResponsesClient(clientOptionsFromConfig(config.agent, secrets)).stream(request);
    },
  };
}
