/** Issue 6 e2e: the model calls llm.transform through the loop; transform makes its own Chat Completions call. */
import { test, expect } from './support/fixtures.ts';
import { connectToFakeApi, conversation, outline, send, waitForStatus } from './support/agent.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

test('the model calls llm.transform, which calls Chat Completions with its own config, and gets the result', async ({ panel, fakeApi }) => {
  await connectToFakeApi(panel, fakeApi, { yaml: `transform:\n  base_url: ${fakeApi.url}\n  model: gpt-transform\n  max_tokens: 64\n` });
  fakeApi.scriptChat([{ match: 'Extract the price', content: '1999.5' }]);
  fakeApi.script([
    {
      match: 'price of gold',
      calls: [{ name: 'llm__transform', arguments: { input: 'Gold trades at $1,999.50 an ounce.', prompt: 'Extract the price as a number' } }],
    },
    { match: '1999.5', text: 'Gold costs 1999.5 dollars.' },
  ]);
  const id = await send(panel, 'what is the price of gold?');
  await waitForStatus(panel, id, 'completed');
  expect(outline(await conversation(panel, id))).toEqual([
    'user:what is the price of gold?',
    'function_call:llm__transform',
    'output:1999.5',
    'assistant:Gold costs 1999.5 dollars.',
  ]);
  const chat = fakeApi.chatRequests();
  expect(chat).toHaveLength(1);
  expect(chat[0]!.body).toMatchObject({ model: 'gpt-transform', temperature: 0.1, max_tokens: 64 });
  expect((chat[0]!.body as { messages: { content: string }[] }).messages[1]!.content).toBe(
    'Input data:\nGold trades at $1,999.50 an ounce.\n\nInstructions:\nExtract the price as a number',
  );
});

test('llm.transform without transform config tells the model what to set, and makes no request', async ({ panel, fakeApi }) => {
  await connectToFakeApi(panel, fakeApi);
  fakeApi.script([
    { match: 'summarise', calls: [{ name: 'llm__transform', arguments: { input: 'text', prompt: 'Summarize' } }] },
    { match: 'not available', text: 'Transform is not configured.' },
  ]);
  const id = await send(panel, 'summarise this');
  await waitForStatus(panel, id, 'completed');
  const outputs = (await conversation(panel, id)).items.filter((i) => i.item.type === 'function_call_output');
  expect(outputs.map((o) => o.item.output)).toEqual(['Error: Transform tool not available. Set transform.base_url in config.']);
  expect(fakeApi.chatRequests()).toHaveLength(0);
});
