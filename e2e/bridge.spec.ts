/**
 * The MCP bridge (#29), end to end: the official MCP SDK client starts `npm run otto -- mcp --no-open` over stdio,
 * the user answers on Otto's connect page in the real browser, and the client's calls run in the built extension
 * through the panel's own path (approvals in the panel, tab scope, data-flow guard).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect, panelRequest, stopServiceWorker } from './support/fixtures.ts';
import { ROOT } from './support/browser.ts';
import { tabIdFor } from './support/tabs.ts';

interface Agent {
  client: Client;
  stderr: () => string;
  connectUrl: () => Promise<string>;
  close: () => Promise<void>;
}

type ToolResult = { content: { type: string; text?: string }[]; isError?: boolean };

const LONG = { timeout: 120_000 };

async function startAgent(name = 'E2E Agent'): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: 'npm',
    args: ['run', '--silent', 'otto', '--', 'mcp', '--no-open'],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name, version: '1.2.3' });
  await client.connect(transport);
  return {
    client,
    stderr: () => err,
    connectUrl: async () => {
      await expect.poll(() => /^Connect: (\S+)$/m.exec(err)?.[1], { timeout: 60_000 }).toBeTruthy();
      return /^Connect: (\S+)$/m.exec(err)![1]!;
    },
    close: () => client.close(),
  };
}

function text(r: unknown): string {
  return (r as ToolResult).content.map((c) => c.text ?? '').join('\n');
}

/** Opens the connect page, shares exactly `tabId`, and answers. */
async function answer(
  context: BrowserContext,
  url: string,
  allow: boolean,
  tabId?: number,
  name = 'E2E Agent',
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByTestId('connect-client')).toContainText(`${name} 1.2.3 asks to use Otto’s browser tools`);
  if (tabId !== undefined) {
    for (const box of await page.getByTestId('connect-tab').all()) {
      const want = (await box.getAttribute('data-tab-id')) === String(tabId);
      if ((await box.isChecked()) !== want) await box.click();
    }
  }
  await page.getByTestId(allow ? 'connect-allow' : 'connect-deny').click();
  await expect(page.getByTestId('connect-done')).toBeVisible();
  return page;
}

test.describe.configure({ mode: 'serial' });

test('tools are listed at once with valid names and hints; Allow on the connect page lets a snapshot and a click/type run in the shared tab; large results come by handle; stats name the client; a cross-site navigation waits for the panel and, denied, stays put; Disconnect ends it', async ({
  context,
  panel,
  pages,
  otherOrigin,
  extensionId,
}) => {
  test.setTimeout(180_000);
  const agent = await startAgent();
  try {
    // tools/list needs no browser: it answers before anything is connected.
    const { tools } = await agent.client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    for (const t of tools) expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('dom__snapshot')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('dom__click')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('tabs__navigate')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect([...byName.keys()].some((n) => n.startsWith('llm'))).toBe(false);

    const app = await context.newPage();
    await app.goto(`${pages.origin}/apps/vue.html`);
    await expect(app.getByRole('heading', { name: 'Vue todos' })).toBeVisible();
    const tabId = await tabIdFor(panel, app.url());

    // The first call waits for the user's answer.
    const first = agent.client.callTool({ name: 'dom__snapshot', arguments: {} }, undefined, LONG);
    const url = await agent.connectUrl();
    expect(url).toMatch(
      new RegExp(`^chrome-extension://${extensionId}/src/connect/index\\.html#port=\\d+&token=[A-Za-z0-9_-]{32,}$`),
    );
    await answer(context, url, true, tabId);
    const snap = text(await first);
    expect(snap).toContain('heading "Vue todos"');
    const ref = /textbox "New todo" \[ref=([a-df-z]{2}e\d+)\]/.exec(snap)?.[1];
    expect(ref).toBeTruthy();

    // The shared tab joined the session's tab group.
    const groupId = await panel.evaluate(async (id) => (await chrome.tabs.get(id)).groupId, tabId);
    expect(groupId).toBeGreaterThan(-1);

    // Click, then type with Enter: the app adds the item.
    const click = (await agent.client.callTool(
      { name: 'dom__click', arguments: { ref } },
      undefined,
      LONG,
    )) as ToolResult;
    expect(click.isError ?? false).toBe(false);
    const typed = (await agent.client.callTool(
      { name: 'dom__type', arguments: { ref, text: 'Water the plants', submit: true } },
      undefined,
      LONG,
    )) as ToolResult;
    expect(typed.isError ?? false).toBe(false);
    await expect(app.locator('li.todo')).toHaveText(['Buy milk', 'Water the plants']);
    await expect(app.getByTestId('count')).toHaveText('2 items');

    // The panel shows the session as a conversation named after the client, with its tool cards.
    await panel.reload();
    await panel.getByTestId('bridge-show').click();
    await expect(panel.getByTestId('bridge-bar')).toContainText('E2E Agent');
    await expect(panel.locator('[data-testid="tool-call"][data-tool="dom.type"]')).toHaveAttribute('data-status', 'ok');

    // A result too large for context comes back as a handle, pageable with ot__result (names as the client calls them).
    const { yaml } = await panelRequest<{ yaml: string }>(panel, { type: 'config.get' });
    await panelRequest(panel, { type: 'config.save', yaml: 'output:\n  max_inline_size: 200\n' });
    try {
      const big = text(await agent.client.callTool({ name: 'dom__snapshot', arguments: {} }, undefined, LONG));
      expect(big).toContain('Output of dom__snapshot too large for context');
      const handle = /stored as ([0-9a-f]{12}) for 1 h/.exec(big)?.[1];
      expect(handle, big).toBeTruthy();
      expect(big).toContain(`query: ot__result(handle='${handle}', offset=1, limit=50)`);
      const found = text(
        await agent.client.callTool({ name: 'ot__result', arguments: { handle, search: 'New todo' } }, undefined, LONG),
      );
      // A handle of digits only (about 1 in 280) is written as a YAML string, quoted, so it stays a string.
      expect(found).toMatch(new RegExp(`^handle: "?${handle}"?$`, 'm'));
      expect(found).toMatch(/lines: \[' {2}- textbox "New todo" \[ref=[a-df-z]{2}e1\]/);
    } finally {
      await panelRequest(panel, { type: 'config.save', yaml });
    }

    // The statistics count the client's calls under its name (and the tools' calls as usual).
    await expect
      .poll(
        async () =>
          (
            await panelRequest<{ report: { models: { model: string; requests: number }[] } }>(panel, {
              type: 'stats.summary',
            })
          ).report.models.find((m) => m.model === 'MCP: E2E Agent')?.requests,
        { timeout: 15_000 },
      )
      .toBe(5);

    // A navigation to another site carries data read here away: it waits for the user in the panel.
    const away = `${otherOrigin.origin}/blog.html`;
    const nav = agent.client.callTool({ name: 'tabs__navigate', arguments: { url: away } }, undefined, LONG);
    await panel.getByTestId('approval-deny').click();
    const denied = (await nav) as ToolResult;
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(
      /^Error: the user denied tabs__navigate: data read from 127\.0\.0\.1:\d+ may be sent to 127\.0\.0\.1:\d+\. Nothing was sent\./,
    );
    expect(app.url()).toBe(`${pages.origin}/apps/vue.html`);
    await app.close();

    // Disconnect in the panel: the next call fails with a message saying so.
    await panel.getByTestId('bridge-disconnect').click();
    await expect(panel.getByTestId('bridge-bar')).toBeHidden();
    const after = (await agent.client.callTool(
      { name: 'dom__snapshot', arguments: {} },
      undefined,
      LONG,
    )) as ToolResult;
    expect(after.isError).toBe(true);
    expect(text(after)).toContain('The user disconnected E2E Agent from Otto in the browser');
    // Leave no conversation behind for the next spec's panel to reopen (its origin set would carry over).
    const ids = (await panelRequest<{ id: string; title: string }[]>(panel, { type: 'conversations.list' }))
      .filter((c) => c.title === 'E2E Agent')
      .map((c) => c.id);
    for (const id of ids) await panelRequest(panel, { type: 'conversations.delete', conversationId: id });
  } finally {
    await agent.close();
  }
});

test('Deny on the connect page answers the waiting call with an error saying so', async ({ context }) => {
  test.setTimeout(120_000);
  const agent = await startAgent();
  try {
    const call = agent.client.callTool({ name: 'tabs__list', arguments: {} }, undefined, LONG);
    const page = await answer(context, await agent.connectUrl(), false);
    const r = (await call) as ToolResult;
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      "Error: The user denied E2E Agent's request to use Otto in the browser. No browser tools can run in this session; restart the MCP server to ask again.",
    );
    await page.close();
  } finally {
    await agent.close();
  }
});

test('a web page that finds the relay gets nothing: a WebSocket from another origin is refused', async ({
  context,
  pages,
}) => {
  test.setTimeout(120_000);
  const agent = await startAgent();
  try {
    const call = agent.client.callTool({ name: 'tabs__list', arguments: {} }, undefined, LONG);
    const url = await agent.connectUrl();
    const { port, token } = Object.fromEntries(new URLSearchParams(new URL(url).hash.slice(1))) as Record<
      string,
      string
    >;
    const page = await context.newPage();
    await page.goto(`${pages.origin}/blog.html`);
    // Even with the right port and token, a page's socket carries the page's Origin, and is refused.
    const outcome = await page.evaluate(
      ([p, t]) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${p}/${t}`);
          ws.onopen = () => resolve('open');
          ws.onmessage = (e) => resolve(`message ${String(e.data)}`);
          ws.onerror = () => resolve('refused');
          setTimeout(() => resolve('timeout'), 10_000);
        }),
      [port, token] as const,
    );
    expect(outcome).toBe('refused');
    await page.close();
    // The waiting call is still waiting for the user, not for the page: deny it to end the test.
    await answer(context, url, false);
    expect(text(await call)).toContain('The user denied');
  } finally {
    await agent.close();
  }
});

test('a connected session survives a worker restart: the next call runs without asking again; a second client is refused naming the first', async ({
  context,
  panel,
  pages,
}) => {
  test.setTimeout(240_000);
  const agent = await startAgent();
  try {
    const app = await context.newPage();
    await app.goto(`${pages.origin}/apps/vue.html`);
    const tabId = await tabIdFor(panel, app.url());
    const first = agent.client.callTool({ name: 'dom__snapshot', arguments: {} }, undefined, LONG);
    await (await answer(context, await agent.connectUrl(), true, tabId)).close();
    expect(text(await first)).toContain('heading "Vue todos"');
    const asked = (agent.stderr().match(/^Connect: /gm) ?? []).length;

    await stopServiceWorker(context, panel);
    // Anything that wakes the worker (here the panel asking for the sessions) brings the session back.
    await expect
      .poll(
        async () =>
          (await panelRequest<{ connected: boolean }[]>(panel, { type: 'bridge.list' }).catch(() => []))[0]?.connected,
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    const again = (await agent.client.callTool(
      { name: 'dom__snapshot', arguments: {} },
      undefined,
      LONG,
    )) as ToolResult;
    expect(again.isError ?? false).toBe(false);
    expect(text(again)).toContain('heading "Vue todos"');
    // No second question.
    expect((agent.stderr().match(/^Connect: /gm) ?? []).length).toBe(asked);
    // A second client while this one is connected: the page says who is connected; Deny tells the second client.
    const second = await startAgent('Second Agent');
    try {
      const call = second.client.callTool({ name: 'tabs__list', arguments: {} }, undefined, LONG);
      const page = await context.newPage();
      await page.goto(await second.connectUrl());
      await expect(page.getByTestId('connect-others')).toContainText('Otto is already connected to E2E Agent.');
      await expect(page.getByTestId('connect-allow')).toHaveText('Allow a second session');
      await page.getByTestId('connect-deny').click();
      const r = (await call) as ToolResult;
      expect(r.isError).toBe(true);
      expect(text(r)).toBe(
        "Error: Otto is already connected to E2E Agent, and the user did not allow a second session. Disconnect it in Otto's side panel first, then call again after restarting this MCP server.",
      );
      await page.close();
    } finally {
      await second.close();
    }
    const list = await panelRequest<{ conversationId: string }[]>(panel, { type: 'bridge.list' });
    await panelRequest(panel, { type: 'bridge.disconnect', conversationId: list[0]!.conversationId });
    await panelRequest(panel, { type: 'conversations.delete', conversationId: list[0]!.conversationId });
    await app.close();
  } finally {
    await agent.close();
  }
});

test('a committing call from an MCP client asks with a card that names the client, not "You asked to …" (#42)', async ({
  context,
  panel,
  pages,
}) => {
  test.setTimeout(180_000);
  const agent = await startAgent();
  try {
    const app = await context.newPage();
    await app.goto(`${pages.origin}/apps/webmail.html`);
    await expect(app.locator('#nav-compose')).toBeVisible();
    const tabId = await tabIdFor(panel, app.url());
    const first = agent.client.callTool(
      { name: 'dom__click', arguments: { selector: '#nav-compose' } },
      undefined,
      LONG,
    );
    await answer(context, await agent.connectUrl(), true, tabId);
    expect(((await first) as ToolResult).isError ?? false).toBe(false);
    await app.locator('#to').fill('bob@mail.example');
    const send = agent.client.callTool({ name: 'dom__click', arguments: { selector: '#send' } }, undefined, LONG);
    await panel.reload();
    await panel.getByTestId('bridge-show').click();
    const host = new URL(pages.origin).hostname;
    await expect(panel.getByTestId('approval-scope')).toHaveText(
      `E2E Agent, an agent connected over MCP, wants Otto to send or post to bob@mail.example on ${host} (“Send”) — you have not allowed this for its session; a page it or Otto read may have asked for it.`,
    );
    await expect(panel.getByTestId('approval-scope')).not.toContainText('You asked to');
    await panel.getByTestId('approval-deny').click();
    const denied = (await send) as ToolResult;
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/^Error: the user denied dom__click: it would send or post on /);
    await app.close();
    await panel.getByTestId('bridge-disconnect').click();
    const ids = (await panelRequest<{ id: string; title: string }[]>(panel, { type: 'conversations.list' }))
      .filter((c) => c.title === 'E2E Agent')
      .map((c) => c.id);
    for (const id of ids) await panelRequest(panel, { type: 'conversations.delete', conversationId: id });
  } finally {
    await agent.close();
  }
});
