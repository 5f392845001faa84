// The real clients against the fake API over real HTTP: streaming, retries, faults, errors, redaction, and every
// Responses request body checked against the OpenAPI spec (when the corpora are present). The errors and faults
// suites run against both wires — the Responses client and the Chat Completions client (issue #18) — with the same
// scripted turns, which the fake streams in each wire's format.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { ModelEvent, ModelRequest, ResponseItem } from '../../src/models/events.ts';
import { OpenAIResponsesClient, type OpenAIResponsesClientOptions } from '../../src/models/OpenAIResponsesClient.ts';
import { ChatCompletionsClient } from '../../src/models/ChatCompletionsClient.ts';
import type { RecordedRequest } from '../support/fake-api/index.ts';
import { OPENAPI_SUBSET } from '../support/fake-api/corpora.ts';
import { itWithCorpus } from '../support/corpusSkip.ts';
import { faults, openAiError, startFakeApi, type FakeApi } from '../support/fake-api/index.ts';
import { collect } from '../support/modelEvents.ts';

const KEY = 'sk-test-0123456789abcdefSECRET';

let api: FakeApi;
let warn: MockInstance;

beforeAll(async () => {
  api = await startFakeApi({ fallback: 'error' });
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  api.reset();
  api.setExpectedKey(undefined);
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
  // Whatever the test did, every body the client sent must be a valid CreateResponse.
  for (const request of api.responsesRequests()) expect(request.schemaErrors ?? []).toEqual([]);
});

function makeClient(options: Partial<OpenAIResponsesClientOptions> = {}): OpenAIResponsesClient {
  return new OpenAIResponsesClient({
    baseURL: api.url,
    apiKey: KEY,
    model: 'gpt-4.1-mini',
    maxRetries: 2,
    backoff: { baseMs: 10 },
    ...options,
  });
}

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const userSays = (text: string): ResponseItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});
const request = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  input: [userSays(text)],
  tools: [weatherTool],
  ...extra,
});

const text = (events: ModelEvent[]) => events.map((e) => (e.type === 'text.delta' ? e.delta : '')).join('');
const last = (events: ModelEvent[]) => events[events.length - 1];
const failure = (events: ModelEvent[]) => {
  const end = last(events);
  if (end?.type !== 'failed') throw new Error(`expected a failed event, got ${JSON.stringify(end)}`);
  return end.error;
};

describe('OpenAIResponsesClient streaming', () => {
  it('streams a text answer and sends a well-formed request', async () => {
    api.script([{ text: 'Hello from the fake API.' }]);
    const events = await collect(makeClient({ instructions: 'Be brief.' }).stream(request('hi there')));
    expect(events[0]).toMatchObject({ type: 'created', model: 'gpt-4.1-mini' });
    expect(text(events)).toBe('Hello from the fake API.');
    expect(events.filter((e) => e.type === 'text.delta').length).toBeGreaterThan(1);
    expect(events.find((e) => e.type === 'item.done')).toMatchObject({
      item: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello from the fake API.' }],
      },
    });
    const end = last(events);
    expect(end).toMatchObject({
      type: 'completed',
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    });
    expect(end?.type === 'completed' && end.latencyMs).toBeGreaterThanOrEqual(0);

    const [sent] = api.responsesRequests();
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toMatchObject({
      model: 'gpt-4.1-mini',
      stream: true,
      store: false,
      instructions: 'Be brief.',
      tool_choice: 'auto',
      parallel_tool_calls: true,
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather for a city',
          strict: false,
          parameters: weatherTool.function.parameters,
        },
      ],
    });
    // Not a reasoning model: no encrypted reasoning requested.
    expect(sent?.body).not.toHaveProperty('include');
    expect(sent?.body).not.toHaveProperty('reasoning');
  });

  it('streams several function calls with their arguments in deltas', async () => {
    api.script([
      {
        calls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' }, callId: 'call_oslo' },
        ],
      },
    ]);
    const events = await collect(makeClient().stream(request('weather in Paris and Oslo?')));
    const added = events.filter((e) => e.type === 'function_call.added');
    const done = events.filter((e) => e.type === 'function_call.done');
    expect(added).toHaveLength(2);
    expect(done.map((e) => e.type === 'function_call.done' && [e.name, e.arguments])).toEqual([
      ['get_weather', '{"city":"Paris"}'],
      ['get_weather', '{"city":"Oslo"}'],
    ]);
    expect(done[1]).toMatchObject({ callId: 'call_oslo' });
    expect(events.filter((e) => e.type === 'function_call.arguments.delta').length).toBeGreaterThan(2);
    expect(last(events)?.type).toBe('completed');
  });

  it('replays reasoning items (with encrypted content) and tool outputs on the next turn', async () => {
    api.script([
      {
        match: 'weather',
        reasoning: { summary: ['The user wants weather.', 'Call the tool.'] },
        calls: [{ name: 'get_weather', arguments: { city: 'Rome' } }],
      },
      { match: 'sunny', text: 'It is sunny in Rome.' },
    ]);
    const client = makeClient({ model: 'gpt-5-mini', reasoningEffort: 'low' });
    const first = await collect(client.stream(request('weather in Rome?')));
    expect(first.filter((e) => e.type === 'reasoning.delta').length).toBeGreaterThan(0);
    const items = first.flatMap((e) => (e.type === 'item.done' ? [e.item] : []));
    expect(items.map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    expect(items[0]).toHaveProperty('encrypted_content');
    const call = first.find((e) => e.type === 'function_call.done');
    if (call?.type !== 'function_call.done') throw new Error('no call');

    const second = await collect(
      client.stream(
        request('', {
          input: [
            userSays('weather in Rome?'),
            ...items,
            { type: 'function_call_output', call_id: call.callId, output: '{"sky":"sunny"}' },
          ],
        }),
      ),
    );
    expect(text(second)).toBe('It is sunny in Rome.');
    const [firstSent, secondSent] = api.responsesRequests();
    expect(firstSent?.body).toMatchObject({
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
    });
    expect(secondSent?.body?.input).toContainEqual(items[0]);
  });

  itWithCorpus(OPENAPI_SUBSET, 'sends bodies that validate against the OpenAPI CreateResponse schema', async () => {
    api.script([{ text: 'ok', times: 2 }]);
    const client = makeClient({
      model: 'o4-mini',
      reasoningEffort: 'high',
      hostedTools: [{ type: 'web_search' }],
      instructions: 'x',
    });
    await collect(client.stream(request('hi', { previousResponseId: 'resp_prev' })));
    await collect(client.stream(request('hi', { tools: [] })));
    expect(api.schemaValidation).toMatch(/^on: /);
    expect(api.responsesRequests().map((r) => r.schemaErrors)).toEqual([[], []]);
  });

  it('passes previous_response_id and only configured hosted tools', async () => {
    api.script([{ text: 'ok' }]);
    await collect(
      makeClient({ hostedTools: [{ type: 'web_search' }] }).stream(
        request('hi', { previousResponseId: 'resp_prev', tools: [weatherTool, { type: 'image_generation' }] }),
      ),
    );
    const body = api.responsesRequests()[0]?.body;
    expect(body?.previous_response_id).toBe('resp_prev');
    expect(body?.tools?.map((t) => t.type)).toEqual(['function', 'web_search']);
  });
});

/** The two wires, for the suites that hold for both. */
interface Wire {
  name: string;
  make(options: OpenAIResponsesClientOptions): { stream(r: ModelRequest): AsyncIterable<ModelEvent> };
  sent(): RecordedRequest[];
  /** Events or chunks after which a clean end leaves the answer unfinished. */
  endEarly: number;
}
const WIRES: Wire[] = [
  {
    name: 'Responses',
    make: (o) => new OpenAIResponsesClient(o),
    sent: () => api.responsesRequests(),
    endEarly: 6,
  },
  {
    name: 'Chat Completions',
    make: (o) => new ChatCompletionsClient(o),
    sent: () => api.agentChatRequests(),
    endEarly: 2,
  },
];

describe.each(WIRES)('$name client errors', (wire) => {
  const makeClient = (options: Partial<OpenAIResponsesClientOptions> = {}) =>
    wire.make({
      baseURL: api.url,
      apiKey: KEY,
      model: 'gpt-4.1-mini',
      maxRetries: 2,
      backoff: { baseMs: 10 },
      ...options,
    });

  it('401: says the key was rejected, and never shows the key', async () => {
    api.setExpectedKey('sk-the-right-key-000000');
    const events = await collect(makeClient().stream(request('hi')));
    const error = failure(events);
    expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false });
    expect(error.message).toBe(
      'The API key was rejected (401). Check OPENAI_API_KEY in Settings. The server said: Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com/account/api-keys.',
    );
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(wire.sent()).toHaveLength(1); // not retried
  });

  it.runIf(wire.name === 'Responses')('404: names the model and the base URL', async () => {
    const strict = await startFakeApi({ knownModels: ['gpt-5-mini'] });
    try {
      const events = await collect(
        new OpenAIResponsesClient({ baseURL: strict.url, apiKey: KEY, model: 'gpt-nope' }).stream(request('hi')),
      );
      const error = failure(events);
      expect(error.kind).toBe('model_not_found');
      expect(error.message).toContain('"gpt-nope"');
      expect(error.message).toContain(strict.url);
    } finally {
      await strict.close();
    }
  });

  it('400: passes the server message on, redacted', async () => {
    api.script([faults.badRequest(`Invalid input; your key ${KEY} looks odd`, 'input')]);
    const error = failure(await collect(makeClient().stream(request('hi'))));
    expect(error).toMatchObject({ kind: 'bad_request', status: 400, retryable: false });
    expect(error.message).toContain('Invalid input; your key');
    expect(error.message).not.toContain(KEY);
  });

  it('429 with retry-after: waits that long, announces the retry, then succeeds', async () => {
    api.script([faults.rateLimit(0.2), { text: 'Worth the wait.' }]);
    const events = await collect(makeClient().stream(request('hi')));
    expect(events[0]).toEqual({ type: 'retrying', attempt: 1, delayMs: 200, reason: 'rate limited (429)' });
    expect(text(events)).toBe('Worth the wait.');
    const [first, second] = wire.sent();
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(190);
  });

  it('500 then success: retried with backoff', async () => {
    api.script([faults.serverError(500), { text: 'Recovered.' }]);
    const events = await collect(makeClient().stream(request('hi')));
    expect(events[0]).toMatchObject({ type: 'retrying', attempt: 1, reason: 'server error (500)' });
    expect(text(events)).toBe('Recovered.');
    expect(last(events)?.type).toBe('completed');
  });

  it('gives up after maxRetries and reports the last error', async () => {
    api.script([{ ...faults.serverError(503), times: 3 }]);
    const events = await collect(makeClient({ maxRetries: 2 }).stream(request('hi')));
    expect(events.filter((e) => e.type === 'retrying')).toHaveLength(2);
    expect(failure(events)).toMatchObject({ kind: 'server', status: 503, retryable: true });
    expect(wire.sent()).toHaveLength(3);
  });

  it('network failure: a refused connection is retried, then reported', async () => {
    const gone = await startFakeApi();
    const url = gone.url;
    await gone.close();
    const events = await collect(
      wire
        .make({
          baseURL: url,
          apiKey: KEY,
          model: 'm',
          maxRetries: 1,
          backoff: { baseMs: 5 },
        })
        .stream(request('hi')),
    );
    expect(events.filter((e) => e.type === 'retrying')).toHaveLength(1);
    const error = failure(events);
    expect(error.kind).toBe('network');
    expect(error.message).toContain(url);
  });

  it('an error event + response.failed ends the stream as failed', async () => {
    api.script([faults.streamError('server_error', 'The model had a problem.')]);
    const events = await collect(makeClient().stream(request('hi')));
    expect(events[0]?.type).toBe('created');
    expect(failure(events)).toMatchObject({ kind: 'server', code: 'server_error', retryable: true });
    expect(events.filter((e) => e.type === 'failed')).toHaveLength(1);
    expect(wire.sent()).toHaveLength(1); // something streamed: the loop decides, not the client
  });
});

describe.each(WIRES)('$name client faults', (wire) => {
  const makeClient = (options: Partial<OpenAIResponsesClientOptions> = {}) =>
    wire.make({
      baseURL: api.url,
      apiKey: KEY,
      model: 'gpt-4.1-mini',
      maxRetries: 2,
      backoff: { baseMs: 10 },
      ...options,
    });

  it('a stream cut after events have streamed is stream_cut, not retried', async () => {
    api.script([faults.cut(5, { text: 'This answer will be cut off halfway through.' })]);
    const events = await collect(makeClient().stream(request('hi')));
    expect(text(events).length).toBeGreaterThan(0);
    expect(failure(events)).toMatchObject({ kind: 'stream_cut', retryable: true });
    expect(wire.sent()).toHaveLength(1);
  });

  it('a stream cut before any event is retried', async () => {
    api.script([faults.cut(0), { text: 'Second time lucky.' }]);
    const events = await collect(makeClient().stream(request('hi')));
    expect(events[0]).toMatchObject({ type: 'retrying', attempt: 1 });
    expect(text(events)).toBe('Second time lucky.');
  });

  it('a stream that ends cleanly without response.completed is stream_cut', async () => {
    api.script([{ text: 'Never finished.', endAfter: wire.endEarly }]);
    const events = await collect(makeClient().stream(request('hi')));
    expect(failure(events)).toMatchObject({ kind: 'stream_cut' });
  });

  it.runIf(wire.name === 'Responses')(
    'a malformed event is skipped with a warning; the answer still completes in full',
    async () => {
      // Event 5 is the second text delta: its words come back from output_text.done / the final item.
      api.script([{ text: ['One ', 'two ', 'three.'], malformedAt: 5 }]);
      const events = await collect(makeClient().stream(request('hi')));
      expect(last(events)?.type).toBe('completed');
      expect(events.find((e) => e.type === 'item.done')).toMatchObject({
        item: { content: [{ text: 'One two three.' }] },
      });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('Skipped a malformed stream event'));
    },
  );

  it.runIf(wire.name === 'Chat Completions')(
    'a malformed chunk fails the answer (retryable): its words cannot be filled back in',
    async () => {
      // Chunk 2 is the second word: Chat Completions has no final text to fill it back from, so "One three." would
      // be a silently wrong answer.
      api.script([{ text: ['One ', 'two ', 'three.'], malformedAt: 2 }]);
      const events = await collect(makeClient().stream(request('hi')));
      expect(events.find((e) => e.type === 'item.done')).toBeUndefined();
      expect(failure(events)).toMatchObject({ kind: 'stream_cut', retryable: true });
      expect(failure(events)?.message).toMatch(/could not be read/);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('Skipped a malformed stream event'));
    },
  );

  it('aborting mid-stream stops at once with failed/aborted', async () => {
    api.script([faults.slow(40, { text: 'one two three four five six seven eight nine ten eleven twelve' })]);
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    const started = Date.now();
    for await (const event of makeClient().stream(request('hi', { signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'text.delta') controller.abort();
    }
    expect(failure(events)).toMatchObject({ kind: 'aborted', retryable: false });
    expect(events.filter((e) => e.type === 'text.delta')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('aborting during a retry wait ends the wait', async () => {
    api.script([faults.rateLimit(30)]);
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    const started = Date.now();
    for await (const event of makeClient().stream(request('hi', { signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'retrying') setTimeout(() => controller.abort(), 20);
    }
    expect(events.map((e) => e.type)).toEqual(['retrying', 'failed']);
    expect(failure(events).kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a retry-after beyond a minute is not waited out', async () => {
    api.script([faults.rateLimit(3600)]);
    const error = failure(await collect(makeClient().stream(request('hi'))));
    expect(error).toMatchObject({ kind: 'rate_limit' });
    expect(error.message).toContain('3600 s');
  });

  it('a stream that goes silent times out', async () => {
    api.script([faults.slow(600)]);
    const events = await collect(makeClient({ timeoutMs: 200, maxRetries: 0 }).stream(request('hi')));
    expect(failure(events)).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('time the consumer spends on an event is not silence of the server', async () => {
    api.script([faults.slow(20, { text: 'one two three four' })]);
    const events: ModelEvent[] = [];
    for await (const event of makeClient({ timeoutMs: 150, maxRetries: 0 }).stream(request('hi'))) {
      events.push(event);
      if (event.type === 'text.delta') await new Promise((r) => setTimeout(r, 200)); // longer than the timeout
    }
    expect(last(events)?.type).toBe('completed');
    expect(text(events)).toBe('one two three four');
  });

  it('a server that sends no headers in time is a timeout, retried', async () => {
    api.script([{ headersDelayMs: 600, text: 'too late' }, { text: 'On time.' }]);
    const events = await collect(makeClient({ timeoutMs: 200 }).stream(request('hi')));
    expect(events[0]).toMatchObject({ type: 'retrying', attempt: 1, reason: 'timed out' });
    expect(text(events)).toBe('On time.');
  });

  it('breaking out of the loop releases the connection', async () => {
    api.script([faults.slow(30, { text: 'a b c d e f g h i j k l m n o p' }), { text: 'Next one works.' }]);
    const started = Date.now();
    for await (const event of makeClient().stream(request('hi'))) {
      if (event.type === 'text.delta') break;
    }
    expect(Date.now() - started).toBeLessThan(1000);
    expect(text(await collect(makeClient().stream(request('again'))))).toBe('Next one works.');
  });

  it('works without an API key (local servers), and a server that wants one says 401', async () => {
    api.script([{ text: 'No key needed.' }]);
    expect(text(await collect(makeClient({ apiKey: '' }).stream(request('hi'))))).toBe('No key needed.');
    api.setExpectedKey('sk-required-key-000000');
    expect(failure(await collect(makeClient({ apiKey: '' }).stream(request('hi')))).kind).toBe('auth');
  });

  it('the key never appears in any event, whatever fails', async () => {
    api.setExpectedKey('sk-another-key-999999');
    const denied = await collect(makeClient().stream(request('hi')));
    api.setExpectedKey(undefined);
    api.script([
      { http: { status: 500, body: openAiError(`backend saw ${KEY}`, 'server_error', null) }, times: 3 },
      faults.streamError('bad', `echo ${KEY}`),
    ]);
    const failing = await collect(makeClient().stream(request('hi')));
    const streamed = await collect(makeClient().stream(request('hi')));
    expect(JSON.stringify([denied, failing, streamed])).not.toContain(KEY);
    expect(JSON.stringify([denied, failing, streamed])).not.toMatch(/sk-test-/);
  });
});
