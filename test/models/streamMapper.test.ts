// The stream mapper on hand-made events: each wire quirk of docs/design.md, platform fact 8 in isolation.
import { describe, expect, it } from 'vitest';
import type { ModelEvent } from '../../src/models/events.ts';
import { StreamMapper, mapUsage } from '../../src/models/streamMapper.ts';

function run(events: unknown[], options = {}): ModelEvent[] {
  const mapper = new StreamMapper(options);
  return [...events.flatMap((e) => mapper.push(e)), ...mapper.end()];
}

const created = {
  type: 'response.created',
  sequence_number: 0,
  response: { id: 'resp_1', model: 'gpt-5-mini', output: [], status: 'in_progress' },
};
const completed = (output: unknown[] = [], usage: unknown = null) => ({
  type: 'response.completed',
  response: { id: 'resp_1', model: 'gpt-5-mini', status: 'completed', output, usage },
});
const fcAdded = {
  type: 'response.output_item.added',
  output_index: 0,
  item: {
    id: 'fc_1',
    type: 'function_call',
    status: 'in_progress',
    arguments: '',
    call_id: 'call_1',
    name: 'get_weather',
  },
};
const fcItem = {
  id: 'fc_1',
  type: 'function_call',
  status: 'completed',
  arguments: '{"city":"Paris"}',
  call_id: 'call_1',
  name: 'get_weather',
};

describe('StreamMapper', () => {
  it('maps created, text deltas, item.done and completed with usage and latency', () => {
    let now = 1000;
    const message = {
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hi there', annotations: [], logprobs: [] }],
    };
    const mapper = new StreamMapper({ startedAt: 1000, now: () => now });
    const events = [
      ...mapper.push(created),
      ...mapper.push({ type: 'response.in_progress', response: { id: 'resp_1' } }),
      ...mapper.push({
        type: 'response.output_text.delta',
        item_id: 'msg_1',
        content_index: 0,
        delta: 'Hi',
        obfuscation: 'xyz',
      }),
      // logprobs missing, as in one real recording
      ...mapper.push({ type: 'response.output_text.delta', item_id: 'msg_1', content_index: 0, delta: ' there' }),
      ...mapper.push({ type: 'response.output_text.done', item_id: 'msg_1', content_index: 0, text: 'Hi there' }),
      ...mapper.push({ type: 'response.output_item.done', output_index: 0, item: message }),
    ];
    now = 1250;
    events.push(
      ...mapper.push(
        completed([message], {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 4 },
          output_tokens: 5,
          output_tokens_details: { reasoning_tokens: 2 },
          total_tokens: 15,
        }),
      ),
    );
    expect(events).toEqual([
      { type: 'created', responseId: 'resp_1', model: 'gpt-5-mini' },
      { type: 'text.delta', itemId: 'msg_1', delta: 'Hi' },
      { type: 'text.delta', itemId: 'msg_1', delta: ' there' },
      { type: 'item.done', item: message },
      {
        type: 'completed',
        responseId: 'resp_1',
        model: 'gpt-5-mini',
        usage: { inputTokens: 10, outputTokens: 5, reasoningTokens: 2, cachedTokens: 4 },
        latencyMs: 250,
      },
    ]);
    expect(mapper.done).toBe(true);
    expect(mapper.end()).toEqual([]);
  });

  it('takes the function name and call_id from output_item.added, since arguments.done has no name', () => {
    const events = run([
      created,
      fcAdded,
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"city":', obfuscation: 'a' },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '"Paris"}', obfuscation: 'b' },
      { type: 'response.function_call_arguments.done', item_id: 'fc_1', arguments: '{"city":"Paris"}' },
      { type: 'response.output_item.done', item: fcItem },
      completed([fcItem]),
    ]);
    expect(events.filter((e) => e.type.startsWith('function_call'))).toEqual([
      { type: 'function_call.added', itemId: 'fc_1', callId: 'call_1', name: 'get_weather' },
      { type: 'function_call.arguments.delta', itemId: 'fc_1', delta: '{"city":' },
      { type: 'function_call.arguments.delta', itemId: 'fc_1', delta: '"Paris"}' },
      {
        type: 'function_call.done',
        itemId: 'fc_1',
        callId: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
    ]);
    expect(events.at(-2)).toEqual({ type: 'item.done', item: fcItem });
  });

  it('falls back to the accumulated deltas when arguments.done carries no arguments', () => {
    const events = run([
      created,
      fcAdded,
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{}' },
      { type: 'response.function_call_arguments.done', item_id: 'fc_1' },
    ]);
    expect(events.find((e) => e.type === 'function_call.done')).toMatchObject({ arguments: '{}' });
  });

  it('describes a call from output_item.done when the server sent neither added nor arguments events', () => {
    const events = run([created, { type: 'response.output_item.done', item: fcItem }, completed([fcItem])]);
    expect(events.map((e) => e.type)).toEqual([
      'created',
      'function_call.added',
      'function_call.done',
      'item.done',
      'completed',
    ]);
  });

  it('streams reasoning summaries, separating summary parts, and keeps encrypted_content on item.done', () => {
    const item = {
      id: 'rs_1',
      type: 'reasoning',
      encrypted_content: 'gAAAA-full',
      summary: [
        { type: 'summary_text', text: 'One.' },
        { type: 'summary_text', text: 'Two.' },
      ],
    };
    const events = run([
      created,
      {
        type: 'response.output_item.added',
        item: { id: 'rs_1', type: 'reasoning', encrypted_content: 'gAAAA-partial', summary: [] },
      },
      { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', summary_index: 0 },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 0, delta: 'One.' },
      { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', summary_index: 1 },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', summary_index: 1, delta: 'Two.' },
      { type: 'response.output_item.done', item },
      completed([item]),
    ]);
    expect(
      events.filter((e) => e.type === 'reasoning.delta').map((e) => (e.type === 'reasoning.delta' ? e.delta : '')),
    ).toEqual(['One.', '\n\n', 'Two.']);
    expect(events.find((e) => e.type === 'item.done')).toEqual({ type: 'item.done', item });
  });

  it('emits the text of a .done event whose deltas never came (whole, or the missing tail)', () => {
    const noDeltas = run([
      created,
      { type: 'response.output_text.done', item_id: 'msg_1', content_index: 0, text: 'All at once' },
      completed(),
    ]);
    expect(noDeltas).toContainEqual({ type: 'text.delta', itemId: 'msg_1', delta: 'All at once' });
    const tail = run([
      created,
      { type: 'response.output_text.delta', item_id: 'msg_1', content_index: 0, delta: 'Half' },
      { type: 'response.output_text.done', item_id: 'msg_1', content_index: 0, text: 'Half and half' },
      completed(),
    ]);
    expect(tail.filter((e) => e.type === 'text.delta')).toEqual([
      { type: 'text.delta', itemId: 'msg_1', delta: 'Half' },
      { type: 'text.delta', itemId: 'msg_1', delta: ' and half' },
    ]);
  });

  it('reads nested error events (as recorded) and flat ones (as specified) and stops at the first', () => {
    const nested = run([
      created,
      {
        type: 'error',
        error: {
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          message: 'You exceeded your current quota.',
          param: null,
        },
      },
      { type: 'response.failed', response: { id: 'resp_1', error: { code: 'other', message: 'x' } } },
    ]);
    expect(nested.filter((e) => e.type === 'failed')).toEqual([
      {
        type: 'failed',
        error: {
          kind: 'failed',
          code: 'insufficient_quota',
          message: 'The model reported an error (insufficient_quota): You exceeded your current quota.',
          retryable: false,
        },
      },
    ]);
    const flat = run([created, { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null }]);
    expect(flat.at(-1)).toMatchObject({
      type: 'failed',
      error: { kind: 'rate_limit', code: 'rate_limit_exceeded', retryable: true },
    });
  });

  it('maps response.failed on its own', () => {
    const events = run([
      created,
      {
        type: 'response.failed',
        response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'Boom.' } },
      },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'failed',
      error: { kind: 'server', code: 'server_error', retryable: true },
    });
  });

  it('maps response.incomplete to completed with the reason', () => {
    const events = run([
      created,
      {
        type: 'response.incomplete',
        response: {
          id: 'resp_1',
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
          output: [],
        },
      },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'completed',
      responseId: 'resp_1',
      incompleteReason: 'max_output_tokens',
    });
  });

  it('ignores unknown event types and non-objects', () => {
    const events = run([
      created,
      { type: 'response.something_new', foo: 1 },
      'garbage',
      null,
      42,
      { no: 'type' },
      completed(),
    ]);
    expect(events.map((e) => e.type)).toEqual(['created', 'completed']);
  });

  it('reports a stream that ends without completed as stream_cut, retryable', () => {
    const events = run([created, { type: 'response.output_text.delta', item_id: 'm', delta: 'x' }]);
    expect(events.at(-1)).toMatchObject({ type: 'failed', error: { kind: 'stream_cut', retryable: true } });
    expect((events.at(-1) as { error: { message: string } }).error.message).toMatch(/after 2 events/);
  });

  it('delivers output items that only response.completed carries', () => {
    const message = {
      id: 'msg_9',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Late', annotations: [] }],
    };
    const events = run([created, completed([message])]);
    expect(events.map((e) => e.type)).toEqual(['created', 'text.delta', 'item.done', 'completed']);
  });

  it('maps usage leniently', () => {
    expect(mapUsage(null)).toBeUndefined();
    expect(mapUsage({ input_tokens: 3, output_tokens: 4 })).toEqual({ inputTokens: 3, outputTokens: 4 });
  });
});
