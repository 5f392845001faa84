/** Issue 6 e2e: large tool output goes to the result store through the loop; tool calls and model requests are recorded. */
import { test, expect, currentServiceWorker } from './support/fixtures.ts';
import { connectToFakeApi, conversation, send, waitForStatus } from './support/agent.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

test('output over max_inline_size reaches the model as a stored-result summary with the ot.result call', async ({
  context,
  extensionId,
  panel,
  fakeApi,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: 'output:\n  max_inline_size: 120\n  preview_lines: 3\n' });
  fakeApi.script([
    { match: 'list tabs', calls: [{ name: 'tabs__list', arguments: {} }] },
    { match: /handle/, text: 'Stored, I will page through it.' },
  ]);
  const id = await send(panel, 'list tabs please');
  await waitForStatus(panel, id, 'completed');
  const output = String(
    (await conversation(panel, id)).items.find((i) => i.item.type === 'function_call_output')!.item.output,
  );
  const handle = /handle: ([0-9a-f]{12})/.exec(output)?.[1];
  expect(handle).toBeDefined();
  expect(output).toContain(`ot.result(handle='${handle}', offset=1, limit=50)`);
  expect(output).toMatch(/total_lines: \d+/);
  // What the model got is the summary, not the full text; the full text is in IndexedDB under the handle.
  const sw = await currentServiceWorker(context, extensionId);
  const stored = await sw.evaluate(async (h) => {
    const req = indexedDB.open('otto');
    const dbh = await new Promise<IDBDatabase>((r) => (req.onsuccess = () => r(req.result)));
    const get = (store: string, key: IDBValidKey) =>
      new Promise<unknown>((r) => {
        const q = dbh.transaction(store).objectStore(store).get(key);
        q.onsuccess = () => r(q.result);
      });
    const meta = (await get('results', h)) as { sizeBytes?: number; size_bytes?: number } | undefined;
    dbh.close();
    return meta;
  }, handle!);
  expect(stored).toBeTruthy();
});

test('every tool call and model request of a run is recorded for statistics', async ({
  context,
  extensionId,
  panel,
  fakeApi,
}) => {
  await connectToFakeApi(panel, fakeApi);
  fakeApi.script([
    { match: 'count', calls: [{ name: 'tabs__list', arguments: {} }], usage: { input_tokens: 50, output_tokens: 7 } },
    { match: /"tabs"/, text: 'Counted.', usage: { input_tokens: 80, output_tokens: 3 } },
  ]);
  const sw = await currentServiceWorker(context, extensionId);
  const count = (store: string) =>
    sw.evaluate(async (s) => {
      const req = indexedDB.open('otto');
      const dbh = await new Promise<IDBDatabase>((r) => (req.onsuccess = () => r(req.result)));
      const all = await new Promise<unknown[]>((r) => {
        const q = dbh.transaction(s).objectStore(s).getAll();
        q.onsuccess = () => r(q.result);
      });
      dbh.close();
      return all;
    }, store);
  // Statistics are written in the background (500 ms batches): write what earlier tests left waiting first.
  await sw.evaluate(() =>
    (globalThis as unknown as { otto: { stats: () => { flush(): Promise<void> } } }).otto.stats().flush(),
  );
  const toolsBefore = (await count('statsToolCalls')).length;
  const modelBefore = (await count('statsModelRequests')).length;
  const id = await send(panel, 'count my tabs');
  await waitForStatus(panel, id, 'completed');
  await expect.poll(async () => (await count('statsToolCalls')).length).toBe(toolsBefore + 1);
  await expect.poll(async () => (await count('statsModelRequests')).length).toBe(modelBefore + 2);
  const tools = (await count('statsToolCalls')) as { tool: string; success: boolean }[];
  expect(tools.at(-1)).toMatchObject({ tool: 'tabs.list', success: true });
  const requests = (await count('statsModelRequests')) as {
    model: string;
    inputTokens?: number;
    input_tokens?: number;
  }[];
  expect(requests.slice(-2).map((r) => r.inputTokens ?? r.input_tokens)).toEqual([50, 80]);
});
