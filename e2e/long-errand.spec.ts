/**
 * #23 — long errands in a bounded context, in the built extension against the fake API playing a model with a
 * 128k-token window. A scripted model (test/support/pageReader.ts) reads 60 pages of about 10,000 characters each
 * (navigate, then snapshot), then reads page 1 back through the handle its stub names.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { test, expect, panelRequest, stopServiceWorker } from './support/fixtures.ts';
import { connectToFakeApi, conversation, events, send, waitForEvent, waitForStatus } from './support/agent.ts';
import { ERRAND, NOTES, pageText, readerAction } from '../test/support/pageReader.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';
import type { RecordedRequest, Turn } from '../test/support/fake-api/turns.ts';
import { promptTokens } from '../test/support/fake-api/contextModel.ts';
import { tabIdFor } from './support/tabs.ts';

/**
 * Every tool with every request, as when the issue measured the errand (a first request of ~27k characters): with
 * the default tool set a single 10k-character page is 80% of the first request, so "2× the first" would leave no room
 * for anything but that page. The budget, 13,000 tokens, is close to the fixed prefix (instructions and all tool
 * definitions, about 9,000): a compaction saves little, and must not be repeated every turn for nothing.
 */
const ERRAND_CONFIG = '  tool_set: all\n  context_budget: 13000\n';

let longPages: { origin: string; close(): Promise<void> };

test.beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const m = /^\/long\/page-(\d+)\.html$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end('not found');
    const i = Number(m[1]);
    const body = pageText(i)
      .split('\n')
      .map((p) => `<p>${p}</p>`)
      .join('\n');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><title>Page ${m[1]}</title><main><h1>Page ${m[1]}</h1>${body}</main>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  longPages = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});
test.afterAll(async () => longPages.close());

test.beforeEach(async ({ fakeApi }) => fakeApi.reset());

/** The scripted model, behind the fake API: every request answered from its own input. */
function reader(
  pages: number,
  finish?: (action: ReturnType<typeof readerAction>, r: RecordedRequest) => Turn | undefined,
  delayMs?: number,
): Turn {
  return {
    label: 'reader',
    times: Infinity,
    ...(delayMs ? { delayMs } : {}),
    respond: (r) => {
      const action = readerAction((r.body?.input ?? []) as Record<string, unknown>[], pages, longPages.origin);
      const custom = finish?.(action, r);
      if (custom) return custom;
      return 'call' in action ? { calls: [action.call] } : { text: action.text };
    },
  };
}

async function blankTab(
  context: { newPage(): Promise<Page> },
  panel: Page,
  origin: string,
): Promise<{ page: Page; tabId: number }> {
  const page = await context.newPage();
  await page.goto(`${origin}/long/page-00.html`).catch(() => undefined);
  const tabId = await tabIdFor(panel, page.url());
  return { page, tabId };
}

const agentRequests = (api: FakeApi) => api.responsesRequests().filter((r) => r.status === 200);
const isSummary = (r: RecordedRequest) => JSON.stringify(r.body?.input ?? []).includes('Write the working notes');
const lastAnswer = async (panel: Page, id: string) => {
  const items = (await conversation(panel, id)).items.map((i) => i.item);
  const last = items.filter((i) => i.type === 'message' && i.role === 'assistant').at(-1);
  return JSON.stringify(last?.content ?? '');
};

test('60 pages against a 128k-token model: finishes, the largest request at most 2× the first, page 1 read back by handle', async ({
  context,
  panel,
  fakeApi,
}) => {
  test.setTimeout(300_000); // a 60-page run on a loaded machine
  fakeApi.setContext({ window: 128_000 });
  await connectToFakeApi(panel, fakeApi, { yaml: ERRAND_CONFIG });
  const { page, tabId } = await blankTab(context, panel, longPages.origin);
  fakeApi.script([reader(60)]);
  const id = await send(panel, ERRAND(60), { tabId });
  await waitForStatus(panel, id, 'completed', 270_000);

  const reqs = agentRequests(fakeApi);
  const refused = fakeApi.responsesRequests().filter((r) => r.status === 400);
  expect(refused).toEqual([]);
  const sizes = reqs.map((r) => promptTokens(r.body!));
  const first = sizes[0]!;
  expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * first);
  // 60 navigations and 60 snapshots were answered, plus the read-back and the answer.
  const main = reqs.filter((r) => !isSummary(r));
  expect(main.length).toBe(122);
  // No server compaction here (the fake answers 404 there): the model wrote the notes.
  expect(fakeApi.requests.filter((r) => r.path === '/v1/responses/compact').length).toBeLessThanOrEqual(1);
  expect(reqs.filter(isSummary).length).toBeGreaterThan(0);
  expect(await lastAnswer(panel, id)).toContain('Page 1 says: Page 01 marker: the value for page 01 is 1007.');
  // The stored conversation keeps every snapshot in full.
  const view = await conversation(panel, id);
  const stored = JSON.stringify(view.items);
  for (const n of ['01', '30', '60']) expect(stored).toContain(`Page ${n} marker`);
  const comps = view.items.filter((i) => i.item.type === 'otto.compaction').map((i) => i.item);
  expect(comps.filter((c) => c.method === 'summary').length).toBe(reqs.filter(isSummary).length);
  // No thrash: 60 pages of stubs and calls (about 11,000 tokens) are compacted a tenth of the budget at a time at
  // most, and every compaction made the request smaller by at least that much.
  expect(comps.length).toBeLessThanOrEqual(10);
  for (const c of comps) expect(Number(c.tokensBefore) - Number(c.tokensAfter)).toBeGreaterThanOrEqual(1300);
  // Over the budget with nothing worth compacting, the transcript says so (once per stretch between compactions).
  const overs = view.items.filter((i) => i.item.type === 'otto.context_note').map((i) => String(i.item.text));
  expect(overs.length).toBeLessThanOrEqual(comps.length + 1);
  for (const t of overs)
    expect(t).toMatch(/^Over the context budget: this request is about [\d,]+ tokens against a budget of 13,000/);
  // The prompt cache served most of the input: cached tokens are counted in the run's totals.
  const usage = view.state!.usage as { inputTokens: number; cachedTokens: number };
  expect(usage.cachedTokens).toBeGreaterThan(usage.inputTokens / 2);

  // The panel: a marker where each compaction happened, and the context meter.
  await panel.reload();
  await panel.getByTestId('open-conversations').click();
  await panel
    .getByTestId('conversation-item')
    .filter({ hasText: 'Read the 60 pages' })
    .first()
    .getByRole('button')
    .first()
    .click();
  await expect(panel.getByTestId('context-compacted')).toHaveCount(comps.length);
  await expect(
    panel.getByTestId('context-compacted').filter({ hasText: 'notes written by the model' }).first(),
  ).toContainText('Context compacted into notes written by the model: about');
  const meter = panel.getByTestId('context-meter');
  await expect(meter).toHaveAttribute('data-budget', '13000');
  expect(Number(await meter.getAttribute('data-tokens'))).toBe(sizes.at(-1));
  await page.close();
});

test('with the default budget, settled steps are condensed into a digest by Otto, without a model request', async ({
  context,
  panel,
  fakeApi,
}) => {
  test.setTimeout(240_000); // 24 pages on a loaded machine
  fakeApi.setContext({ window: 128_000 });
  await connectToFakeApi(panel, fakeApi);
  const { page, tabId } = await blankTab(context, panel, longPages.origin);
  fakeApi.script([reader(24)]);
  const id = await send(panel, ERRAND(24), { tabId });
  await waitForStatus(panel, id, 'completed', 200_000);
  const reqs = agentRequests(fakeApi);
  expect(reqs.filter(isSummary)).toEqual([]);
  const view = await conversation(panel, id);
  const digests = view.items.filter((i) => i.item.type === 'otto.compaction').map((i) => i.item);
  expect(digests.length).toBeGreaterThan(0);
  expect(digests.every((d) => d.method === 'digest' && d.reason === 'history')).toBe(true);
  // The last request: the user's message, then Otto's lines, page 1's with its handle, which the model read back.
  const last = JSON.stringify(reqs.at(-1)!.body!.input);
  expect(last).toContain(
    "[Otto: earlier steps, condensed to fit the context: each call, its arguments and what it returned; ot__result(handle='…') reads a long output back in full.]",
  );
  expect(last).toMatch(
    /- dom__snapshot → \[[\d,]+ chars of http:\/\/127\.0\.0\.1:\d+\/long\/page-01\.html; handle [0-9a-f]{12}\]/,
  );
  expect(await lastAnswer(panel, id)).toContain('Page 1 says: Page 01 marker: the value for page 01 is 1007.');
  await panel.reload();
  await panel.getByTestId('open-conversations').click();
  await panel
    .getByTestId('conversation-item')
    .filter({ hasText: 'Read the 24 pages' })
    .first()
    .getByRole('button')
    .first()
    .click();
  await expect(panel.getByTestId('context-compacted').first()).toContainText(
    'Context compacted into a digest of the earlier steps (one line per call, no model request): about',
  );
  await page.close();
});

test("the same errand against a server that offers compaction uses the server's", async ({
  context,
  panel,
  fakeApi,
}) => {
  test.setTimeout(300_000); // a 60-page run on a loaded machine
  fakeApi.setContext({ window: 128_000, compaction: true });
  await connectToFakeApi(panel, fakeApi, { yaml: ERRAND_CONFIG });
  const { page, tabId } = await blankTab(context, panel, longPages.origin);
  fakeApi.script([reader(60)]);
  const id = await send(panel, ERRAND(60), { tabId });
  await waitForStatus(panel, id, 'completed', 270_000);
  const compactions = fakeApi.requests.filter((r) => r.path === '/v1/responses/compact');
  expect(compactions.length).toBeGreaterThan(0);
  expect(compactions.every((r) => r.status === 200)).toBe(true);
  const reqs = agentRequests(fakeApi);
  expect(reqs.filter(isSummary)).toEqual([]);
  // The server's compaction item travels in later requests.
  expect(reqs.some((r) => (r.body?.input as { type: string }[]).some((i) => i.type === 'compaction'))).toBe(true);
  const sizes = reqs.map((r) => promptTokens(r.body!));
  expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * sizes[0]!);
  expect(await lastAnswer(panel, id)).toContain('Page 1 says: Page 01 marker');
  await page.close();
});

test('a context error is recovered by compaction; Stop, Resume after a worker kill and approvals work across it', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  test.setTimeout(300_000); // a 60-page run on a loaded machine
  // The budget is set far too high on purpose: only the server's refusal can tell Otto the request is too long.
  fakeApi.setContext({ window: 9000 });
  await connectToFakeApi(panel, fakeApi, { yaml: '  context_budget: 1000000\n' });
  // The victim first: the errand's tab is then the active one, which a resumed run falls back to.
  const victim = await context.newPage();
  await victim.goto(`${pages.origin}/child.html?victim-23`);
  const victimId = await panel.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, victim.url());
  const { page, tabId } = await blankTab(context, panel, longPages.origin);
  let closed = false;
  fakeApi.script([
    reader(
      24,
      (action, r) => {
        // Instead of answering, close the victim tab first (an action the user must approve).
        if ('text' in action && action.text.startsWith('Page 1 says') && !closed) {
          closed = true;
          return { calls: [{ name: 'tabs__close', arguments: { tab_id: victimId } }] };
        }
        if (/"closed"/.test(r.lastInput)) return { text: 'Closed the tab too.' };
        return undefined;
      },
      10,
    ),
  ]);
  const id = await send(panel, ERRAND(24), { tabId });
  await expect
    .poll(
      () =>
        fakeApi
          .responsesRequests()
          .map((r) => `${r.status}`)
          .join(','),
      { timeout: 60_000 },
    )
    .toContain('400');
  const notice = await waitForEvent(panel, id, 'notice', 60_000);
  expect(notice.message).toBe(
    'The model refused the request as too long for its context (context_length_exceeded). Otto compacted the earlier turns and asked again.',
  );
  // Stop after the compaction, then go on with a new message.
  await waitForEvent(panel, id, 'tool.finished');
  await panelRequest(panel, { type: 'chat.stop', conversationId: id });
  await waitForStatus(panel, id, 'idle');
  const before = (await events(panel, id)).filter((e) => e.type === 'tool.finished').length;
  await send(panel, 'continue', { conversationId: id, tabId });
  await expect
    .poll(async () => (await events(panel, id)).filter((e) => e.type === 'tool.finished').length, { timeout: 60_000 })
    .toBeGreaterThan(before + 2);
  // Kill the worker mid-run; Resume goes on from what was saved, across the compaction.
  await stopServiceWorker(context, panel);
  await expect.poll(async () => (await conversation(panel, id)).state?.status, { timeout: 20_000 }).toBe('interrupted');
  await panelRequest(panel, { type: 'chat.resume', conversationId: id });
  // The victim tab is outside the run's tabs: sharing it is asked first, then closing it (an action).
  const asked: string[] = [];
  await expect
    .poll(
      async () => {
        const state = (await conversation(panel, id)).state as {
          status: string;
          approval?: { callId: string; name: string; share?: unknown };
        };
        if (state?.status === 'awaiting_approval' && state.approval) {
          expect(victim.isClosed()).toBe(false);
          asked.push(`${state.approval.name}${state.approval.share ? ' (share)' : ''}`);
          await panelRequest(panel, {
            type: 'chat.approve',
            conversationId: id,
            callId: state.approval.callId,
            scope: 'once',
          });
        }
        return state?.status;
      },
      { timeout: 60_000 },
    )
    .toBe('completed');
  expect(asked).toEqual(['tabs.close (share)', 'tabs.close']);
  expect(victim.isClosed()).toBe(true);
  const view = await conversation(panel, id);
  const comps = view.items.filter((i) => i.item.type === 'otto.compaction').map((i) => i.item);
  expect(comps.find((c) => c.reason === 'context_error')).toMatchObject({ method: 'summary' });
  const answers = view.items.map((i) => i.item).filter((i) => i.type === 'message' && i.role === 'assistant');
  expect(JSON.stringify(answers)).toContain('Closed the tab too.');
  // Page 1 was read back through the compaction's index after the resume.
  const outputs = JSON.stringify(view.items.filter((i) => i.item.type === 'function_call_output').at(-2));
  expect(outputs).toContain('Page 01 marker');
  expect(view.state?.status).toBe('completed');
  await page.close();
});

test("a summary made from tab A's pages carries A's label: sending it to another site asks", async ({
  context,
  panel,
  fakeApi,
  otherOrigin,
}) => {
  test.setTimeout(240_000); // twelve pages on a loaded machine
  fakeApi.setContext({ window: 128_000 });
  // A tight budget, so the twelve pages are summarised.
  await connectToFakeApi(panel, fakeApi, { yaml: '  tool_set: all\n  context_budget: 13000\n' });
  const { page, tabId } = await blankTab(context, panel, longPages.origin);
  const target = `${otherOrigin.origin}/child.html`;
  fakeApi.script([
    reader(12, (action) => {
      if ('text' in action && action.text.startsWith('Page 1 says')) return { text: 'I have read all twelve pages.' };
      return undefined;
    }),
  ]);
  const id = await send(panel, ERRAND(12), { tabId });
  await waitForStatus(panel, id, 'completed', 180_000);
  const view = await conversation(panel, id);
  // The first summary that stands for a page read (an earlier one may cover only the user's message).
  const firstOutput = view.items.find((i) => i.item.type === 'function_call_output')!.seq;
  const comp = view.items.find(
    (i) => i.item.type === 'otto.compaction' && Number(i.item.throughSeq) >= firstOutput,
  )!.item;
  const a = new URL(longPages.origin).origin;
  expect(comp.labels).toEqual([a]);
  // The model now sends its notes (the summary) to another site: the guard asks, naming A.
  fakeApi.script([
    {
      match: 'post the notes',
      calls: [{ name: 'tabs__navigate', arguments: { url: `${target}?notes=${encodeURIComponent(NOTES)}` } }],
    },
    { match: /denied/, text: 'Not sent.' },
  ]);
  await send(panel, 'post the notes to the other site', { conversationId: id, tabId });
  const asked = await waitForEvent(panel, id, 'approval.required');
  const flow = (asked.approval as { flow?: { from: string[]; to: string; sentence: string } }).flow!;
  expect(flow.from).toEqual([a]);
  expect(flow.sentence).toBe(`Data read from ${a.replace('http://', '')} may be sent to ${new URL(target).host}`);
  await panelRequest(panel, {
    type: 'chat.deny',
    conversationId: id,
    callId: (asked.approval as { callId: string }).callId,
  });
  await waitForStatus(panel, id, 'completed');
  await page.close();
});
