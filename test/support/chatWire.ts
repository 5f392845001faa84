/**
 * Plays scripted ModelEvents over the Chat Completions wire (issue #18): each event is encoded as the chunk a chat
 * server would send and decoded again by the real ChatStreamMapper, so the agent-core suites can run once per wire.
 * What a chat server cannot carry is lost on the way, as it would be for real (reasoning's encrypted content, the
 * Responses item ids); failures pass through unchanged, since the point of those tests is the loop's handling.
 */
import { CHAT_DONE, ChatStreamMapper } from '../../src/models/chatStreamMapper.ts';
import type { ModelEvent } from '../../src/models/events.ts';

export type ScriptWire = 'responses' | 'chat';

/** The wire the agent-core suites run over: `OTTO_TEST_WIRE=chat` (set by the `agent-chat` vitest project). */
export const TEST_WIRE: ScriptWire = process.env.OTTO_TEST_WIRE === 'chat' ? 'chat' : 'responses';

export class ChatWireEncoder {
  private mapper: ChatStreamMapper | undefined;
  private readonly callIndex = new Map<string, number>();
  private id = '';

  /** The events the real client would yield after the server sent `event`'s chunk. */
  push(event: ModelEvent): ModelEvent[] {
    switch (event.type) {
      case 'created':
        this.mapper = new ChatStreamMapper({ startedAt: 0, now: () => 0 });
        this.callIndex.clear();
        this.id = event.responseId;
        return this.send({ choices: [] }, event.model);
      case 'text.delta':
        return this.send({ choices: [{ index: 0, delta: { content: event.delta } }] });
      case 'reasoning.delta':
        return this.send({ choices: [{ index: 0, delta: { reasoning_content: event.delta } }] });
      case 'function_call.added': {
        const index = this.callIndex.size;
        this.callIndex.set(event.itemId, index);
        const call = { index, id: event.callId, type: 'function', function: { name: event.name, arguments: '' } };
        return this.send({ choices: [{ index: 0, delta: { tool_calls: [call] } }] });
      }
      case 'function_call.arguments.delta': {
        const call = { index: this.callIndex.get(event.itemId) ?? 0, function: { arguments: event.delta } };
        return this.send({ choices: [{ index: 0, delta: { tool_calls: [call] } }] });
      }
      case 'completed': {
        const finish = event.incompleteReason ? 'length' : this.callIndex.size ? 'tool_calls' : 'stop';
        const usage = event.usage && {
          prompt_tokens: event.usage.inputTokens,
          completion_tokens: event.usage.outputTokens,
          ...(event.usage.cachedTokens !== undefined
            ? { prompt_tokens_details: { cached_tokens: event.usage.cachedTokens } }
            : {}),
        };
        const out = this.send({
          choices: [{ index: 0, delta: {}, finish_reason: finish }],
          ...(usage ? { usage } : {}),
        });
        const done = this.mapper?.push(CHAT_DONE) ?? [];
        // The loop records the server's latency; a chat stream's is measured by the client, here a fixed value.
        return [...out, ...done.map((e) => (e.type === 'completed' ? { ...e, latencyMs: event.latencyMs } : e))];
      }
      case 'failed':
        return [event];
      default:
        // function_call.done and item.done: a chat server sends nothing more; the mapper makes them at the end.
        return [];
    }
  }

  private send(chunk: Record<string, unknown>, model?: string): ModelEvent[] {
    if (!this.mapper) return [];
    return this.mapper.push({ id: this.id, object: 'chat.completion.chunk', model: model ?? 'scripted', ...chunk });
  }
}

/**
 * Whether items complete mid-stream (Responses' `output_item.done`). Over Chat Completions every item is made when
 * the stream ends, so the suites about an item persisted, held or discarded before the response finished apply to
 * the Responses wire only.
 */
export const MID_STREAM_ITEMS = TEST_WIRE === 'responses';
