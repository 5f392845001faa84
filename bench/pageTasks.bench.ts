/**
 * #43's last check — requests per task: each fixture task of the issue (drag a jQuery UI sortable item, hover the
 * jumping SVG target, answer from a PDF tab with a scanned page, download from the portal, like a feed post whose
 * listener was bound before Otto came) run with the scripted model's minimal solution (e2e/support/pageTasks.ts,
 * the same scripts e2e/page-tasks.spec.ts asserts) through the real panel and worker, in the default tool set.
 * Reported per task: model requests (counted at the fake API; budget = the minimal solution's count, so an extra
 * discovery request breaks it) and whether it finished (the page's state and what the model read). In the same run:
 * the fixed input per request in tools and code mode (test/support/fixedInput.ts, as bench `fixed_input`), and the
 * largest fixed input the tasks' requests really carried (tool definitions + instructions as sent).
 *
 *   npx vite build && npx tsx bench/run.ts page_tasks
 *
 * Deterministic counts: one round. `--quick` runs it the same (one Chromium, ~five short runs).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildRegistry } from '../src/background/registry.ts';
import { DEFAULT_CONFIG } from '../src/config/schema.ts';
import { FIXED_INPUT_BUDGET, fixedInput } from '../test/support/fixedInput.ts';
import { startFakeApi } from '../test/support/fake-api/index.ts';
import { ROOT } from '../e2e/support/browser.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { pageTasks } from '../e2e/support/pageTasks.ts';
import { runPageTask, type TaskRun } from '../e2e/support/runPageTask.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'page_tasks';
export const rounds = 1;

/** The fixture sites are loopback servers: allowed as the e2e suite allows them (e2e/support/agent.ts). */
const LOCAL_HOSTS = 'approvals:\n  local_hosts: [127.0.0.1, localhost]\n';

async function runTasks(): Promise<{ task: string; budget: number; run: TaskRun }[]> {
  const pagesDir = path.join(ROOT, 'e2e/fixtures/pages');
  if (!existsSync(path.join(pagesDir, 'apps/reach.html')))
    await (await import('../e2e/fixtures/globalSetup.ts')).default();
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const pages = await startStaticServer(pagesDir);
  const ext = await openExtension(name, api.url);
  try {
    await ext.ask({ type: 'config.save', yaml: `agent:\n  base_url: ${api.url}\n  model: gpt-bench\n${LOCAL_HOSTS}` });
    const request = async (body: Record<string, unknown>) => {
      const r = await ext.ask(body);
      if (!r.ok) throw new Error(`page_tasks bench: ${String(body.type)} failed: ${r.error}`);
      return r.data;
    };
    const tabId = (url: string) =>
      ext.panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)!.id!, url);
    const out = [];
    for (const task of pageTasks()) {
      const run = await runPageTask(task, { context: ext.context, request, api, pages, tabId });
      if (run.unfinished) process.stderr.write(`page_tasks: ${task.name} unfinished: ${run.unfinished}\n`);
      out.push({ task: task.name, budget: task.budget, run });
    }
    return out;
  } finally {
    await ext.close();
    await pages.close();
    await api.close();
  }
}

export async function run(): Promise<BenchMetric[]> {
  const registry = buildRegistry(DEFAULT_CONFIG);
  const tools = fixedInput(registry, 'tools');
  const code = fixedInput(registry, 'code');
  const runs = await runTasks();
  const sent = runs.flatMap((r) => r.run.fixedInput);
  return [
    ...runs.flatMap(({ task, budget, run: r }) => [
      { name: `${task}_requests`, value: r.requests, unit: 'requests', budget },
      { name: `${task}_finished`, value: r.unfinished ? 0 : 1, unit: 'yes=1' },
    ]),
    {
      name: 'total_requests',
      value: runs.reduce((n, r) => n + r.run.requests, 0),
      unit: 'requests',
      budget: runs.reduce((n, r) => n + r.budget, 0),
    },
    { name: 'tasks_unfinished', value: runs.filter((r) => r.run.unfinished).length, unit: 'tasks', budget: 0 },
    {
      name: 'discovery_calls',
      value: runs.flatMap((r) => r.run.called).filter((c) => c === 'ot__help').length,
      unit: 'calls',
      budget: 0,
    },
    { name: 'tools_fixed_input_chars', value: tools.total, unit: 'chars', budget: FIXED_INPUT_BUDGET },
    { name: 'code_fixed_input_chars', value: code.total, unit: 'chars', budget: FIXED_INPUT_BUDGET },
    { name: 'sent_fixed_input_chars_max', value: Math.max(...sent), unit: 'chars', budget: FIXED_INPUT_BUDGET },
  ];
}
