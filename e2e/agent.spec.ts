/**
 * Issue 3 e2e: the agent loop in the real service worker, driven through the panel's port, against the fake API on
 * loopback. Every Responses request the fake server receives must validate against the OpenAPI schema. Issue #18:
 * the whole suite runs twice, once per wire (`agent.api: responses`, then `chat`): the same scripted turns, which
 * the fake streams as Responses events or as Chat Completions chunks.
 */
import type { Page } from '@playwright/test';
import { test, expect, panelRequest, stopServiceWorker } from './support/fixtures.ts';
import {
  connectToFakeApi as connectWith,
  conversation,
  events,
  expectSchemaValidRequests,
  outline,
  send,
  waitForEvent,
  waitForStatus,
} from './support/agent.ts';
import { faults, type FakeApi, type RecordedRequest } from '../test/support/fake-api/index.ts';

type Wire = 'responses' | 'chat';

/** What a model request carried, read the same way on both wires. */
function sentItems(wire: Wire, request: RecordedRequest): { type: string }[] {
  if (wire === 'responses') return request.body?.input as { type: string }[];
  const messages = (request.body as unknown as { messages: { role: string; tool_calls?: unknown[] }[] }).messages;
  // In Responses terms: each tool message is a function_call_output, each tool call a function_call.
  return messages
    .filter((m) => m.role !== 'system')
    .flatMap((m) =>
      m.role === 'tool'
        ? [{ type: 'function_call_output' }]
        : m.tool_calls
          ? m.tool_calls.map(() => ({ type: 'function_call' }))
          : [{ type: 'message' }],
    );
}
const toolNames = (wire: Wire, request: RecordedRequest): string[] =>
  ((request.body?.tools ?? []) as { name?: string; function?: { name: string } }[]).map((t) =>
    wire === 'responses' ? String(t.name) : String(t.function?.name),
  );

test.beforeEach(async ({ fakeApi }) => {
  fakeApi.reset();
});

test.afterEach(({ fakeApi }) => expectSchemaValidRequests(fakeApi));

for (const wire of ['responses', 'chat'] as const) {
  test.describe(`over ${wire === 'responses' ? 'the Responses API' : 'Chat Completions'}`, () => {
    const connectToFakeApi = (panel: Page, api: FakeApi, opts: { key?: string; yaml?: string } = {}) =>
      connectWith(panel, api, { ...opts, yaml: `  api: ${wire}\n${opts.yaml ?? ''}` });
    const modelRequests = (api: FakeApi) => (wire === 'responses' ? api.responsesRequests() : api.agentChatRequests());

    test('a three-turn tool loop: call, result, call, result, answer', async ({ panel, fakeApi }) => {
      await connectToFakeApi(panel, fakeApi);
      fakeApi.script([
        { match: 'how many tabs', calls: [{ name: 'tabs__list', arguments: {} }] },
        { match: /"tabs"/, calls: [{ name: 'tabs__list', arguments: {} }], times: 1 },
        { match: /"tabs"/, text: 'You have some tabs open.' },
      ]);
      const id = await send(panel, 'how many tabs do I have?');
      const done = await waitForStatus(panel, id, 'completed');
      expect(done.stopReason).toBe('completed');

      const view = await conversation(panel, id);
      expect(outline(view)).toEqual([
        'user:how many tabs do I have?',
        'function_call:tabs__list',
        expect.stringMatching(/^output:\{"tabs":\[/),
        'function_call:tabs__list',
        expect.stringMatching(/^output:\{"tabs":\[/),
        'assistant:You have some tabs open.',
      ]);
      const reqs = modelRequests(fakeApi);
      expect(reqs).toHaveLength(3);
      // store:false: each request replays the whole transcript so far.
      expect(reqs.map((r) => sentItems(wire, r).length)).toEqual([1, 3, 5]);
      expect(toolNames(wire, reqs[0]!)).toContain('tabs__list');
      const finished = (await events(panel, id)).filter((e) => e.type === 'tool.finished');
      expect(finished.map((e) => [e.name, e.status])).toEqual([
        ['tabs.list', 'ok'],
        ['tabs.list', 'ok'],
      ]);
    });

    test('abort mid-stream stops the run and the transcript says so', async ({ panel, fakeApi }) => {
      await connectToFakeApi(panel, fakeApi);
      fakeApi.script([
        { match: 'long story', text: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' '), delayMs: 100 },
      ]);
      const id = await send(panel, 'tell me a long story');
      await waitForEvent(panel, id, 'text.delta');
      await panelRequest(panel, { type: 'chat.stop', conversationId: id });
      const stopped = await waitForStatus(panel, id, 'idle');
      expect(stopped.stopReason).toBe('aborted');
      const view = await conversation(panel, id);
      const lines = outline(view);
      expect(lines[0]).toBe('user:tell me a long story');
      // The partial text the user saw is kept, and a note records the stop.
      expect(lines.some((l) => l.startsWith('assistant:word0'))).toBe(true);
      expect(lines.at(-1)).toBe('otto.note');
      expect(lines.join(' ')).not.toContain('word59');
    });

    test('a 429 with retry-after is retried, then the run succeeds', async ({ panel, fakeApi }) => {
      await connectToFakeApi(panel, fakeApi);
      fakeApi.script([
        { ...faults.rateLimit(1), match: 'hello' },
        { match: 'hello', text: 'Hi there!' },
      ]);
      const started = Date.now();
      const id = await send(panel, 'hello');
      const retrying = await waitForEvent(panel, id, 'retrying');
      expect(retrying.delayMs).toBeGreaterThanOrEqual(900);
      await waitForStatus(panel, id, 'completed');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(outline(await conversation(panel, id))).toEqual(['user:hello', 'assistant:Hi there!']);
      expect(modelRequests(fakeApi).map((r) => r.status)).toEqual([429, 200]);
    });

    test('a cut stream gives a clear error, and retry completes with nothing duplicated', async ({
      panel,
      fakeApi,
    }) => {
      await connectToFakeApi(panel, fakeApi);
      fakeApi.script([
        { match: 'cut me', text: 'This reply will be cut somewhere in the middle of it.', cutAfter: 6 },
        { match: 'cut me', text: 'Complete reply.' },
      ]);
      const id = await send(panel, 'cut me');
      const failed = await waitForStatus(panel, id, 'error');
      const error = failed.error as { kind: string; message: string; retryable: boolean };
      expect(error.kind).toBe('stream_cut');
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/retry/i);
      await panelRequest(panel, { type: 'chat.retry', conversationId: id });
      await waitForStatus(panel, id, 'completed');
      expect(outline(await conversation(panel, id))).toEqual(['user:cut me', 'assistant:Complete reply.']);
    });

    test('the worker stopped mid-run shows the run interrupted, and resume completes with nothing lost', async ({
      context,
      panel,
      fakeApi,
    }) => {
      await connectToFakeApi(panel, fakeApi);
      fakeApi.script([
        { match: 'slow task', calls: [{ name: 'tabs__list', arguments: {} }] },
        { match: /"tabs"/, text: Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '), delayMs: 150 },
        { match: /"tabs"/, text: 'Finished after resume.' },
      ]);
      const id = await send(panel, 'slow task');
      // Wait until the tool ran and the second response is streaming, then kill the worker.
      await waitForEvent(panel, id, 'tool.finished');
      await waitForEvent(panel, id, 'text.delta');
      await stopServiceWorker(context, panel);

      const view = await conversation(panel, id); // wakes a fresh worker
      expect(view.state?.status).toBe('interrupted');
      expect(view.active).toBe(false);
      await panelRequest(panel, { type: 'chat.resume', conversationId: id });
      await expect
        .poll(async () => (await conversation(panel, id)).state?.status, { timeout: 20_000 })
        .toBe('completed');
      const lines = outline(await conversation(panel, id));
      expect(lines).toEqual([
        'user:slow task',
        'function_call:tabs__list',
        expect.stringMatching(/^output:/),
        'assistant:Finished after resume.',
      ]);
      // The tool's output was persisted before the worker died, so resume did not run it again.
      const replayed = sentItems(wire, modelRequests(fakeApi).at(-1)!);
      expect(replayed.filter((i) => i.type === 'function_call_output')).toHaveLength(1);
    });

    test('a destructive call waits for approval: approved runs it, denied tells the model', async ({
      context,
      panel,
      fakeApi,
      pages,
    }) => {
      await connectToFakeApi(panel, fakeApi);
      const victim = await context.newPage();
      await victim.goto(`${pages.origin}/child.html?victim`);
      const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, victim.url());

      // Approved: the tab is closed only after the user says yes.
      fakeApi.script([
        { match: 'close it', calls: [{ name: 'tabs__close', arguments: { tab_id: tabId } }] },
        { match: /closed/, text: 'Closed.' },
      ]);
      const id = await send(panel, 'close it');
      const asked = await waitForEvent(panel, id, 'approval.required');
      const approval = asked.approval as { callId: string; name: string };
      expect(approval.name).toBe('tabs.close');
      expect(victim.isClosed()).toBe(false);
      await panelRequest(panel, { type: 'chat.approve', conversationId: id, callId: approval.callId, scope: 'once' });
      await waitForStatus(panel, id, 'completed');
      await expect.poll(() => victim.isClosed()).toBe(true);

      // Denied: the tab stays open and the model is told.
      const survivor = await context.newPage();
      await survivor.goto(`${pages.origin}/child.html?survivor`);
      const survivorId = await panel.evaluate(
        async (url) => (await chrome.tabs.query({ url }))[0]!.id!,
        survivor.url(),
      );
      fakeApi.script([
        { match: 'close the other', calls: [{ name: 'tabs__close', arguments: { tab_id: survivorId } }] },
        { match: /denied/, text: 'Understood, I left it open.' },
      ]);
      const id2 = await send(panel, 'close the other');
      const asked2 = await waitForEvent(panel, id2, 'approval.required');
      await panelRequest(panel, {
        type: 'chat.deny',
        conversationId: id2,
        callId: (asked2.approval as { callId: string }).callId,
      });
      await waitForStatus(panel, id2, 'completed');
      expect(survivor.isClosed()).toBe(false);
      const lines = outline(await conversation(panel, id2));
      expect(lines).toContain('output:Error: the user denied tabs.close');
      expect(lines.at(-1)).toBe('assistant:Understood, I left it open.');
      await survivor.close();
    });

    test('a missing key and a rejected key give errors that say what to do, without the key', async ({
      panel,
      fakeApi,
    }) => {
      await connectToFakeApi(panel, fakeApi, { key: 'sk-wrong-key-1234567890' });
      fakeApi.setExpectedKey('sk-right-key-0987654321');
      fakeApi.script([]);
      const id = await send(panel, 'hello?');
      const failed = await waitForStatus(panel, id, 'error');
      const error = failed.error as { kind: string; message: string };
      expect(error.kind).toBe('auth');
      expect(error.message).toMatch(/API key/);
      expect(JSON.stringify(await events(panel, id))).not.toContain('sk-wrong-key-1234567890');
      expect(JSON.stringify(await conversation(panel, id))).not.toContain('sk-wrong-key-1234567890');
      fakeApi.setExpectedKey(undefined);

      // No key at all for OpenAI's own API: the run fails at once, pointing at Settings, and nothing is sent anywhere.
      await panelRequest(panel, { type: 'config.save', yaml: 'agent:\n  base_url: https://api.openai.com/v1\n' });
      await panelRequest(panel, { type: 'secrets.save', yaml: '' });
      const before = fakeApi.requests.length;
      const id2 = await send(panel, 'hello without a key');
      const noKey = (await waitForStatus(panel, id2, 'error')).error as { kind: string; message: string };
      expect(noKey.kind).toBe('auth');
      expect(noKey.message).toMatch(/No API key is set\. Open Settings/);
      expect(fakeApi.requests.length).toBe(before);
      expect(outline(await conversation(panel, id2))).toEqual(['user:hello without a key']);
    });
  });
}

test('agent.api auto: a server without /responses is used over Chat Completions, said once in the panel and remembered', async ({
  panel,
  fakeApi,
}) => {
  fakeApi.setResponsesAvailable(false);
  await connectWith(panel, fakeApi, { yaml: '  api: auto\n' });
  fakeApi.script([
    { match: 'first', text: 'Answered over Chat Completions.' },
    { match: 'second', text: 'Again, directly.' },
  ]);
  await panel.getByTestId('chat-input').fill('first question');
  await panel.getByTestId('chat-send').click();
  await expect(panel.getByTestId('message-assistant').last()).toHaveText('Answered over Chat Completions.');
  await expect(panel.getByTestId('info-banner')).toContainText(`${fakeApi.url} has no Responses API`);
  await expect(panel.getByTestId('info-banner')).toContainText('Chat Completions');
  await panel.getByTestId('info-banner').getByRole('button', { name: 'Dismiss notice' }).click();
  await expect(panel.getByTestId('info-banner')).toHaveCount(0);

  await panel.getByTestId('chat-input').fill('second question');
  await panel.getByTestId('chat-send').click();
  await expect(panel.getByTestId('message-assistant').last()).toHaveText('Again, directly.');
  await expect(panel.getByTestId('run-status')).toHaveAttribute('data-status', 'idle');
  expect(fakeApi.responsesRequests()).toHaveLength(1); // only the first try: the switch is remembered
  expect(fakeApi.agentChatRequests()).toHaveLength(2);
  await expect(panel.getByTestId('info-banner')).toHaveCount(0); // said once
  fakeApi.setResponsesAvailable(true);
  // The remembered switch is per base URL; later tests in this browser talk to the same fake.
  await panel.evaluate(() => chrome.storage.local.remove('agentTransports'));
});
