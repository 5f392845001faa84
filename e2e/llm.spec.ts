/** Issue 6 e2e: the model calls llm.transform through the loop; transform makes its own Chat Completions call. */
import { test, expect, panelRequest } from './support/fixtures.ts';
import { connectToFakeApi, conversation, outline, send, waitForStatus } from './support/agent.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

test('the model calls llm.transform, which calls Chat Completions with its own config, and gets the result', async ({
  panel,
  fakeApi,
}) => {
  await connectToFakeApi(panel, fakeApi, {
    yaml: `transform:\n  base_url: ${fakeApi.url}\n  model: gpt-transform\n  max_tokens: 64\n`,
  });
  fakeApi.scriptChat([{ match: 'Extract the price', content: '1999.5' }]);
  fakeApi.script([
    {
      match: 'price of gold',
      calls: [
        {
          name: 'llm__transform',
          arguments: { input: 'Gold trades at $1,999.50 an ounce.', prompt: 'Extract the price as a number' },
        },
      ],
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

test("llm.transform without its own config follows the agent's server and model, as the settings placeholder says", async ({
  panel,
  fakeApi,
}) => {
  await connectToFakeApi(panel, fakeApi);
  fakeApi.scriptChat([{ match: 'Summarize', content: 'A summary.' }]);
  fakeApi.script([
    { match: 'summarise', calls: [{ name: 'llm__transform', arguments: { input: 'text', prompt: 'Summarize' } }] },
    { match: 'A summary.', text: 'Done.' },
  ]);
  const id = await send(panel, 'summarise this');
  await waitForStatus(panel, id, 'completed');
  const outputs = (await conversation(panel, id)).items.filter((i) => i.item.type === 'function_call_output');
  expect(outputs.map((o) => o.item.output)).toEqual(['A summary.']);
  // The agent's model, at the agent's server (connectToFakeApi writes agent.base_url and agent.model: gpt-test).
  expect(fakeApi.chatRequests().map((r) => (r.body as { model: string }).model)).toEqual(['gpt-test']);

  // The settings say so, with the values they follow.
  await panel.getByTestId('open-settings').click();
  await expect(panel.getByTestId('settings-transform-base-url')).toHaveAttribute(
    'placeholder',
    `same as the agent: ${fakeApi.url}`,
  );
  await expect(panel.getByTestId('settings-transform-base-url')).toHaveValue('');
  await expect(panel.getByTestId('settings-transform-model')).toHaveAttribute(
    'placeholder',
    'same as the agent: gpt-test',
  );
});

test('with neither transform.base_url nor agent.base_url set, llm.transform gives the spec error and sends nothing', async ({
  panel,
  fakeApi,
}) => {
  await connectToFakeApi(panel, fakeApi);
  // Only a key and the agent's defaults: nothing names a server for the transform.
  await panelRequest(panel, { type: 'config.save', yaml: 'agent:\n  max_turns: 5\n' });
  const out = await panelRequest<{ ok: boolean; output?: string }>(panel, {
    type: 'command.run',
    text: 'llm.transform(input="text", prompt="Summarize")',
  });
  expect(out.output).toBe('Error: Transform tool not available. Set transform.base_url in config.');
  expect(fakeApi.chatRequests()).toHaveLength(0);
  await panel.reload();
  await panel.getByTestId('open-settings').click();
  await expect(panel.getByTestId('settings-transform-base-url')).toHaveAttribute(
    'placeholder',
    'not set: set it here or the agent base URL',
  );
});

test('#45: a key that does not start with sk- and is refused gets the spec words, and ot.stats counts the failure', async ({
  panel,
  fakeApi,
}) => {
  const key = 'gq_live_0123456789abcdef';
  await connectToFakeApi(panel, fakeApi, { key });
  fakeApi.scriptChat([{ http: { status: 401, body: { error: { message: `Invalid API Key: ${key}`, type: 'x' } } } }]);
  // The worker's statistics hold the calls of earlier tests in this browser: count from what they say now.
  const counts = async (): Promise<[number, number]> => {
    const { output = '' } = await panelRequest<{ output?: string }>(panel, {
      type: 'command.run',
      text: 'ot.stats(tool="llm.transform")',
    });
    const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(output)?.[1] ?? 0);
    return [field('total_calls'), field('error_count')];
  };
  const [calls, errors] = await counts();
  const out = await panelRequest<{ ok: boolean; output?: string }>(panel, {
    type: 'command.run',
    text: 'llm.transform(input="text", prompt="Summarize")',
  });
  expect(out.output).toBe('Error: Authentication error - check OPENAI_API_KEY in secrets.yaml');
  // The failed call is a failure in the statistics (it used to count as a success).
  await expect.poll(counts, { timeout: 15_000 }).toEqual([calls + 1, errors + 1]);
});
