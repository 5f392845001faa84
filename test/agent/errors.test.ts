import { describe, expect, it } from 'vitest';
import { callSteps, calls, completed, created, failing, messageSteps, say } from '../support/scriptedModel.ts';
import { expectValidTranscript, outputOf, setup, userTexts } from './helpers.ts';
import { MID_STREAM_ITEMS } from '../support/chatWire.ts';

describe('model errors and retry', () => {
  it.runIf(MID_STREAM_ITEMS)(
    'a failed response becomes an error state; its partial output is discarded; retry succeeds without duplicates',
    async () => {
      const h = await setup({
        turns: [
          failing({ kind: 'server', message: 'The server failed (500). Retry later.', retryable: true, status: 500 }, [
            ...messageSteps('Half an answer'),
            ...callSteps({ name: 'web__echo', args: { text: 'x' }, callId: 'lost' }),
          ]),
          say('The full answer.'),
        ],
      });
      const state = await h.runner.send(h.conversationId, 'question');
      expect(state.status).toBe('error');
      expect(state.stopReason).toBe('error');
      expect(state.lastError).toEqual({
        kind: 'server',
        message: 'The server failed (500). Retry later.',
        retryable: true,
        status: 500,
      });
      expect(h.eventsOf('run.status').at(-1)).toMatchObject({
        status: 'error',
        error: { kind: 'server', retryable: true },
      });
      // Only the user message stays: the function_call of a response that never completed was never run, and is gone.
      expect(await h.items()).toEqual([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'question' }] },
      ]);
      expect(h.host.count('web.echo')).toBe(0);
      expect(h.eventsOf('items.discarded')).toEqual([
        { type: 'items.discarded', conversationId: h.conversationId, fromSeq: 1, reason: 'failed' },
      ]);

      const retried = await h.runner.retry(h.conversationId);
      expect(retried.status).toBe('completed');
      expect(retried.lastError).toBeUndefined();
      const items = await h.items();
      expect(items.map((i) => i.type)).toEqual(['message', 'message']);
      expect(userTexts(items)).toEqual(['question']);
      expect(h.model.requests[1]!.input).toEqual(h.model.requests[0]!.input);
    },
  );

  it('a stream that ends without response.completed is a retryable stream_cut error', async () => {
    const h = await setup({ turns: [[created(), ...messageSteps('cut off')], say('whole')] });
    const state = await h.runner.send(h.conversationId, 'q');
    expect(state.lastError).toMatchObject({ kind: 'stream_cut', retryable: true });
    expect((await h.items()).length).toBe(1);
    await h.runner.retry(h.conversationId);
    const items = await h.items();
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ role: 'assistant', content: [{ text: 'whole' }] });
  });

  it('keeps a non-retryable error as reported (auth)', async () => {
    const h = await setup({
      turns: [failing({ kind: 'auth', message: 'Check your API key (401).', retryable: false, status: 401 })],
    });
    const state = await h.runner.send(h.conversationId, 'q');
    expect(state.lastError).toMatchObject({ kind: 'auth', message: 'Check your API key (401).', retryable: false });
  });

  it('a failure after tools ran: retry re-requests the turn without re-running the tools', async () => {
    const h = await setup({
      turns: [calls([{ name: 'web__echo', args: { text: 'once' }, callId: 'c1' }]), failing(), say('finally')],
    });
    expect((await h.runner.send(h.conversationId, 'go')).status).toBe('error');
    expect(h.host.count('web.echo')).toBe(1);
    const state = await h.runner.retry(h.conversationId);
    expect(state.status).toBe('completed');
    expect(h.host.count('web.echo')).toBe(1);
    const items = await h.items();
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    expectValidTranscript(items);
    expect(h.model.requests[2]!.input).toEqual(items.slice(0, 3));
    expect(state.turn).toBe(2);
  });

  it.runIf(MID_STREAM_ITEMS)(
    'when the client retries mid-response, what was persisted of the first attempt is discarded',
    async () => {
      const h = await setup({
        turns: [
          [
            created('r1'),
            ...messageSteps('first attempt'),
            { type: 'retrying', attempt: 1, delayMs: 500, reason: 'stream dropped' },
            created('r1b'),
            ...messageSteps('second attempt'),
            completed('r1b'),
          ],
        ],
      });
      const state = await h.runner.send(h.conversationId, 'q');
      expect(state.status).toBe('completed');
      const items = await h.items();
      expect(items).toHaveLength(2);
      expect(items[1]).toMatchObject({ content: [{ text: 'second attempt' }] });
      expect(h.eventsOf('retrying')).toEqual([
        { type: 'retrying', conversationId: h.conversationId, attempt: 1, delayMs: 500, reason: 'stream dropped' },
      ]);
      expect(h.eventsOf('items.discarded')[0]).toMatchObject({ fromSeq: 1, reason: 'retrying' });
    },
  );

  it('a model client that throws instead of reporting failed is an error the user can retry', async () => {
    const h = await setup({ turns: [[created(), { type: 'throw', error: new Error('socket hang up') }], say('ok')] });
    const state = await h.runner.send(h.conversationId, 'q');
    expect(state.status).toBe('error');
    expect(state.lastError).toMatchObject({ kind: 'internal', retryable: true });
    expect(state.lastError!.message).toContain('socket hang up');
    expect((await h.runner.retry(h.conversationId)).status).toBe('completed');
  });

  it('a new message after an error never loses the earlier one', async () => {
    const h = await setup({ turns: [failing(), say('answer to both')] });
    await h.runner.send(h.conversationId, 'first');
    const state = await h.runner.send(h.conversationId, 'second');
    expect(state.status).toBe('completed');
    const items = await h.items();
    expect(userTexts(items)).toEqual(['first', 'second']);
    expect(userTexts(h.model.requests[1]!.input)).toEqual(['first', 'second']);
  });

  it('a function call the model announced but never delivered as an item is still persisted and answered', async () => {
    const h = await setup({
      turns: [
        [
          created('r1'),
          { type: 'function_call.added', itemId: 'fc_x', callId: 'cx', name: 'page__read' },
          { type: 'function_call.done', itemId: 'fc_x', callId: 'cx', name: 'page__read', arguments: '{}' },
          completed('r1'),
        ],
        say('ok'),
      ],
    });
    await h.runner.send(h.conversationId, 'q');
    const items = await h.items();
    expect(items[1]).toMatchObject({ type: 'function_call', call_id: 'cx', name: 'page__read' });
    expect(outputOf(items, 'cx')).toBe('page text');
  });

  it('a response the API ended early (incomplete) stands, with a note saying the answer may be cut', async () => {
    const h = await setup({
      turns: [
        [
          created('r1'),
          ...messageSteps('The answer is'),
          { type: 'completed', responseId: 'r1', latencyMs: 3, incompleteReason: 'max_output_tokens' },
        ],
        say('more'),
      ],
    });
    const state = await h.runner.send(h.conversationId, 'q');
    expect(state).toMatchObject({ status: 'completed', stopReason: 'completed' });
    const items = await h.items();
    expect(items.map((i) => i.type)).toEqual(['message', 'message', 'otto.note']);
    expect(items[2]).toMatchObject({ kind: 'incomplete', reason: 'incomplete' });
    expect(String(items[2]!.text)).toContain('max_output_tokens');
    expect(h.eventsOf('turn.completed')[0]!.incompleteReason).toBe('max_output_tokens');
    await h.runner.send(h.conversationId, 'go on');
    expect(h.model.requests[1]!.input.map((i) => i.type)).toEqual(['message', 'message', 'message']);
  });
});
