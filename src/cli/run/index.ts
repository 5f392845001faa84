/**
 * `npm run otto -- run '$name k=v' [--each rows.csv] [--concurrency N] [--browser ws://…]` (#17): runs a snippet (no
 * model, no key) or a plain task (through the configured model) headless in Chromium with Otto loaded — once, or
 * once per CSV row (the header names the parameters; each row's values are passed as `k="v"`). Each row runs in a
 * tab of its own (its own window, so it is never a throttled background tab); `--concurrency N` runs N at once.
 * Prints one line per row as it finishes (a progress bar on a terminal) and exits 1 when any row failed.
 *
 * `--browser ws://host:port/devtools/browser/…` (or http://host:port) connects over the DevTools protocol
 * (Playwright's connectOverCDP) to a browser running elsewhere that was started with Otto loaded; otherwise a
 * headless Chromium starts here with dist/.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parseCsv } from './csv.ts';
import { approvalStopLine } from './approvalStop.ts';
import { withheldLinks } from './linkWarnings.ts';
import { findBrowser, INSTALL_HINT } from '../../../scripts/lib/find-browser.mjs';
import { errorMessage } from '../../shared/errorMessage.ts';
import { oneLine } from '../../shared/oneLine.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

const HELP = `usage: npm run otto -- run '<$snippet k=v | task>' [options]

  --each FILE.csv     one run per row; the header names the parameters (k=v per column)
  --concurrency N     rows at once, each in its own tab (default 1)
  --browser URL       connect to a running browser over CDP (ws://… or http://host:port) instead of starting one;
                      Otto must be loaded there (start it with --load-extension=<dist>)
  --config FILE.yaml  Otto settings to use (the YAML from Settings, with your snippets)
  --profile DIR       browser profile to start with (default: a fresh temporary one)
  --extension-id ID   Otto's extension id, when it cannot be found (remote browsers)
  --timeout S         per row, seconds (default 120)
  --dist DIR          the built extension (default dist/)

A snippet row needs no model and no key. A task row uses the model of the settings; OPENAI_API_KEY from the
environment is stored as the key.`;

export interface RunOptions {
  task: string;
  each?: string;
  concurrency: number;
  browser?: string;
  config?: string;
  profile?: string;
  extensionId?: string;
  timeoutS: number;
  dist: string;
}

export function parseArgs(argv: string[]): RunOptions | 'help' {
  const o: Partial<RunOptions> & { concurrency: number; timeoutS: number; dist: string } = {
    concurrency: 1,
    timeoutS: 120,
    dist: path.join(ROOT, 'dist'),
  };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--help' || a === '-h') return 'help';
    else if (a === '--each') o.each = value();
    else if (a === '--concurrency') {
      o.concurrency = Number(value());
      if (!Number.isInteger(o.concurrency) || o.concurrency < 1 || o.concurrency > 32)
        throw new Error('--concurrency takes a whole number from 1 to 32');
    } else if (a === '--browser') o.browser = value();
    else if (a === '--config') o.config = value();
    else if (a === '--profile') o.profile = value();
    else if (a === '--extension-id') o.extensionId = value();
    else if (a === '--timeout') o.timeoutS = Number(value());
    else if (a === '--dist') o.dist = path.resolve(value());
    else if (a.startsWith('--')) throw new Error(`unknown option ${a} (see --help)`);
    else positional.push(a);
  }
  if (positional.length !== 1) throw new Error(`give one snippet or task to run, quoted: '$name k=v' (see --help)`);
  return { ...o, task: positional[0]! } as RunOptions;
}

/** `$name` plus the row's values as `k="v"` (double-quoted values decode escapes like a string literal). */
export function rowInvocation(task: string, row: Record<string, string>): string {
  const extra = Object.entries(row).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return [task.trim(), ...extra].join(' ');
}

/** One line for a row's result: page-text boundaries dropped, whitespace collapsed, cut to 160 characters. */
export function resultLine(text: string): string {
  return oneLine(text.replace(/<\/?external-content-[0-9a-f]+>/g, ' '), 160);
}

interface Session {
  context: BrowserContext;
  panel: Page;
  close(): Promise<void>;
}

type Reply = { ok: true; output: string } | { ok: false; error: { message: string } };

function request<T>(panel: Page, body: Record<string, unknown>): Promise<T> {
  return panel.evaluate(
    (b) => (globalThis as unknown as { ottoPanel: { request(x: unknown): Promise<unknown> } }).ottoPanel.request(b),
    body,
  ) as Promise<T>;
}

/** Otto's id in a browser reached over CDP: its service worker's target (or --extension-id). */
async function extensionIdOverCdp(browser: Browser): Promise<string | undefined> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
  await cdp.detach();
  const worker = targetInfos.find(
    (t) => t.type === 'service_worker' && /^chrome-extension:\/\/[a-p]{32}\/service-worker/.test(t.url),
  );
  return worker ? new URL(worker.url).host : undefined;
}

async function open(o: RunOptions): Promise<Session> {
  let context: BrowserContext;
  let id: string | undefined = o.extensionId;
  let cleanup: () => Promise<void>;
  if (o.browser) {
    const browser = await chromium.connectOverCDP(o.browser);
    context = browser.contexts()[0] ?? (await browser.newContext());
    id ??= await extensionIdOverCdp(browser);
    if (!id)
      throw new Error(
        `Otto is not loaded in the browser at ${o.browser} (no Otto service worker found); start it with --load-extension=<Otto's dist>, or pass --extension-id.`,
      );
    // Connected, not owned: Browser.close() on a connected browser only disconnects (the tabs this run opened are
    // closed row by row), and the remote browser keeps running.
    cleanup = async () => browser.close();
  } else {
    const exe = findBrowser();
    if (!exe) throw new Error(INSTALL_HINT);
    if (!existsSync(path.join(o.dist, 'manifest.json')))
      throw new Error(`${o.dist} has no built extension: run \`npm run build\` first.`);
    const temp = o.profile ? undefined : await mkdtemp(path.join(os.tmpdir(), 'otto-run-'));
    context = await chromium.launchPersistentContext(o.profile ?? temp!, {
      executablePath: exe,
      headless: true,
      args: [
        `--disable-extensions-except=${o.dist}`,
        `--load-extension=${o.dist}`,
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      ],
    });
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    id ??= new URL(sw.url()).host;
    cleanup = async () => {
      await context.close();
      if (temp) await rm(temp, { recursive: true, force: true });
    };
  }
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${id}/src/sidepanel/index.html`);
  await panel.locator('[data-testid="worker-status"][data-state="ready"]').waitFor({ timeout: 20_000 });
  return {
    context,
    panel,
    close: async () => {
      await panel.close().catch(() => undefined);
      await cleanup();
    },
  };
}

/** One row's result line, and warning lines printed after it (on stderr). */
interface RowResult {
  ok: boolean;
  line: string;
  warnings?: string[];
}

async function runRow(s: Session, text: string, timeoutMs: number): Promise<RowResult> {
  // A window of its own: its tab is active, so the page is never throttled as a background tab.
  // Its first about:blank load ends before the row starts: a navigation racing it may never report 'complete'.
  const tabId = await s.panel.evaluate(async () => {
    const w = await chrome.windows.create({ url: 'about:blank', focused: false });
    const id = w!.tabs![0]!.id!;
    for (let i = 0; i < 100 && (await chrome.tabs.get(id)).status !== 'complete'; i++)
      await new Promise((r) => setTimeout(r, 50));
    return id;
  });
  let timeout: ReturnType<typeof setTimeout> | undefined;
  const timer = new Promise<never>((_, reject) => {
    timeout = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    const { kind } = await request<{ kind: 'command' | 'chat' }>(s.panel, { type: 'command.classify', text });
    if (kind === 'command') {
      const r = await Promise.race([
        request<Reply>(s.panel, { type: 'command.run', text, tabId, runId: `cli-${tabId}` }),
        timer,
      ]);
      return r.ok ? { ok: true, line: resultLine(r.output) } : { ok: false, line: resultLine(r.error.message) };
    }
    return await Promise.race([runTask(s, text, tabId), timer]);
  } catch (e) {
    return { ok: false, line: resultLine(errorMessage(e)) };
  } finally {
    clearTimeout(timeout);
    await s.panel.evaluate((t) => chrome.tabs.remove(t).catch(() => undefined), tabId).catch(() => undefined);
  }
}

/** A plain task: a conversation through the model, polled until its run ends; the answer's text is the result. */
async function runTask(s: Session, text: string, tabId: number): Promise<RowResult> {
  const { conversationId } = await request<{ conversationId: string }>(s.panel, { type: 'chat.send', text, tabId });
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const c = await request<{
      items: { item: { type: string; role?: string; content?: unknown }; links?: unknown }[];
      state?: { status: string; lastError?: { message: string }; approval?: unknown };
      active: boolean;
    }>(s.panel, { type: 'conversations.get', conversationId });
    const status = c.state?.status;
    if (c.active || status === 'running') continue;
    if (status === 'awaiting_approval') return { ok: false, line: oneLine(approvalStopLine(c.state?.approval), 600) };
    const record = c.items.filter((r) => r.item.type === 'message' && r.item.role === 'assistant').at(-1);
    const answer = record?.item;
    const said = Array.isArray(answer?.content)
      ? (answer.content as { text?: string }[]).map((p) => p.text ?? '').join(' ')
      : String(answer?.content ?? '');
    // #42: a link carrying data read from another site is left out, and a warning line names the flow.
    const { text: shown, warnings } = withheldLinks(said, record?.links);
    if (status === 'completed') return { ok: true, line: resultLine(shown), warnings };
    return { ok: false, line: resultLine(c.state?.lastError?.message ?? `ended: ${status}`) };
  }
}

function bar(done: number, total: number, failed: number): string {
  const width = 24;
  const filled = Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${failed ? ` (${failed} failed)` : ''}`;
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  if (o === 'help') {
    console.log(HELP);
    return 0;
  }
  const rows = o.each ? parseCsv(await readFile(o.each, 'utf8')) : [{}];
  if (!rows.length) throw new Error(`${o.each} has no rows under its header`);
  const session = await open(o);
  const tty = process.stderr.isTTY;
  let done = 0;
  let failed = 0;
  try {
    if (o.config) await request(session.panel, { type: 'config.save', yaml: await readFile(o.config, 'utf8') });
    if (process.env.OPENAI_API_KEY)
      await request(session.panel, { type: 'secrets.update', set: { OPENAI_API_KEY: process.env.OPENAI_API_KEY } });
    const started = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < rows.length) {
        const i = next++;
        const r = await runRow(session, rowInvocation(o.task, rows[i]!), o.timeoutS * 1000);
        done++;
        if (!r.ok) failed++;
        if (tty) process.stderr.write('\r\x1b[2K');
        const label = rows.length > 1 ? `row ${i + 1}` : 'result';
        console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${label}: ${r.line}`);
        for (const w of r.warnings ?? []) console.error(`${label}: ${w}`);
        if (tty) process.stderr.write(bar(done, rows.length, failed));
      }
    };
    await Promise.all(Array.from({ length: Math.min(o.concurrency, rows.length) }, worker));
    if (tty) process.stderr.write('\r\x1b[2K');
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    console.error(
      `${rows.length - failed} of ${rows.length} row${rows.length === 1 ? '' : 's'} ok, ${failed} failed (${secs} s)`,
    );
  } finally {
    await session.close();
  }
  return failed ? 1 : 0;
}
