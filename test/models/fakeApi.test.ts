// The fake Responses API itself: framing, scripting, CORS, auth, request log, replay checks, control endpoints.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SseDecoder } from '../../src/models/sse.ts';
import { OPENAPI_SUBSET } from '../support/fake-api/corpora.ts';
import { describeWithCorpus } from '../support/corpusSkip.ts';
import { buildResponseEvents, splitText, startFakeApi, type FakeApi } from '../support/fake-api/index.ts';

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  api.reset();
  api.setExpectedKey(undefined);
});

const userInput = (text: string) => [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }];
const tool = {
  type: 'function',
  name: 'ot_help',
  description: 'Help',
  strict: false,
  parameters: { type: 'object', properties: {} },
};

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-anything', ...headers },
    body: JSON.stringify(body),
  });
}

/** The raw SSE text of a response, as frames and as parsed events. */
async function frames(body: unknown) {
  const raw = await (await post({ model: 'gpt-fake', stream: true, ...(body as object) })).text();
  const messages = new SseDecoder().push(raw);
  return {
    raw,
    messages,
    events: messages.map((m) => JSON.parse(m.data) as Record<string, unknown> & { type: string }),
  };
}

describe('fake Responses API: framing', () => {
  it('frames every event as `event: <type>\\ndata: <json>\\n\\n` with sequence numbers from 0', async () => {
    api.script([{ text: 'Hi there, friend.' }]);
    const { raw, messages, events } = await frames({ input: userInput('hi') });
    expect(raw).toMatch(/^event: response\.created\ndata: \{.*\}\n\n/);
    expect(
      raw
        .split('\n\n')
        .filter(Boolean)
        .every((block) => /^event: [\w.]+\ndata: \{.*\}$/.test(block)),
    ).toBe(true);
    messages.forEach((m, i) => expect(m.event).toBe(events[i]?.type));
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    for (const delta of events.filter((e) => e.type.endsWith('.delta')))
      expect(delta.obfuscation).toEqual(expect.any(String));
    expect(String((events[0]?.response as { id: string }).id)).toMatch(/^resp_[0-9a-f]{50}$/);
    expect(String((events[2]?.item as { id: string }).id)).toMatch(/^msg_[0-9a-f]{50}$/);
  });

  it('streams function calls like the real API: name on output_item.added, none on arguments.done', async () => {
    api.script([{ calls: [{ name: 'ot_help', arguments: { query: 'dom' } }] }]);
    const { events } = await frames({ input: userInput('help'), tools: [tool] });
    const added = events.find((e) => e.type === 'response.output_item.added');
    expect(added?.item).toMatchObject({
      type: 'function_call',
      name: 'ot_help',
      arguments: '',
      status: 'in_progress',
      call_id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/),
    });
    const done = events.find((e) => e.type === 'response.function_call_arguments.done');
    expect(done).not.toHaveProperty('name');
    expect(done?.arguments).toBe('{"query":"dom"}');
    expect(
      events
        .filter((e) => e.type === 'response.function_call_arguments.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('{"query":"dom"}');
  });

  it('adds encrypted_content to reasoning only when the request includes it', async () => {
    api.script([
      { reasoning: { summary: 'Thinking.' }, text: 'Done.' },
      { reasoning: { summary: 'Thinking.' }, text: 'Done.' },
    ]);
    const withIt = await frames({ input: userInput('x'), include: ['reasoning.encrypted_content'], store: false });
    const without = await frames({ input: userInput('x') });
    const item = (events: Array<Record<string, unknown>>) =>
      events.find((e) => e.type === 'response.output_item.done')?.item;
    expect(item(withIt.events)).toMatchObject({
      type: 'reasoning',
      encrypted_content: expect.stringMatching(/^gAAAAA/),
      summary: [{ type: 'summary_text', text: 'Thinking.' }],
    });
    expect(item(without.events)).not.toHaveProperty('encrypted_content');
  });

  it('splits text into word-sized deltas that rejoin exactly', () => {
    for (const sample of ['Hello world!', '  leading', 'trailing  ', 'a\n\nb', '', 'one'])
      expect(splitText(sample).join('')).toBe(sample);
  });

  it('answers non-streaming requests with the final response object', async () => {
    api.script([{ text: 'Plain.' }]);
    const body = (await (await post({ model: 'm', input: 'hi' })).json()) as {
      status: string;
      output: Array<{ content: Array<{ text: string }> }>;
    };
    expect(body.status).toBe('completed');
    expect(body.output[0]?.content[0]?.text).toBe('Plain.');
  });

  it('builds an error event and response.failed for fail turns', () => {
    const { events } = buildResponseEvents({ fail: { code: 'server_error', message: 'Boom' } }, { model: 'm' });
    expect(events.slice(-2)).toEqual([
      {
        type: 'error',
        error: { type: 'server_error', code: 'server_error', message: 'Boom', param: null },
        sequence_number: 2,
      },
      expect.objectContaining({
        type: 'response.failed',
        response: expect.objectContaining({ status: 'failed', error: { code: 'server_error', message: 'Boom' } }),
      }),
    ]);
  });
});

describe('fake Responses API: scripting', () => {
  it('matches turns by substring, RegExp and predicate, first match first, each used `times` times', async () => {
    api.script([
      { label: 'by-predicate', match: (r) => r.body?.model === 'special', text: 'special' },
      { label: 'by-regexp', match: /^bye/, text: 'bye' },
      { label: 'by-substring', match: 'weather', text: 'sunny', times: 2 },
    ]);
    for (const [model, said] of [
      ['m', 'the weather?'],
      ['m', 'bye now'],
      ['special', 'x'],
      ['m', 'weather again'],
    ] as const) {
      await (await post({ model, input: userInput(said), stream: true })).text();
    }
    expect(api.requests.map((r) => r.turn)).toEqual(['by-substring', 'by-regexp', 'by-predicate', 'by-substring']);
    expect(api.pending).toBe(0);
  });

  it('matches on the last function_call_output too', async () => {
    api.script([{ match: 'sunny', text: 'ok' }]);
    const input = [
      ...userInput('weather?'),
      { type: 'function_call', call_id: 'call_1', name: 'w', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"sky":"sunny"}' },
    ];
    await (await post({ model: 'm', input, stream: true })).text();
    expect(api.requests[0]?.lastInput).toBe('{"sky":"sunny"}');
    expect(api.requests[0]?.turn).toBe('#0');
  });

  it('falls back to the default script: a friendly reply, a demo tool call when asked', async () => {
    const hello = await frames({ input: userInput('good morning') });
    expect(
      hello.events
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join(''),
    ).toContain('fake Responses API');
    const demo = await frames({ input: userInput('please use a tool'), tools: [tool] });
    expect(
      demo.events.find(
        (e) => e.type === 'response.output_item.done' && (e.item as { type: string }).type === 'function_call',
      )?.item,
    ).toMatchObject({ name: 'ot_help' });
    expect(api.requests.map((r) => r.turn)).toEqual(['fallback', 'fallback']);
  });

  it("answers 500 when nothing matches in strict mode ('error' fallback)", async () => {
    const strict = await startFakeApi({ fallback: 'error' });
    try {
      const res = await fetch(`${strict.url}/responses`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', input: 'hi', stream: true }),
      });
      expect(res.status).toBe(500);
      expect(await res.text()).toContain('no scripted turn matched');
    } finally {
      await strict.close();
    }
  });

  it('can be scripted over HTTP from another process', async () => {
    await fetch(`${api.origin}/__fake/script`, {
      method: 'POST',
      body: JSON.stringify({ turns: [{ match: 'ping', text: 'pong' }] }),
    });
    const { events } = await frames({ input: userInput('ping') });
    expect(events.find((e) => e.type === 'response.output_text.done')?.text).toBe('pong');
    const log = (await (await fetch(`${api.origin}/__fake/requests`)).json()) as Array<{ lastInput: string }>;
    expect(log.map((r) => r.lastInput)).toEqual(['ping']);
  });
});

describe('fake Responses API: HTTP behaviour', () => {
  it('answers CORS preflights permissively', async () => {
    const res = await fetch(`${api.url}/responses`, {
      method: 'OPTIONS',
      headers: {
        origin: 'chrome-extension://abcdefghijklmnop',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-stainless-os',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('chrome-extension://abcdefghijklmnop');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-stainless-os');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(api.preflights).toBe(1);
    expect(api.requests).toHaveLength(0);
  });

  it('accepts any key, or only the expected one', async () => {
    expect((await post({ model: 'm', input: 'hi' })).status).toBe(200);
    api.setExpectedKey('sk-right-key-123456');
    const denied = await post({ model: 'm', input: 'hi' });
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect((await post({ model: 'm', input: 'hi' }, { authorization: 'Bearer sk-right-key-123456' })).status).toBe(200);
  });

  it('sends scripted HTTP errors with their headers', async () => {
    api.script([
      {
        http: {
          status: 429,
          headers: { 'retry-after': '0.5' },
          body: { error: { message: 'slow', code: 'rate_limit_exceeded' } },
        },
      },
    ]);
    const res = await post({ model: 'm', input: 'hi', stream: true });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0.5');
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after');
  });

  it('refuses what the real API refuses: orphan tool outputs, unreplayable reasoning under store:false', async () => {
    const orphan = await post({
      model: 'm',
      input: [{ type: 'function_call_output', call_id: 'call_x', output: 'r' }],
    });
    expect(orphan.status).toBe(400);
    expect(await orphan.text()).toContain('No tool call found for function call output with call_id call_x');
    const unpaired = await post({
      model: 'm',
      input: [{ type: 'function_call', call_id: 'call_y', name: 'f', arguments: '{}' }],
    });
    expect(await unpaired.text()).toContain('No tool output found for function call call_y');
    const reasoning = await post({ model: 'm', store: false, input: [{ type: 'reasoning', id: 'rs_1', summary: [] }] });
    expect(reasoning.status).toBe(404);
    expect(await reasoning.text()).toContain("Item with id 'rs_1' not found");
  });

  it('logs requests with headers and parsed body', async () => {
    await post({ model: 'gpt-fake', input: userInput('log me') }, { 'x-custom': 'yes' });
    const [logged] = api.requests;
    expect(logged).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      lastInput: 'log me',
      status: 200,
      body: { model: 'gpt-fake' },
    });
    expect(logged?.headers['x-custom']).toBe('yes');
  });

  it('answers /v1/chat/completions, streamed and not, scripted or with its default', async () => {
    api.scriptChat([{ match: 'price', content: '42' }]);
    const post = (body: object) => fetch(`${api.url}/chat/completions`, { method: 'POST', body: JSON.stringify(body) });
    const user = (content: string) => ({ model: 'm', messages: [{ role: 'user', content }] });
    const scripted = (await (await post(user('the price'))).json()) as { choices: { message: { content: string } }[] };
    expect(scripted.choices[0]!.message.content).toBe('42');
    const json = (await (
      await post({ ...user('Input data:\nab\n\nInstructions:\nx'), response_format: { type: 'json_object' } })
    ).json()) as {
      choices: { message: { content: string } }[];
    };
    expect(JSON.parse(json.choices[0]!.message.content)).toEqual({ instructions: 'x', input_chars: 2 });
    const streamed = await (await post({ ...user('hello'), stream: true })).text();
    expect(streamed).toContain('"object":"chat.completion.chunk"');
    expect(streamed.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(api.chatRequests()).toHaveLength(3);
  });

  it('closes promptly even with a stream in flight', async () => {
    const slow = await startFakeApi({ turns: [{ text: 'a b c d e f g', delayMs: 500 }] });
    const res = await fetch(`${slow.url}/responses`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', input: 'hi', stream: true }),
    });
    const reading = res.text().catch(() => 'cut');
    const started = Date.now();
    await slow.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await reading;
  });
});

describeWithCorpus(OPENAPI_SUBSET, 'fake Responses API: request validation (corpora/openai-openapi)', () => {
  it('records schema errors for an invalid body instead of rejecting it', async () => {
    await post({
      model: 'm',
      input: [{ type: 'function_call_output' }],
      tools: [{ type: 'function', name: 'x' }],
      stream: true,
    });
    const [logged] = api.requests;
    expect(logged?.status).toBe(400); // the replay check, not the schema
    expect(logged?.schemaErrors?.length).toBeGreaterThan(0);
  });

  it('finds a well-formed body valid', async () => {
    await post({ model: 'm', input: userInput('x'), tools: [tool], tool_choice: 'auto', stream: true, store: false });
    expect(api.requests[0]?.schemaErrors).toEqual([]);
    expect(api.schemaValidation).toMatch(/^on: /);
  });
});
