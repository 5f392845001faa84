/**
 * Which wire a base URL speaks (config `agent.api`): `responses`, `chat`, or `auto`. In `auto`, Otto asks the
 * Responses API first; a server that has no such endpoint — it answers 404 or 405 before streaming anything, and the
 * error is not OpenAI's "model not found" — is asked again over Chat Completions, once, with a notice, and the
 * answer is remembered for that base URL (a `TransportMemory`, persisted by the worker) so later turns go straight to
 * it.
 */
import type { CompactRequest, CompactResult, ModelClient, ModelErrorInfo, ModelEvent, ModelRequest } from './events.ts';

export type Transport = 'responses' | 'chat';

export interface TransportMemory {
  get(baseUrl: string): Promise<Transport | undefined>;
  set(baseUrl: string, transport: Transport): Promise<void>;
}

/**
 * A 404/405 that may mean the endpoint is missing — not OpenAI's "model not found". (A server that answers an unknown
 * model with a bare 404 is asked over Chat Completions too; its answer there is the truth, and nothing is
 * remembered unless that works.)
 */
export function isMissingEndpoint(error: ModelErrorInfo): boolean {
  return (error.status === 404 || error.status === 405) && error.code !== 'model_not_found';
}

export function switchedNotice(baseUrl: string): string {
  return `${baseUrl} has no Responses API (it answered "not found"), so Otto talks to it over Chat Completions from now on. Set agent.api in Settings to choose.`;
}

export interface AutoTransportOptions {
  baseUrl: string;
  memory: TransportMemory;
  responses: () => ModelClient;
  chat: () => ModelClient;
}

/** A ModelClient for `agent.api: auto` (see the module comment). */
export function autoTransport(options: AutoTransportOptions): ModelClient {
  return {
    async compact(request: CompactRequest): Promise<CompactResult> {
      const chat = (await options.memory.get(options.baseUrl)) === 'chat';
      const client = chat ? undefined : options.responses();
      if (client?.compact) return client.compact(request);
      return {
        ok: false,
        unsupported: true,
        error: { kind: 'not_found', message: 'No server-side compaction over Chat Completions.', retryable: false },
      };
    },
    async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
      if ((await options.memory.get(options.baseUrl)) === 'chat') {
        yield* options.chat().stream(request);
        return;
      }
      let first = true;
      for await (const event of options.responses().stream(request)) {
        if (first && event.type === 'failed' && isMissingEndpoint(event.error)) {
          let firstChat = true;
          for await (const chatEvent of options.chat().stream(request)) {
            if (firstChat && chatEvent.type !== 'failed' && chatEvent.type !== 'retrying') {
              // Chat Completions answered: remember it for this server, and say so once.
              await options.memory.set(options.baseUrl, 'chat');
              yield { type: 'notice', message: switchedNotice(options.baseUrl) };
              firstChat = false;
            }
            yield chatEvent;
          }
          return;
        }
        first = false;
        yield event;
      }
    },
  };
}
