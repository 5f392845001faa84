// #34, model-stream half: each failure the fuzzing found (or the issue reported) as a named test with its exact input.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ModelEvent, ResponseItem } from '../../src/models/events.ts';
import { SseDecoder } from '../../src/models/sse.ts';
import { StreamMapper } from '../../src/models/streamMapper.ts';
import { formatCallResult } from '../../src/mcp/content.ts';
import { z } from '../../src/shared/zod.ts';
import { ToolValidationError, validateArguments } from '../../src/tools/validate.ts';
import { corpusPath } from '../support/fake-api/corpora.ts';
import { describeWithCorpus } from '../support/corpusSkip.ts';
import { BASE_URL, client, runTurn, scriptedFetch, shownText } from './streamSupport.ts';
import { doneItems } from '../support/modelEvents.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const failure = (events: ModelEvent[]) => {
  const end = events.at(-1);
  if (end?.type !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(end)}`);
  return end.error;
};

describe('#34 regressions: a 200 that is not a stream', () => {
  it('a web page: named, with the base URL to check, and not retried', async () => {
    const page = '<!DOCTYPE html>\n<html><head><title>Sign in – Example SSO</title></head><body>…</body></html>';
    for (const wire of ['responses', 'chat'] as const) {
      const replies = scriptedFetch([{ pieces: [encode(page)], contentType: 'text/html; charset=utf-8' }]);
      const error = failure(await runTurn(client(wire, replies.fetch)));
      expect(error).toEqual({
        kind: 'not_a_stream',
        retryable: false,
        message: `The server at ${BASE_URL} answered with a web page instead of a stream: check the base URL (agent.base_url in Settings), which must be the API's address, such as https://api.openai.com/v1. The page is titled "Sign in – Example SSO".`,
      });
      expect(replies.calls()).toBe(1);
    }
  });

  it('JSON that is not an answer: named, not retried', async () => {
    const replies = scriptedFetch([
      { pieces: [encode('{"status":"ok","version":"1.2"}')], contentType: 'application/json' },
    ]);
    const error = failure(await runTurn(client('responses', replies.fetch)));
    expect(error.message).toBe(
      `The server at ${BASE_URL} answered with JSON instead of a stream, and it was not a complete answer: check the base URL (agent.base_url in Settings), which must be the API's address, such as https://api.openai.com/v1.`,
    );
    expect(replies.calls()).toBe(1);
  });

  it('a complete non-streamed Responses body (server ignored stream: true) is used as the answer', async () => {
    const body = {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-x',
      output: [
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Paris.', annotations: [] }],
        },
      ],
      usage: { input_tokens: 5, output_tokens: 2 },
    };
    const events = await runTurn(
      client(
        'responses',
        scriptedFetch([{ pieces: [encode(JSON.stringify(body))], contentType: 'application/json' }]).fetch,
      ),
    );
    expect(shownText(events)).toBe('Paris.');
    expect(doneItems(events)).toEqual(body.output);
    expect(events.at(-1)).toMatchObject({
      type: 'completed',
      responseId: 'resp_1',
      usage: { inputTokens: 5, outputTokens: 2 },
    });
  });

  it('a complete non-streamed chat completion, tool call included, is used as the answer', async () => {
    const body = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'local',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Looking.',
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'dom__snapshot', arguments: '{}' } }],
          },
        },
      ],
    };
    const events = await runTurn(
      client(
        'chat',
        scriptedFetch([{ pieces: [encode(JSON.stringify(body))], contentType: 'application/json' }]).fetch,
      ),
    );
    expect(shownText(events)).toBe('Looking.');
    expect(doneItems(events).map((i) => i.type)).toEqual(['message', 'function_call']);
    expect(doneItems(events)[1]).toMatchObject({ call_id: 'call_9', name: 'dom__snapshot', arguments: '{}' });
    expect(events.at(-1)?.type).toBe('completed');
  });

  it('plain text ("Not Found") is named with what it said', async () => {
    const error = failure(
      await runTurn(
        client('chat', scriptedFetch([{ pieces: [encode('Not Found')], contentType: 'text/plain' }]).fetch),
      ),
    );
    expect(error.kind).toBe('not_a_stream');
    expect(error.message).toContain('answered with text instead of a stream: check the base URL');
    expect(error.message).toContain('It said: "Not Found"');
  });

  it('a stream of only keep-alive comments is still an empty stream (retried), not "text"', async () => {
    const replies = scriptedFetch([{ pieces: [encode(': ping\n\n: ping\n\n')] }]);
    const error = failure(await runTurn(client('responses', replies.fetch)));
    expect(error.kind).toBe('stream_cut');
    expect(replies.calls()).toBe(3);
  });
});

describeWithCorpus(corpusPath('openai-sse'), '#34 regressions: ids changed mid-stream', () => {
  const path = corpusPath('openai-sse', 'openai-responses', 'github-copilot-id-rotation.1.chunks.txt');
  const events = () =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('the recorded GitHub Copilot stream gives 2 items (not 4), the answer once, under the ids their positions were announced with', () => {
    const mapper = new StreamMapper({ now: () => 0 });
    const out = [...events().flatMap((e) => mapper.push(e)), ...mapper.end()];
    const done = doneItems(out);
    expect(done.map((i) => [i.type, i.id])).toEqual([
      ['reasoning', 'capture-id-3'],
      ['message', 'capture-id-9'],
    ]);
    const answer =
      'There are **3** letter **“r”**s in **“strawberry.”**\n\nBreakdown: **s t r a w b e r r y**  \nYou can see **r** at positions **3, 8, and 9**.';
    expect(shownText(out)).toBe(answer);
    expect(new Set(out.flatMap((e) => (e.type === 'text.delta' ? [e.itemId] : [])))).toEqual(new Set(['capture-id-9']));
    expect(
      out
        .filter((e) => e.type === 'reasoning.delta')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('**Counting character occurrences**');
    expect(out.at(-1)?.type).toBe('completed');
  });

  it('a server that reuses an output_index for a second item (ids announced) keeps both items apart', () => {
    const mapper = new StreamMapper({ now: () => 0 });
    const msg: ResponseItem = {
      id: 'msg_a',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hi' }],
    };
    const call: ResponseItem = { id: 'fc_b', type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' };
    const out = [
      { type: 'response.created', response: { id: 'r' } },
      { type: 'response.output_item.added', output_index: 0, item: { ...msg, content: [] } },
      { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_a', content_index: 0, delta: 'Hi' },
      { type: 'response.output_item.done', output_index: 0, item: msg },
      { type: 'response.output_item.added', output_index: 0, item: { ...call, arguments: '' } },
      { type: 'response.output_item.done', output_index: 0, item: call },
      { type: 'response.completed', response: { id: 'r', output: [msg, call] } },
    ].flatMap((e) => mapper.push(e));
    expect(doneItems(out)).toEqual([msg, call]);
    expect(shownText(out)).toBe('Hi');
  });
});

describe('#34 regressions: decoding and tool input', () => {
  it('a 16 MB line in 64 KB pieces decodes in well under a second (it took 3 s: the buffer was searched whole per piece)', () => {
    const decoder = new SseDecoder();
    const text = `data: "${'a'.repeat(16_000_000)}"\n\n`;
    const started = performance.now();
    const out = [];
    for (let i = 0; i < text.length; i += 65_536) out.push(...decoder.push(text.slice(i, i + 65_536)));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(out).toHaveLength(1);
    expect(out[0]!.data.length).toBe(16_000_002);
  });

  it('a bound is said in words, not as a validator dump ({"tags":[…6 items]})', () => {
    const schema = z.object({
      tags: z.array(z.string()).max(5),
      name: z.string().min(2).max(10),
      n: z.number().int().gt(0),
    });
    try {
      validateArguments(schema, { tags: ['a', 'b', 'c', 'd', 'e', 'f'], name: 'x'.repeat(11), n: 0 });
      throw new Error('should not validate');
    } catch (error) {
      expect((error as ToolValidationError).problems).toEqual([
        'Parameter tags must have at most 5 items',
        'Parameter name must be at most 10 characters long',
        'Parameter n must be more than 0',
      ]);
    }
  });

  it('an MCP resource link whose uri or name is not text never reads "[object Object]"', () => {
    expect(formatCallResult({ content: [{ type: 'resource_link', uri: {}, name: {} }] })).toBe('[Resource: ]');
    expect(formatCallResult({ content: [{ type: 'resource_link', uri: 'file:///a.txt', name: 'a' }] })).toBe(
      '[Resource: a file:///a.txt]',
    );
  });
});
