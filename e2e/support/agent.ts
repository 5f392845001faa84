/**
 * Driving Otto's agent from e2e tests the way the panel does: over the panel port. Events the worker pushes are
 * collected in the panel page, so a test can wait for a run to reach a state and read what was streamed.
 */
import type { Page } from '@playwright/test';
import { expect, panelRequest, test } from './fixtures.ts';
import type { FakeApi } from '../../test/support/fake-api/index.ts';

export interface AgentEventLike {
  type: string;
  conversationId: string;
  [k: string]: unknown;
}

type PanelGlobals = {
  ottoPanel: { onEvent(cb: (e: { type: string; event?: AgentEventLike }) => void): () => void };
  __events?: AgentEventLike[];
  __workerErrors?: string[];
};

/**
 * The e2e suite's fixture sites are loopback servers: the user's own network, where opening or fetching a page asks
 * first (issue #31). The suite allows them explicitly, as a developer would in `approvals.local_hosts`; a test that
 * sets its own `approvals:` section says what it wants itself. e2e/attack-surface.spec.ts checks the rule both ways.
 */
export const E2E_LOCAL_HOSTS = 'approvals:\n  local_hosts: [127.0.0.1, localhost]\n';

/** Points Otto at the fake API with a key, and starts collecting pushed events in the panel page. */
export async function connectToFakeApi(
  panel: Page,
  api: FakeApi,
  opts: { key?: string; yaml?: string; localHosts?: boolean } = {},
): Promise<void> {
  const extra = opts.yaml ?? '';
  const approvals = /^approvals:/m.test(extra) || opts.localHosts === false ? '' : E2E_LOCAL_HOSTS;
  const yaml = `agent:\n  base_url: ${api.url}\n  model: gpt-test\n  max_retries: 3\n${extra}${approvals}`;
  await panelRequest(panel, { type: 'config.save', yaml });
  await panelRequest(panel, {
    type: 'secrets.save',
    yaml: `OPENAI_API_KEY: ${opts.key ?? 'sk-e2e-test-key-000000'}\n`,
  });
  await collectEvents(panel);
}

export async function collectEvents(panel: Page): Promise<void> {
  await panel.evaluate(() => {
    const g = globalThis as unknown as PanelGlobals;
    if (g.__events) return;
    g.__events = [];
    g.__workerErrors = [];
    g.ottoPanel.onEvent((m) => {
      if (m.type === 'agent' && m.event) g.__events!.push(m.event);
      if (m.type === 'worker.error') g.__workerErrors!.push(JSON.stringify(m));
    });
  });
}

export function events(panel: Page, conversationId?: string): Promise<AgentEventLike[]> {
  return panel.evaluate(
    (id) => ((globalThis as unknown as PanelGlobals).__events ?? []).filter((e) => !id || e.conversationId === id),
    conversationId,
  );
}

export async function send(panel: Page, text: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await panelRequest<{ conversationId: string }>(panel, { type: 'chat.send', text, ...extra });
  return r.conversationId;
}

/** Waits until the run's status event says `status` (and, optionally, a stop reason). */
export async function waitForStatus(
  panel: Page,
  conversationId: string,
  status: string,
  timeout = 30_000,
): Promise<AgentEventLike> {
  const handle = await panel.waitForFunction(
    ([id, s]) => {
      const evs = ((globalThis as unknown as PanelGlobals).__events ?? []).filter(
        (e) => e.conversationId === id && e.type === 'run.status',
      );
      const last = evs.at(-1);
      return last && last.status === s ? last : undefined;
    },
    [conversationId, status] as const,
    { timeout },
  );
  return (await handle.jsonValue()) as AgentEventLike;
}

export async function waitForEvent(
  panel: Page,
  conversationId: string,
  type: string,
  timeout = 30_000,
): Promise<AgentEventLike> {
  const handle = await panel.waitForFunction(
    ([id, t]) =>
      ((globalThis as unknown as PanelGlobals).__events ?? []).find((e) => e.conversationId === id && e.type === t),
    [conversationId, type] as const,
    { timeout },
  );
  return (await handle.jsonValue()) as AgentEventLike;
}

export interface ConversationView {
  items: { seq: number; item: Record<string, unknown> & { type: string } }[];
  state?: Record<string, unknown> & {
    status: string;
    stopReason?: string;
    lastError?: { kind: string; message: string };
  };
  active: boolean;
}

export function conversation(panel: Page, conversationId: string): Promise<ConversationView> {
  return panelRequest<ConversationView>(panel, { type: 'conversations.get', conversationId });
}

/** The transcript as compact strings (`user:hi`, `function_call:tabs.list`, `message:done`), for exact comparisons. */
export function outline(view: ConversationView): string[] {
  return view.items.map(({ item }) => {
    if (item.type === 'message') {
      const content = item.content as { text?: string }[] | string;
      const text = typeof content === 'string' ? content : content.map((c) => c.text ?? '').join('');
      return `${item.role}:${text}`;
    }
    if (item.type === 'function_call') return `function_call:${item.name}`;
    if (item.type === 'function_call_output') return `output:${String(item.output).slice(0, 40)}`;
    return item.type;
  });
}

/** Fails the test when a request Otto sent the fake API broke the Responses API's schema (for `test.afterEach`). */
export function expectSchemaValidRequests(api: FakeApi): void {
  const invalid = api.responsesRequests().filter((r) => r.schemaErrors?.length);
  expect(invalid.map((r) => r.schemaErrors)).toEqual([]);
}

/**
 * `test` whose panel has Otto pointed at the fake API (`connectToFakeApi` with its defaults) before the test body
 * runs: the setup most agent tests open with. A test that needs other settings (a key, config text) uses `test` and
 * calls `connectToFakeApi` itself.
 */
export const connectedTest = test.extend({
  panel: async ({ panel, fakeApi }, use) => {
    await connectToFakeApi(panel, fakeApi);
    await use(panel);
  },
});
