/**
 * Runs one of issue #43's page tasks (pageTasks.ts) through the real panel and worker: opens the fixture in a new
 * tab, scripts the fake model with the task's minimal solution, sends the user's message, waits for the run to end,
 * and reports how many model requests it took (counted at the fake API) and whether the task finished.
 * Shared by e2e/page-tasks.spec.ts and bench/pageTasks.bench.ts.
 */
import type { BrowserContext } from '@playwright/test';
import type { FakeApi } from '../../test/support/fake-api/index.ts';
import type { RecordedRequest } from '../../test/support/fake-api/turns.ts';
import { outputsSent } from './modelTurns.ts';
import type { PageTask } from './pageTasks.ts';

/** A panel request's data (the panel's `ottoPanel.request`, or the bench's port); throws on an error answer. */
export type PanelRequest = (body: Record<string, unknown>) => Promise<unknown>;

export interface TaskRun {
  /** Model requests the run made (responses requests at the fake API). */
  requests: number;
  /** The run's end status: `completed`, or how it ended otherwise. */
  status: string;
  /** Why the task did not finish; undefined when it did. */
  unfinished?: string;
  /** The fixed input each request carried: tool definitions (JSON) + instructions, in characters. */
  fixedInput: number[];
  /** Tools the model called, in order (wire names; an ot__call as `ot__call:<tool>`). */
  called: string[];
}

interface Deps {
  context: BrowserContext;
  request: PanelRequest;
  api: FakeApi;
  /** The fixture pages server: its origin and its per-path request counts. */
  pages: { origin: string; requests(pathAndQuery: string): number };
  /** The id of the tab showing `url` (chrome.tabs, from an extension page). */
  tabId(url: string): Promise<number>;
}

type Conversation = { active?: boolean; state?: { status?: string; lastError?: { message?: string } } };

async function untilEnded(request: PanelRequest, conversationId: string, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const c = (await request({ type: 'conversations.get', conversationId })) as Conversation;
    const st = c.state?.status;
    if (!c.active && st && st !== 'running') return st === 'completed' ? st : `${st}: ${c.state?.lastError?.message}`;
    await new Promise((r) => setTimeout(r, 50));
  }
  return `still running after ${timeoutMs} ms`;
}

/** The characters of a request's tool definitions and instructions, as sent. */
export function fixedInputOf(req: RecordedRequest): number {
  return JSON.stringify(req.body?.tools ?? []).length + (req.body?.instructions ?? '').length;
}

function calledIn(req: RecordedRequest | undefined): string[] {
  const items = (req?.body?.input ?? []) as { type?: string; name?: string; arguments?: string }[];
  return items
    .filter((i) => i.type === 'function_call')
    .map((i) =>
      i.name === 'ot__call' ? `ot__call:${(JSON.parse(i.arguments ?? '{}') as { tool?: string }).tool}` : i.name!,
    );
}

export async function runPageTask(task: PageTask, deps: Deps, timeoutMs = 90_000): Promise<TaskRun> {
  const { context, request, api, pages } = deps;
  const url = `${pages.origin}${task.path}`;
  const page = await context.newPage();
  try {
    await page.goto(url);
    await task.prepare?.(page);
    const tabId = await deps.tabId(url);
    const before = new Map((task.watch ?? []).map((p) => [p, pages.requests(p)]));
    const served = (p: string) => {
      if (!before.has(p)) throw new Error(`${task.name}: ${p} is not in the task's watch list`);
      return pages.requests(p) - before.get(p)!;
    };
    const first = api.responsesRequests().length;
    api.script(task.turns());
    const sent = (await request({ type: 'chat.send', text: task.ask, tabId })) as { conversationId?: string };
    if (!sent.conversationId) throw new Error(`${task.name}: chat.send gave no conversation`);
    const status = await untilEnded(request, sent.conversationId, timeoutMs);
    const reqs = api.responsesRequests().slice(first);
    const last = reqs.at(-1);
    const outputs = last ? outputsSent(last) : [];
    const unfinished =
      status === 'completed' ? await task.unfinished({ page, outputs, served }) : `the run ended ${status}`;
    return { requests: reqs.length, status, unfinished, fixedInput: reqs.map(fixedInputOf), called: calledIn(last) };
  } finally {
    await page.close();
  }
}
