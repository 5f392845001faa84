/**
 * The MCP bridge (#29): what a tool call costs through the bridge — MCP client → stdio → `otto mcp` → the relay's
 * WebSocket → the worker's bridge runner (the panel loop's path) → the tool → back — against the same call in a panel
 * run (the fake Responses API answering at once with the call). Same browser, same tool (`tabs.list`, read-only and
 * cheap, so the figure is the path's own cost), measured in one run; the panel's per call is a run of CALLS calls
 * divided by CALLS (one model turn per call, plus the answer).
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFakeApi, type FakeApi } from '../test/support/fake-api/index.ts';
import type { RecordedRequest } from '../test/support/fake-api/turns.ts';
import { startStaticServer } from '../e2e/support/staticServer.ts';
import { ROOT } from '../e2e/support/browser.ts';
import { openExtension } from './extensionBrowser.ts';
import type { BenchMetric } from './types.ts';

export const name = 'bridge';
export const rounds = 3;
const N = process.env.BENCH_QUICK === '1' ? 10 : 40;
const CALLS = 5;

function script(api: FakeApi, runs: number): void {
  const outputs = (r: RecordedRequest) =>
    Array.isArray(r.body?.input) ? r.body.input.filter((i) => i.type === 'function_call_output').length : 0;
  api.script([
    ...Array.from({ length: CALLS }, (_, k) => ({
      match: (r: RecordedRequest) => outputs(r) % (CALLS + 1) === k,
      calls: [{ name: 'tabs__list', arguments: {} }],
      times: runs,
    })),
    { match: (r: RecordedRequest) => outputs(r) % (CALLS + 1) === CALLS, text: 'Listed.', times: runs },
  ]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function run(): Promise<BenchMetric[]> {
  const api = await startFakeApi({ validate: false, replayChecks: false });
  const pages = await startStaticServer(path.join(ROOT, 'e2e/fixtures/pages'));
  const browser = await openExtension(name, api.url).catch(async (err: unknown) => {
    await api.close();
    await pages.close();
    throw err;
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli/index.ts', 'mcp', '--no-open'],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'Bench Agent', version: '1.0' });
  try {
    const { sw, context, ask } = browser;
    const page = await context.newPage();
    await page.goto(`${pages.origin}/blog.html`);

    // Connect: the first call waits for Allow on the connect page.
    await client.connect(transport);
    const first = client.callTool({ name: 'tabs__list', arguments: {} }, undefined, { timeout: 120_000 });
    const deadline = Date.now() + 60_000;
    while (!/^Connect: (\S+)$/m.test(err)) {
      if (Date.now() > deadline) throw new Error(`no Connect: line from otto mcp; stderr: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const connect = await context.newPage();
    await connect.goto(/^Connect: (\S+)$/m.exec(err)![1]!);
    await connect.getByTestId('connect-allow').click();
    await first;
    await connect.close();

    const bridgeCall = async () => {
      const t = performance.now();
      const r = (await client.callTool({ name: 'tabs__list', arguments: {} })) as { isError?: boolean };
      if (r.isError) throw new Error(`bridge call failed: ${JSON.stringify(r)}`);
      return performance.now() - t;
    };
    const panelRun = async () => {
      const created = await ask({ type: 'conversations.create' });
      if (!created.ok || !created.data?.id) throw new Error(`conversations.create failed: ${created.error}`);
      return sw.evaluate(async (id) => {
        const runner = (
          globalThis as unknown as { otto: { runner: { send(c: string, t: string): Promise<{ status: string }> } } }
        ).otto.runner;
        const t = performance.now();
        const state = await runner.send(id, 'list the tabs');
        if (state.status !== 'completed') throw new Error(`panel run ended ${state.status}`);
        return performance.now() - t;
      }, created.data.id);
    };

    script(api, 2 + Math.ceil(N / CALLS) + 2);
    // Warm both.
    for (let i = 0; i < 5; i++) await bridgeCall();
    await panelRun();
    const bridge: number[] = [];
    const panel: number[] = [];
    for (let i = 0; i < N; i++) {
      bridge.push(await bridgeCall());
      if (i % CALLS === 0) panel.push((await panelRun()) / CALLS);
    }
    const b = median(bridge);
    const p = median(panel);
    return [
      { name: 'bridge_ms_per_call', value: b, unit: 'ms' },
      { name: 'panel_run_ms_per_call', value: p, unit: 'ms' },
      { name: 'bridge_extra_ms_per_call', value: b - p, unit: 'ms', budget: 10 },
      { name: 'ratio_bridge_vs_panel', value: b / p, unit: '×' },
    ];
  } finally {
    await client.close().catch(() => undefined);
    await browser.close();
    await api.close();
    await pages.close();
  }
}
