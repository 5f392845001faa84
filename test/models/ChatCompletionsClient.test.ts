// Issue #18: the Chat Completions client — request conversion, the chunk mapper's tolerance of real servers'
// quirks, and `agent.api: auto` switching a server without /responses to Chat Completions (remembered, said once).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatCompletionsClient } from '../../src/models/ChatCompletionsClient.ts';
import { OpenAIResponsesClient } from '../../src/models/OpenAIResponsesClient.ts';
import { IMAGE_NOTE, toChatMessages } from '../../src/models/chatRequestBody.ts';
import { CHAT_DONE, CHAT_MALFORMED, ChatStreamMapper } from '../../src/models/chatStreamMapper.ts';
import type { ModelEvent, ModelRequest, ResponseItem } from '../../src/models/events.ts';
import { autoTransport, isMissingEndpoint, type Transport, type TransportMemory } from '../../src/models/transport.ts';
import { startFakeApi, type FakeApi } from '../support/fake-api/index.ts';
import { collect, doneItems } from '../support/modelEvents.ts';

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi({ fallback: 'error' });
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const tool = {
  type: 'function',
  function: {
    name: 'dom__click',
    description: 'Click an element',
    parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
  },
};
const user = (text: string): ResponseItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});
const req = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  input: [user(text)],
  tools: [tool],
  ...extra,
});
const client = (o: Partial<ConstructorParameters<typeof ChatCompletionsClient>[0]> = {}) =>
  new ChatCompletionsClient({
    baseURL: api.url,
    apiKey: 'sk-chat-test-000000',
    model: 'llama-3.1-8b',
    backoff: { baseMs: 5 },
    ...o,
  });

describe('ChatCompletionsClient against the fake server', () => {
  it('streams text, sends instructions as a system message, tools nested, usage asked for', async () => {
    api.script([
      { text: 'Hello from a chat-only server.', usage: { input_tokens: 42, output_tokens: 7, cached_tokens: 30 } },
    ]);
    const events = await collect(client({ instructions: 'You are Otto.' }).stream(req('hi')));
    expect(events[0]).toMatchObject({ type: 'created', model: 'llama-3.1-8b' });
    expect(doneItems(events)).toEqual([
      expect.objectContaining({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello from a chat-only server.', annotations: [] }],
      }),
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'completed',
      usage: { inputTokens: 42, outputTokens: 7, cachedTokens: 30 },
    });
    const body = api.agentChatRequests()[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'llama-3.1-8b',
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: 'auto',
      parallel_tool_calls: true,
      messages: [
        { role: 'system', content: 'You are Otto.' },
        { role: 'user', content: 'hi' },
      ],
      tools: [tool],
    });
  });

  it('assembles several tool calls from argument deltas split over chunks, as Responses-shaped items', async () => {
    api.script([
      {
        text: 'Clicking both.',
        calls: [
          { name: 'dom__click', arguments: { ref: 'e12' }, callId: 'call_A' },
          { name: 'dom__click', arguments: { ref: 'e13' }, callId: 'call_B' },
        ],
      },
    ]);
    const events = await collect(client().stream(req('click them')));
    expect(
      events.filter((e) => e.type === 'function_call.added').map((e) => e.type === 'function_call.added' && e.callId),
    ).toEqual(['call_A', 'call_B']);
    expect(events.filter((e) => e.type === 'function_call.arguments.delta').length).toBeGreaterThan(2);
    expect(doneItems(events).filter((i) => i.type === 'function_call')).toEqual([
      expect.objectContaining({
        call_id: 'call_A',
        name: 'dom__click',
        arguments: '{"ref":"e12"}',
        status: 'completed',
      }),
      expect.objectContaining({
        call_id: 'call_B',
        name: 'dom__click',
        arguments: '{"ref":"e13"}',
        status: 'completed',
      }),
    ]);
  });

  it('shows reasoning_content as reasoning and keeps it out of what is sent back', async () => {
    api.script([{ reasoning: { summary: 'The user wants a greeting.' }, text: 'Hi!' }]);
    const events = await collect(client().stream(req('hello')));
    expect(
      events
        .filter((e) => e.type === 'reasoning.delta')
        .map((e) => (e.type === 'reasoning.delta' ? e.delta : ''))
        .join(''),
    ).toBe('The user wants a greeting.');
    const next = toChatMessages([user('hello'), ...doneItems(events), user('again')], undefined);
    expect(next).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'Hi!' },
      { role: 'user', content: 'again' },
    ]);
  });
});

describe('the transcript as Chat Completions messages', () => {
  const transcript: ResponseItem[] = [
    user('Open the page and look'),
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }] },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
    { type: 'function_call', call_id: 'c1', name: 'dom__snapshot', arguments: '{}' },
    { type: 'function_call', call_id: 'c2', name: 'tabs__screenshot', arguments: '{}' },
    { type: 'function_call_output', call_id: 'c1', output: '- button "OK" [ref=e1]' },
    {
      type: 'function_call_output',
      call_id: 'c2',
      output: [
        { type: 'input_text', text: 'Screenshot of the tab' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
      ],
    },
  ];

  it('one assistant message carries text and both tool_calls; tool results follow; images in a user message after', () => {
    expect(toChatMessages(transcript, 'sys')).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Open the page and look' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'dom__snapshot', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'tabs__screenshot', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '- button "OK" [ref=e1]' },
      { role: 'tool', tool_call_id: 'c2', content: 'Screenshot of the tab' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images from the tool results above:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ]);
  });

  it('a server without images gets a text note instead', () => {
    const messages = toChatMessages(transcript, undefined, false);
    expect(messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c2',
      content: `Screenshot of the tab\n${IMAGE_NOTE}`,
    });
  });
});

describe('ChatStreamMapper: quirks of real servers', () => {
  const chunk = (
    delta: Record<string, unknown>,
    finish: string | null = null,
    extra: Record<string, unknown> = {},
  ) => ({
    id: 'chatcmpl-1',
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
  const run = (raws: unknown[], end = false) => {
    const m = new ChatStreamMapper({ startedAt: 0, now: () => 5 });
    const out = raws.flatMap((r) => m.push(r));
    return end ? [...out, ...m.end()] : out;
  };
  const calls = (events: ModelEvent[]) => doneItems(events).filter((i) => i.type === 'function_call');

  it('a whole call in one chunk (no deltas), with no id: an id is made up', () => {
    const events = run([
      chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{"a":1}' } }] }, 'tool_calls'),
      CHAT_DONE,
    ]);
    expect(calls(events)).toEqual([
      expect.objectContaining({ name: 'f', arguments: '{"a":1}', call_id: 'call_chatcmpl-1_0' }),
    ]);
  });

  it('calls without an index are told apart by id; index 0 reused with a new id is a new call', () => {
    const events = run([
      chunk({ tool_calls: [{ id: 'x', function: { name: 'f', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ id: 'y', function: { name: 'g', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'z', function: { name: 'h', arguments: '{"q":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '2}' } }] }, 'tool_calls'),
      CHAT_DONE,
    ]);
    expect(calls(events).map((c) => [c.call_id, c.name, c.arguments])).toEqual([
      ['x', 'f', '{}'],
      ['y', 'g', '{}'],
      ['z', 'h', '{"q":2}'],
    ]);
  });

  it('`reasoning` (OpenRouter, Ollama) is reasoning too; usage in a last chunk without choices', () => {
    const events = run([
      chunk({ reasoning: 'hmm' }),
      chunk({ content: 'ok' }, 'stop'),
      { id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } },
      CHAT_DONE,
    ]);
    expect(events.filter((e) => e.type === 'reasoning.delta')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: 'completed',
      usage: { inputTokens: 3, outputTokens: 1 },
      latencyMs: 5,
    });
  });

  it('no [DONE] after a finish_reason still completes; no finish_reason is a cut stream', () => {
    expect(run([chunk({ content: 'a' }, 'stop')], true).at(-1)?.type).toBe('completed');
    expect(run([chunk({ content: 'a' })], true).at(-1)).toMatchObject({
      type: 'failed',
      error: { kind: 'stream_cut' },
    });
  });

  it('finish_reason "length" is an incomplete answer; an error object as a data line fails the stream', () => {
    expect(run([chunk({ content: 'a' }, 'length'), CHAT_DONE]).at(-1)).toMatchObject({
      type: 'completed',
      incompleteReason: 'max_output_tokens',
    });
    expect(
      run([chunk({ content: 'a' }), { error: { message: 'overloaded', code: 'server_error' } }]).at(-1),
    ).toMatchObject({
      type: 'failed',
      error: { kind: 'server', retryable: true },
    });
  });

  it('an unreadable chunk fails the answer (retryable) instead of silently dropping its words', () => {
    const events = run([
      chunk({ content: 'All done ' }),
      CHAT_MALFORMED,
      chunk({ content: 'now.' }, 'stop'),
      CHAT_DONE,
    ]);
    expect(events.filter((e) => e.type === 'completed' || e.type === 'item.done')).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'failed',
      error: {
        kind: 'stream_cut',
        retryable: true,
        message: expect.stringMatching(/could not be read.*retry the turn/),
      },
    });
  });
});

describe('agent.api: auto', () => {
  function memory(): TransportMemory & { map: Map<string, Transport> } {
    const map = new Map<string, Transport>();
    return { map, get: async (u) => map.get(u), set: async (u, t) => void map.set(u, t) };
  }
  const opts = { baseURL: '', apiKey: 'k', model: 'llama', backoff: { baseMs: 5 } };

  it('a server without /responses is asked again over Chat Completions, once, with a notice; then directly', async () => {
    api.setResponsesAvailable(false);
    api.script([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const mem = memory();
    const make = () =>
      autoTransport({
        baseUrl: api.url,
        memory: mem,
        responses: () => new OpenAIResponsesClient({ ...opts, baseURL: api.url }),
        chat: () => new ChatCompletionsClient({ ...opts, baseURL: api.url }),
      });
    const first = await collect(make().stream(req('hi')));
    expect(first[0]).toMatchObject({ type: 'notice' });
    expect((first[0] as { message: string }).message).toContain('Chat Completions');
    expect(first.at(-1)?.type).toBe('completed');
    expect(mem.map.get(api.url)).toBe('chat');
    const second = await collect(make().stream(req('again')));
    expect(second.some((e) => e.type === 'notice')).toBe(false);
    expect(doneItems(second)[0]).toMatchObject({ content: [{ text: 'Second answer.' }] });
    expect(api.responsesRequests()).toHaveLength(1); // only the first try
    expect(api.agentChatRequests()).toHaveLength(2);
  });

  it('"model not found" is not a missing endpoint', () => {
    expect(
      isMissingEndpoint({
        kind: 'model_not_found',
        status: 404,
        code: 'model_not_found',
        message: 'x',
        retryable: false,
      }),
    ).toBe(false);
    expect(
      isMissingEndpoint({ kind: 'model_not_found', status: 404, message: 'File Not Found', retryable: false }),
    ).toBe(true);
    expect(
      isMissingEndpoint({ kind: 'bad_request', status: 405, message: 'Method Not Allowed', retryable: false }),
    ).toBe(true);
    expect(isMissingEndpoint({ kind: 'server', status: 500, message: 'x', retryable: true })).toBe(false);
  });
});
