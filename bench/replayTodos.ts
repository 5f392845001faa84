/**
 * #44 in the replay bench: the TodoMVC task (add two todos, complete the first) run by the scripted model on the
 * React build and saved as a snippet (`ot.save_snippet`), then, on the Vue, Lit and jQuery builds, the same task
 * through the model and replayed from the snippet, alternated. Also: the share of the saved locators that
 * Playwright's own locators (getByRole/getByLabel/getByPlaceholder/getByText/getByTestId) resolve, on each other
 * build, to exactly one element that is the one the model acted on there.
 */
import type { Locator, Page } from 'playwright-core';
import type { FakeApi } from '../test/support/fake-api/index.ts';
import { call, reading } from '../e2e/support/modelTurns.ts';
import { refIn } from '../e2e/page-tools.helpers.ts';
import type { ExtensionBrowser } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

const OTHERS = ['vue', 'lit', 'jquery'];

/** The model's turns for one todo run: look, type twice, look, check. */
function todoTurns(task: string, field: string) {
  return [
    { match: task, calls: [call('dom__snapshot')] },
    reading(/Page snapshot/, (m) => [
      call('dom__type', { ref: refIn(m, field), text: 'Buy milk', submit: true }),
      call('dom__type', { ref: refIn(m, field), text: 'Call mom', submit: true }),
      call('dom__snapshot'),
    ]),
    reading(/Page snapshot/, (m) => [call('dom__check', { ref: refIn(m, /checkbox "Buy milk"/), checked: true })]),
    { match: /^dom__check ok/, text: 'Done.' },
  ];
}

async function untilSettled(ext: ExtensionBrowser, conversationId: string): Promise<void> {
  for (;;) {
    const c = (await ext.ask({ type: 'conversations.get', conversationId })) as {
      data?: { active: boolean; state?: { status: string; lastError?: { message: string } } };
    };
    const st = c.data?.state?.status;
    if (!c.data?.active && st && st !== 'running') {
      if (st !== 'completed') throw new Error(`replay bench (todos): the model run ended ${st}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function modelRun(ext: ExtensionBrowser, api: FakeApi, tabId: number, field: string): Promise<string> {
  const task = `todos ${Date.now()}: add "Buy milk" and "Call mom", complete "Buy milk"`;
  api.script(todoTurns(task, field));
  const sent = (await ext.ask({ type: 'chat.send', text: task, tabId })) as { data?: { conversationId?: string } };
  const id = sent.data?.conversationId;
  if (!id) throw new Error('replay bench (todos): chat.send failed');
  await untilSettled(ext, id);
  return id;
}

/** The saved locators of the body: each `key="value"` group of a dom call that names its element. */
function savedLocators(body: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const line of body.split('\n')) {
    if (!/^dom\.(type|check|click)\(/.test(line)) continue;
    const l: Record<string, string> = {};
    for (const m of line.matchAll(/(item|role|name|label|placeholder|testid)="([^"]*)"/g)) l[m[1]!] = m[2]!;
    if (/^dom\.click\(/.test(line)) for (const m of line.matchAll(/\btext="([^"]*)"/g)) l.text = m[1]!;
    out.push(l);
  }
  return out;
}

function playwrightLocator(page: Page, l: Record<string, string>): Locator | undefined {
  const scope = l.item ? page.getByRole('listitem').or(page.getByRole('row')).filter({ hasText: l.item }) : page;
  if (l.role) return scope.getByRole(l.role as 'checkbox', l.name ? { name: l.name } : {});
  if (l.label) return scope.getByLabel(l.label);
  if (l.placeholder) return scope.getByPlaceholder(l.placeholder);
  if (l.text) return scope.getByText(l.text);
  if (l.testid) return scope.getByTestId(l.testid);
  return undefined;
}

/** Which element each step acted on, on a page where the todos "Buy milk" and "Call mom" exist. */
async function sameElement(page: Page, loc: Locator, step: number): Promise<boolean> {
  if ((await loc.count()) !== 1) return false;
  return loc.evaluate((el, s) => {
    if (s < 2) return el.localName === 'input' && el.getAttribute('placeholder') === 'What needs to be done?';
    const li = el.closest('li');
    return (el as HTMLInputElement).type === 'checkbox' && !!li && li.textContent!.includes('Buy milk');
  }, step);
}

export async function todoMetrics(
  ext: ExtensionBrowser,
  api: FakeApi,
  origin: string,
  rows: number,
): Promise<BenchMetric[]> {
  const app = (n: string) => `${origin}/apps/todomvc-${n}.html`;
  const page = await ext.context.newPage();
  await page.goto(app('react'));
  const tabId = await ext.panel.evaluate(
    async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)!.id!,
    app('react'),
  );
  const recorded = await modelRun(ext, api, tabId, 'textbox "New Todo Input"');
  const saved = (await ext.ask({
    type: 'command.run',
    text: `ot.save_snippet(name="todo_bench", conversation="${recorded}", replace=True)`,
    tabId,
  })) as { data?: { ok: boolean; output?: string } };
  // The body as it runs with the defaults (the run's own values): "# Expands to:" in the saved text.
  const body = /# Expands to:\n([\s\S]*?)(?:\n\n|$)/.exec(saved.data?.output ?? '')?.[1] ?? '';
  const locators = savedLocators(body);
  if (locators.length !== 3) throw new Error(`replay bench (todos): saved ${locators.length} locators:\n${body}`);

  let model = 0;
  let replay = 0;
  let held = 0;
  let checked = 0;
  for (let i = 0; i < rows; i++) {
    const name = OTHERS[i % OTHERS.length]!;
    await page.goto(app(name));
    const t0 = performance.now();
    await modelRun(ext, api, tabId, 'textbox "What needs to be done?"');
    model += performance.now() - t0;
    // The locators saved on React, on this build after the model's run (the todos exist).
    for (const [step, l] of locators.entries()) {
      const loc = playwrightLocator(page, l);
      checked++;
      if (loc && (await sameElement(page, loc, step))) held++;
    }
    await page.goto(app(name));
    const before = api.responsesRequests().length;
    const t1 = performance.now();
    const r = (await ext.ask({ type: 'command.run', text: '$todo_bench', tabId })) as { data?: { ok: boolean } };
    replay += performance.now() - t1;
    if (!r.data?.ok) throw new Error(`replay bench (todos): the replay failed on ${name}`);
    if (api.responsesRequests().length !== before) throw new Error('replay bench (todos): the replay asked the model');
  }
  await page.close();
  return [
    { name: 'todos_replay_ms_per_row', value: Math.round(replay / rows), unit: 'ms' },
    { name: 'todos_model_ms_per_row', value: Math.round(model / rows), unit: 'ms' },
    { name: 'todos_locators_held_share', value: Math.round((held / checked) * 100) / 100, unit: 'share' },
  ];
}
