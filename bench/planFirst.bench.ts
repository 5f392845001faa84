/**
 * Plan first vs tools mode (#42 part 2, docs/decisions/plan-first.md): the same three webmail tasks
 * (e2e/support/planFirstTasks.ts: delete Bob's email, buy the lamp if under $50, send Bob a message), each run with
 * the scripted model's minimal solution in both modes through the real panel and worker, in one run. Reported per
 * task and mode: model requests, the input characters they carried (the request bodies as sent: instructions, tool
 * definitions and the conversation), llm.transform's quarantined requests and their characters, whether it
 * finished (the site received exactly the task's actions); and the plan-first / tools ratios beside them.
 *
 *   npx vite build && npx tsx bench/run.ts plan_first
 *
 * Deterministic counts from scripted turns: one round. The characters are what a scripted solution sends, not what a
 * real model would: a real planner writes longer programs, a real tools-mode model reads more snapshots.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startFakeApi, type FakeApi } from '../test/support/fake-api/index.ts';
import { ROOT } from '../e2e/support/browser.ts';
import { planFirstTasks, startWebmail, type PlanFirstTask, type WebmailSite } from '../e2e/support/planFirstTasks.ts';
import { openExtension, type ExtensionBrowser } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'plan_first';
export const rounds = 1;

type Mode = 'plan_first' | 'tools';

interface ModeRun {
  requests: number;
  inputChars: number;
  transformRequests: number;
  transformChars: number;
  finished: boolean;
}

const LOCAL_HOSTS = 'approvals:\n  local_hosts: [127.0.0.1, localhost]\n';

function yamlFor(mode: Mode, api: FakeApi): string {
  const agent = `agent:\n  base_url: ${api.url}\n  model: gpt-bench\n`;
  const plan = mode === 'plan_first' ? '  mode: code\n  plan_first: true\n' : '  mode: tools\n';
  return `${agent}${plan}transform:\n  base_url: ${api.url}\n  model: gpt-transform\n${LOCAL_HOSTS}`;
}

async function untilEnded(ext: ExtensionBrowser, conversationId: string, timeoutMs = 90_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const r = await ext.ask({ type: 'conversations.get', conversationId });
    const c = r.data as { active?: boolean; state?: { status?: string } } | undefined;
    const st = c?.state?.status;
    if (!c?.active && st && st !== 'running') return st;
    await new Promise((res) => setTimeout(res, 50));
  }
  return 'timeout';
}

async function runOne(
  ext: ExtensionBrowser,
  api: FakeApi,
  site: WebmailSite,
  task: PlanFirstTask,
  mode: Mode,
): Promise<ModeRun> {
  api.reset();
  site.actions.length = 0;
  await ext.ask({ type: 'config.save', yaml: yamlFor(mode, api) });
  const page = await ext.context.newPage();
  try {
    await page.goto(site.url);
    await page.locator('.mail-row').first().waitFor();
    const tabId = await ext.panel.evaluate(
      async (u) => (await chrome.tabs.query({})).find((t) => t.url?.startsWith(u))!.id!,
      site.url,
    );
    api.script(mode === 'plan_first' ? task.planFirst.turns : task.tools);
    api.scriptChat(mode === 'plan_first' ? task.planFirst.chat : []);
    const sent = await ext.ask({ type: 'chat.send', text: task.ask, tabId });
    const id = (sent.data as { conversationId?: string } | undefined)?.conversationId;
    if (!id) throw new Error(`plan_first bench: chat.send failed: ${sent.error}`);
    const status = await untilEnded(ext, id);
    const reqs = api.responsesRequests();
    const chats = api.chatRequests();
    const finished = status === 'completed' && JSON.stringify(site.actions) === JSON.stringify(task.actions);
    if (!finished) process.stderr.write(`plan_first: ${task.name} (${mode}) unfinished: ${status}\n`);
    return {
      requests: reqs.length,
      inputChars: reqs.reduce((n, r) => n + JSON.stringify(r.body).length, 0),
      transformRequests: chats.length,
      transformChars: chats.reduce((n, r) => n + JSON.stringify(r.body).length, 0),
      finished,
    };
  } finally {
    await page.close();
  }
}

const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 100) / 100 : 0);

export async function run(): Promise<BenchMetric[]> {
  if (!existsSync(path.join(ROOT, 'e2e/fixtures/pages/apps/webmail.html')))
    await (await import('../e2e/fixtures/globalSetup.ts')).default();
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const site = await startWebmail();
  const ext = await openExtension(name, api.url);
  const out: BenchMetric[] = [];
  const total = { plan_first: { req: 0, chars: 0 }, tools: { req: 0, chars: 0 } };
  try {
    for (const task of planFirstTasks()) {
      const plan = await runOne(ext, api, site, task, 'plan_first');
      const tools = await runOne(ext, api, site, task, 'tools');
      // Plan first's input includes its quarantined requests: they are requests it pays for.
      const planChars = plan.inputChars + plan.transformChars;
      const planReqs = plan.requests + plan.transformRequests;
      total.plan_first.req += planReqs;
      total.plan_first.chars += planChars;
      total.tools.req += tools.requests;
      total.tools.chars += tools.inputChars;
      out.push(
        { name: `${task.name}_plan_first_requests`, value: plan.requests, unit: 'requests' },
        { name: `${task.name}_plan_first_transform_requests`, value: plan.transformRequests, unit: 'requests' },
        { name: `${task.name}_plan_first_input_chars`, value: planChars, unit: 'chars' },
        { name: `${task.name}_plan_first_finished`, value: plan.finished ? 1 : 0, unit: 'yes=1' },
        { name: `${task.name}_tools_requests`, value: tools.requests, unit: 'requests' },
        { name: `${task.name}_tools_input_chars`, value: tools.inputChars, unit: 'chars' },
        { name: `${task.name}_tools_finished`, value: tools.finished ? 1 : 0, unit: 'yes=1' },
        { name: `${task.name}_requests_ratio`, value: ratio(planReqs, tools.requests), unit: 'plan/tools' },
        { name: `${task.name}_input_ratio`, value: ratio(planChars, tools.inputChars), unit: 'plan/tools' },
      );
    }
  } finally {
    await ext.close();
    await site.close();
    await api.close();
  }
  out.push(
    { name: 'total_plan_first_requests', value: total.plan_first.req, unit: 'requests' },
    { name: 'total_tools_requests', value: total.tools.req, unit: 'requests' },
    { name: 'total_requests_ratio', value: ratio(total.plan_first.req, total.tools.req), unit: 'plan/tools' },
    { name: 'total_plan_first_input_chars', value: total.plan_first.chars, unit: 'chars' },
    { name: 'total_tools_input_chars', value: total.tools.chars, unit: 'chars' },
    { name: 'total_input_ratio', value: ratio(total.plan_first.chars, total.tools.chars), unit: 'plan/tools' },
  );
  return out;
}
