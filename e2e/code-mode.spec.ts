/**
 * Issue 7 e2e: code mode. The same scripted task — list the tabs, then summarise them with llm.transform — in tools
 * mode (one model round trip per call) and in code mode (the model writes one `ot.run` program): code mode needs
 * fewer requests to the model, and the tabs list never enters the model's context.
 */
import { test, expect, panelRequest } from './support/fixtures.ts';
import {
  connectToFakeApi,
  conversation,
  events,
  expectSchemaValidRequests,
  outline,
  send,
  waitForEvent,
  waitForStatus,
} from './support/agent.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

test.afterEach(({ fakeApi }) => expectSchemaValidRequests(fakeApi));

const PROGRAM = 'tabs = tabs.list()\nllm.transform(input=tabs, prompt="Summarise the open tabs")';
const transformYaml = (api: FakeApi) => `transform:\n  base_url: ${api.url}\n  model: gpt-transform\n`;
const toolNames = (body: Record<string, unknown> | undefined) =>
  ((body?.tools ?? []) as { name?: string }[]).map((t) => t.name).filter(Boolean);

async function openFixtureTab(context: import('@playwright/test').BrowserContext, url: string) {
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

test('the same task costs fewer model requests in code mode than in tools mode', async ({
  panel,
  fakeApi,
  context,
  pages,
}) => {
  const tab = await openFixtureTab(context, `${pages.origin}/child.html`);
  try {
    // Tools mode: tabs.list, then llm.transform, then the answer — three requests.
    await connectToFakeApi(panel, fakeApi, { yaml: transformYaml(fakeApi) });
    fakeApi.scriptChat([{ match: 'Summarise the open tabs', content: 'SUMMARY: fixture tabs', times: 2 }]);
    fakeApi.script([
      { match: 'summarise my tabs', calls: [{ name: 'tabs__list', arguments: {} }] },
      {
        match: /"tabs"/,
        calls: [
          { name: 'llm__transform', arguments: { input: 'the tabs listed above', prompt: 'Summarise the open tabs' } },
        ],
      },
      { match: 'SUMMARY', text: 'You have a fixture tab open.' },
    ]);
    const toolsId = await send(panel, 'summarise my tabs');
    await waitForStatus(panel, toolsId, 'completed');
    const toolsRequests = fakeApi.responsesRequests();
    expect(outline(await conversation(panel, toolsId))).toEqual([
      'user:summarise my tabs',
      'function_call:tabs__list',
      expect.stringMatching(/^output:\{"tabs":\[/),
      'function_call:llm__transform',
      'output:SUMMARY: fixture tabs',
      'assistant:You have a fixture tab open.',
    ]);
    expect(toolNames(toolsRequests[0]!.body)).toContain('tabs__list');
    expect(toolNames(toolsRequests[0]!.body)).not.toContain('ot__run');
    // The tabs list went through the model's context.
    expect(JSON.stringify(toolsRequests[1]!.body?.input)).toContain('child.html');

    // Code mode: one program, then the answer — two requests.
    fakeApi.reset();
    // connectToFakeApi appends `yaml` right after its `agent:` keys, so indented lines extend that section.
    await connectToFakeApi(panel, fakeApi, { yaml: `  mode: code\n${transformYaml(fakeApi)}` });
    fakeApi.scriptChat([{ match: 'Summarise the open tabs', content: 'SUMMARY: fixture tabs' }]);
    fakeApi.script([
      { match: 'summarise my tabs', calls: [{ name: 'ot__run', arguments: { code: PROGRAM } }] },
      { match: 'SUMMARY', text: 'You have a fixture tab open.' },
    ]);
    const codeId = await send(panel, 'summarise my tabs');
    await waitForStatus(panel, codeId, 'completed');
    const codeRequests = fakeApi.responsesRequests();
    expect(outline(await conversation(panel, codeId))).toEqual([
      'user:summarise my tabs',
      'function_call:ot__run',
      'output:SUMMARY: fixture tabs',
      'assistant:You have a fixture tab open.',
    ]);
    // The model was offered exactly one function tool, which lists the packs.
    const offered = (codeRequests[0]!.body?.tools ?? []) as { type: string; name?: string; description?: string }[];
    expect(offered.filter((t) => t.type === 'function').map((t) => t.name)).toEqual(['ot__run']);
    // Every page tool with its parameters (#43): a program can be written from the first request.
    expect(offered[0]!.description).toContain('\n- tabs.list(): ');
    expect(offered[0]!.description).toContain('ot.help(query="...")');
    // The tabs list reached llm.transform (inside the worker) but never the model.
    const chat = fakeApi.chatRequests();
    expect(JSON.stringify(chat.at(-1)!.body)).toContain('child.html');
    expect(JSON.stringify(chat.at(-1)!.body)).not.toContain('_execution_metadata');
    expect(codeRequests.map((r) => JSON.stringify(r.body?.input)).join('')).not.toContain('child.html');

    expect(codeRequests).toHaveLength(2);
    expect(toolsRequests).toHaveLength(3);
    expect(codeRequests.length).toBeLessThan(toolsRequests.length);

    // The inner calls ran through the interceptor (the tool events show the one ot.run call), and stats record the
    // characters kept out of context.
    const finished = (await events(panel, codeId)).filter((e) => e.type === 'tool.finished');
    expect(finished.map((e) => [e.name, e.status])).toEqual([['ot.run', 'ok']]);
    const stats = await panelRequest<{ ok: boolean; output: string }>(panel, {
      type: 'command.run',
      text: 'ot.stats(period="day")',
    });
    expect(stats.ok).toBe(true);
    expect(Number(/context_saved: (\d+)/.exec(stats.output)?.[1])).toBeGreaterThan(0);
  } finally {
    await tab.close();
  }
});

test('mode both offers every tool plus ot.run; a destructive call inside a program asks when it runs', async ({
  panel,
  fakeApi,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: '  mode: both\n' });
  fakeApi.script([
    { match: 'close the tab', calls: [{ name: 'ot__run', arguments: { code: 'tabs.close(tab_id=987654)' } }] },
    { match: /denied/, text: 'Okay, I left it open.' },
  ]);
  const id = await send(panel, 'close the tab');
  const asked = await waitForEvent(panel, id, 'approval.required');
  // The call inside the program is what asks (issue #31), named as itself, the program paused around it.
  expect(asked.approval).toMatchObject({ name: 'tabs.close', arguments: '{"tab_id":987654}' });
  await panelRequest(panel, {
    type: 'chat.deny',
    conversationId: id,
    callId: (asked.approval as { callId: string }).callId,
  });
  await waitForStatus(panel, id, 'completed');
  const names = toolNames(fakeApi.responsesRequests()[0]!.body);
  expect(names).toEqual(expect.arrayContaining(['ot__run', 'tabs__list', 'tabs__close', 'llm__transform', 'ot__help']));
});
