/**
 * The model the agent talks to, built from the settings in force at each request: editing the base URL, model, key
 * or wire (`agent.api`) applies to the next turn without restarting anything. With no key for OpenAI's own API, the
 * run fails at once with a message that says where to put one; with a stored config that does not validate, nothing
 * is sent at all.
 */
import { OpenAIResponsesClient } from '../models/OpenAIResponsesClient.ts';
import { ChatCompletionsClient } from '../models/ChatCompletionsClient.ts';
import { chatOptionsFromConfig, clientOptionsFromConfig } from '../models/fromConfig.ts';
import type { CompactRequest, CompactResult, ModelClient, ModelEvent, ModelRequest } from '../models/events.ts';
import { autoTransport, type Transport, type TransportMemory } from '../models/transport.ts';
import { blockedByConfig, type Settings } from './settings.ts';

export const NO_KEY_MESSAGE =
  'No API key is set. Open Settings and add OPENAI_API_KEY (or point the base URL at a local server).';

/** Where `auto` remembers which wire each base URL speaks (chrome.storage.local). */
export const TRANSPORTS_KEY = 'agentTransports';

function needsKey(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith('openai.com');
  } catch {
    return false;
  }
}

export const storedTransports: TransportMemory = {
  async get(baseUrl) {
    const stored = (await chrome.storage.local.get(TRANSPORTS_KEY))[TRANSPORTS_KEY] as
      Record<string, Transport> | undefined;
    return stored?.[baseUrl];
  },
  async set(baseUrl, transport) {
    const stored = ((await chrome.storage.local.get(TRANSPORTS_KEY))[TRANSPORTS_KEY] ?? {}) as Record<
      string,
      Transport
    >;
    await chrome.storage.local.set({ [TRANSPORTS_KEY]: { ...stored, [baseUrl]: transport } });
  },
};

/** The client for the settings in force: the configured wire, or `auto`'s choice. */
export function clientFor(
  settings: Settings,
  memory: TransportMemory = storedTransports,
  fetchImpl?: typeof fetch,
): ModelClient {
  const { config, secrets } = settings;
  const extra = fetchImpl ? { fetch: fetchImpl } : {};
  const responses = () => new OpenAIResponsesClient({ ...clientOptionsFromConfig(config.agent, secrets), ...extra });
  const chat = () => new ChatCompletionsClient({ ...chatOptionsFromConfig(config.agent, secrets), ...extra });
  switch (config.agent.api) {
    case 'responses':
      return responses();
    case 'chat':
      return chat();
    default:
      return autoTransport({ baseUrl: config.agent.base_url, memory, responses, chat });
  }
}

export function configuredModelClient(settings: () => Promise<Settings>): ModelClient {
  // Servers found without `/responses/compact`: detected by asking once, remembered until the settings change (a
  // saved config or secret asks again) or the worker restarts.
  const noCompaction = new WeakMap<Settings, Set<string>>();
  return {
    async compact(request: CompactRequest): Promise<CompactResult> {
      const current = await settings();
      const base = current.config.agent.base_url;
      const known = noCompaction.get(current) ?? new Set<string>();
      noCompaction.set(current, known);
      const unsupported = (message: string): CompactResult => ({
        ok: false,
        unsupported: true,
        error: { kind: 'not_found', message, retryable: false },
      });
      if (blockedByConfig(current)) return unsupported('The config does not validate: nothing is sent.');
      if (known.has(base)) return unsupported(`${base} has no server-side compaction.`);
      const client = clientFor(current);
      if (!client.compact) {
        known.add(base);
        return unsupported(`${base} has no server-side compaction.`);
      }
      const result = await client.compact(request);
      if (!result.ok && result.unsupported) known.add(base);
      return result;
    },
    async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
      const current = await settings();
      const { config, secrets } = current;
      // A config that does not validate never falls back to defaults: no request at all (#30).
      const blocked = blockedByConfig(current);
      if (blocked) {
        yield { type: 'failed', error: { kind: 'config', message: blocked, retryable: false } };
        return;
      }
      if (!secrets.OPENAI_API_KEY && needsKey(config.agent.base_url)) {
        yield { type: 'failed', error: { kind: 'auth', message: NO_KEY_MESSAGE, retryable: true } };
        return;
      }
      yield* clientFor(current).stream(request);
    },
  };
}
