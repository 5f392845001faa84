/**
 * What opening and closing a tab costs an idle Otto whose worker Chrome has stopped (#26, docs/decisions.md "Idle
 * worker: tab events"): per operation, the worker starts the DevTools protocol reports and the CPU time of the
 * extension's processes (its service worker), read from /proc. Each operation starts from a stopped worker.
 *
 *   npm run build && npx tsx scripts/idle-tab-cpu.ts [distDir] [rounds] [--group] [--popup]
 *
 * `--group` first puts the probe's own tab into an Otto group (as a run does with the tab the user asked from), whose
 * popups the worker must still judge between runs. `--popup` adds a third operation: a page outside any Otto group
 * opens a tab (`window.open`), the one kind of new tab a worker listening between runs is still started for.
 *
 * CPU time, not wall time: the machine is shared, and CPU time does not count waiting for a core.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, chromiumPath, extensionArgs } from '../e2e/support/browser.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dist = path.resolve(args[0] ?? DIST);
const rounds = Number(args[1] ?? 5);
const withGroup = process.argv.includes('--group');
const withPopup = process.argv.includes('--popup');
/** Kernel clock ticks are 10 ms (USER_HZ 100). */
const MS_PER_TICK = 10;

/** pid → CPU ms (utime + stime) of every extension process under the browser whose profile is `profile`. */
function extensionCpu(profile: string): Map<number, number> {
  const procs = readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
        const cmd = readFileSync(`/proc/${n}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return { pid: Number(n), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) * MS_PER_TICK, cmd };
      } catch {
        return undefined; // exited meanwhile
      }
    })
    .filter((p) => !!p);
  const root = procs.find((p) => p.cmd.includes(profile) && !p.cmd.includes('--type='));
  const out = new Map<number, number>();
  const stack = procs.filter((p) => p.pid === root?.pid);
  while (stack.length) {
    const p = stack.pop()!;
    if (p.cmd.includes('--extension-process')) out.set(p.pid, p.cpu);
    stack.push(...procs.filter((c) => c.ppid === p.pid));
  }
  return out;
}

/** CPU the extension's processes spent since `before` (a process that started meanwhile counts from zero). */
function spentSince(profile: string, before: Map<number, number>): number {
  let ms = 0;
  for (const [pid, cpu] of extensionCpu(profile)) ms += cpu - (before.get(pid) ?? 0);
  return ms;
}

async function watchStarts(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  let starts = 0;
  let running = true;
  let stopped: (() => void) | undefined;
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { runningStatus: string; scriptURL: string }[] }) => {
    for (const v of e.versions) {
      if (!v.scriptURL.startsWith('chrome-extension://')) continue;
      const now = v.runningStatus === 'starting' || v.runningStatus === 'running';
      if (now && !running) starts++;
      if (v.runningStatus === 'stopped') stopped?.();
      running = now;
    }
  });
  await cdp.send('ServiceWorker.enable');
  return {
    starts: () => starts,
    stop: async () => {
      const done = new Promise<void>((r) => (stopped = r));
      await cdp.send('ServiceWorker.stopAllWorkers');
      await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main(): Promise<void> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'otto-idletabs-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: extensionArgs(dist),
  });
  try {
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await sw.evaluate(() => 0);
    const page = await context.newPage();
    await page.goto('about:blank');
    await page.waitForTimeout(3000); // the fresh worker's start-up and its listeners' settle
    if (withGroup) {
      await sw.evaluate(async () => {
        const tab = (await chrome.tabs.query({})).find((t) => t.url === 'about:blank')!;
        const o = (globalThis as unknown as { otto: { tabScope: { join(c: string, id: number): Promise<unknown> } } })
          .otto;
        await o.tabScope.join('idle-probe', tab.id!);
      });
      await page.waitForTimeout(1000);
    }
    const other = withPopup ? await context.newPage() : undefined; // not in any group
    const watch = await watchStarts(context, page);
    const ops = withPopup ? (['open', 'close', 'popup'] as const) : (['open', 'close'] as const);
    const cost: Record<'open' | 'close' | 'popup', { cpu: number[]; starts: number[] }> = {
      open: { cpu: [], starts: [] },
      close: { cpu: [], starts: [] },
      popup: { cpu: [], starts: [] },
    };
    let tab: Page | undefined;
    for (let i = 0; i < rounds; i++) {
      for (const op of ops) {
        await watch.stop();
        await page.waitForTimeout(1000);
        const before = extensionCpu(profile);
        const s0 = watch.starts();
        if (op === 'open') tab = await context.newPage();
        else if (op === 'close') await tab!.close();
        else {
          const seen = context.waitForEvent('page');
          await other!.evaluate(() => void window.open('about:blank', '_blank'));
          tab = await seen;
        }
        await page.waitForTimeout(3000); // a start and its work are done well within this
        cost[op].cpu.push(spentSince(profile, before));
        cost[op].starts.push(watch.starts() - s0);
        if (op === 'popup') await tab!.close(); // closing starts nothing (measured as "close")
      }
    }
    for (const op of ops)
      console.log(
        `${op}: worker starts ${cost[op].starts.join(',')}; extension CPU ms ${cost[op].cpu.join(',')} (median ${median(cost[op].cpu)})`,
      );
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

await main();
