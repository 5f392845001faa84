/**
 * #17 batch and headless: `npm run otto -- run '$snippet' --each rows.csv --concurrency 4` replays a snippet over 20
 * rows against the fixture shop (one row's page is broken: it fails with its own error and the exit code is 1), and
 * `--browser` drives a second, already running Chromium over the DevTools protocol on loopback.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './support/fixtures.ts';
import { DIST, ROOT, chromiumPath, extensionArgs } from './support/browser.ts';
import { shopSnippetYaml, shopUrl } from './support/shopOrder.ts';
import { E2E_LOCAL_HOSTS } from './support/agent.ts';

function otto(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'otto-cli-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('--each over 20 rows with --concurrency 4: each row one line, a broken page fails alone, exit 1', async ({
  pages,
}) => {
  test.setTimeout(240_000);
  const url = shopUrl(pages.origin);
  await writeFile(path.join(dir, 'config.yaml'), shopSnippetYaml(url));
  const rows = ['full_name,quantity,url,password'];
  for (let i = 1; i <= 20; i++) rows.push(`"Customer ${i}",${i + 10},${i === 7 ? `${url}?broken=1` : url},hunter2`);
  await writeFile(path.join(dir, 'rows.csv'), rows.join('\n') + '\n');
  const r = await otto([
    'run',
    '$shop',
    '--each',
    path.join(dir, 'rows.csv'),
    '--concurrency',
    '4',
    '--config',
    path.join(dir, 'config.yaml'),
  ]);
  const lines = r.stdout.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(20);
  for (let i = 1; i <= 20; i++) {
    const line = lines.find((l) => l.includes(` row ${i}: `)) ?? '';
    if (i === 7)
      expect(line).toMatch(
        /^FAIL row 7: snippet 'shop', line 2, column 1: dom\.type failed: No element matches label="Email" on this page/,
      );
    else
      expect(line).toMatch(
        new RegExp(
          `^ok   row ${i}: .*Order for ${i + 10} × Widget placed by Customer ${i}\\. Confirmation number: ORD-\\d{7}`,
        ),
      );
  }
  expect(r.stderr).toContain('19 of 20 rows ok, 1 failed');
  expect(r.code).toBe(1);
});

test('--browser runs the rows in a Chromium that already runs, over CDP on loopback', async ({ pages }) => {
  test.setTimeout(120_000);
  const url = shopUrl(pages.origin);
  const profile = await mkdtemp(path.join(os.tmpdir(), 'otto-remote-'));
  const remote: ChildProcess = spawn(chromiumPath(), [
    '--headless=new',
    `--user-data-dir=${profile}`,
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    ...extensionArgs(DIST),
    'about:blank',
  ]);
  try {
    // Chromium writes the port it chose (and the browser's ws path) into DevToolsActivePort.
    let active = '';
    for (let i = 0; i < 100 && !active.includes('\n'); i++) {
      active = await readFile(path.join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '');
      if (!active.includes('\n')) await new Promise((r) => setTimeout(r, 100));
    }
    const [port, wsPath] = active.trim().split('\n');
    const ws = `ws://127.0.0.1:${port}${wsPath}`;
    await writeFile(path.join(dir, 'remote.yaml'), shopSnippetYaml(url));
    await writeFile(path.join(dir, 'two.csv'), 'full_name,password\nRemote One,hunter2\nRemote Two,hunter2\n');
    const r = await otto([
      'run',
      '$shop',
      '--browser',
      ws,
      '--each',
      path.join(dir, 'two.csv'),
      '--config',
      path.join(dir, 'remote.yaml'),
    ]);
    expect(r.stdout).toMatch(/^ok {3}row 1: .*placed by Remote One\. Confirmation number: ORD-\d{7}/m);
    expect(r.stdout).toMatch(/^ok {3}row 2: .*placed by Remote Two\. Confirmation number: ORD-\d{7}/m);
    expect(r.code, r.stderr).toBe(0);
    // The remote browser is still running: the CLI only disconnects.
    expect(remote.exitCode).toBe(null);
  } finally {
    remote.kill();
    await new Promise((r) => remote.once('exit', r));
    await rm(profile, { recursive: true, force: true });
  }
});

test('a task that meets a call outside its scope stops with a line saying the task did not ask for it (#42)', async ({
  pages,
  fakeApi,
}) => {
  test.setTimeout(120_000);
  fakeApi.reset();
  fakeApi.script([
    {
      match: 'Summarise my inbox',
      calls: [{ name: 'tabs__navigate', arguments: { url: `${pages.origin}/apps/webmail.html` } }],
    },
    { calls: [{ name: 'dom__click', arguments: { selector: '#nav-compose' } }] },
    { calls: [{ name: 'dom__click', arguments: { selector: '#send' } }] },
    { text: 'Done.' },
  ]);
  await writeFile(
    path.join(dir, 'task.yaml'),
    `agent:\n  base_url: ${fakeApi.url}\n  model: gpt-test\n  max_retries: 0\n${E2E_LOCAL_HOSTS}`,
  );
  const r = await otto(['run', 'Summarise my inbox.', '--config', path.join(dir, 'task.yaml')], {
    OPENAI_API_KEY: 'sk-e2e-test-key-000000',
  });
  const host = new URL(pages.origin).hostname;
  expect(r.stdout.trim(), r.stderr).toBe(
    `FAIL result: stopped, nothing was done: the task asked to summarise your inbox. Otto wants to send or post on ${host} (“Send”) — your request did not ask for this; a page Otto read may have asked for it. To let the task do this, run it again with words that ask for it (e.g. “… and send it”), or run it in the panel and choose Allow for this task.`,
  );
  expect(r.stdout).not.toContain('allow the site');
  expect(r.code).toBe(1);
});

test('a task whose answer links to a collector with the bank’s data: the link is left out and a warning names the flow (#42)', async ({
  pages,
  fakeApi,
}) => {
  test.setTimeout(120_000);
  const bankUrl = `${pages.origin}/bank.html`;
  const leak = 'https://collector.test/verify?d=BANKSECRET-7731';
  fakeApi.reset();
  fakeApi.script([
    { match: 'Check my balance', calls: [{ name: 'web__fetch', arguments: { url: bankUrl } }] },
    { text: `Balance checked. [Verify your booking](${leak})` },
  ]);
  await writeFile(
    path.join(dir, 'links.yaml'),
    `agent:\n  base_url: ${fakeApi.url}\n  model: gpt-test\n  max_retries: 0\n${E2E_LOCAL_HOSTS}`,
  );
  const r = await otto(['run', `Check my balance at ${bankUrl}`, '--config', path.join(dir, 'links.yaml')], {
    OPENAI_API_KEY: 'sk-e2e-test-key-000000',
  });
  const bankHost = new URL(pages.origin).host;
  expect(r.stdout.trim(), r.stderr).toBe(
    'ok   result: Balance checked. [Verify your booking]([link to collector.test left out: it carries data])',
  );
  expect(r.stderr).toContain(
    `result: warning: the answer's link to collector.test carries data read from ${bankHost} (BANKSECRET-7731); it was left out of the answer: https[:]//collector.test/verify?d=BANKSECRET-7731`,
  );
  expect(r.code).toBe(0);
});

test('#46 schedule add, list and run: a snippet schedule added to a settings file runs now, headless', async ({
  pages,
}) => {
  test.setTimeout(120_000);
  const file = path.join(dir, 'schedules.yaml');
  await writeFile(file, `# kept\n${shopSnippetYaml(shopUrl(pages.origin))}`);
  const add = await otto([
    'schedule',
    'add',
    'shop-weekly',
    '--when',
    'every monday 09:00',
    '--snippet',
    '$shop password=hunter2 quantity=3',
    '--config',
    file,
  ]);
  expect([add.code, add.stdout, add.stderr]).toEqual([0, `Added schedule 'shop-weekly' to ${file}.\n`, '']);
  expect(await readFile(file, 'utf8')).toMatch(/^# kept\n/);
  const bad = await otto(['schedule', 'add', 'x', '--when', 'every 3 days', '--task', 't', '--config', file]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/^otto: .*every 3 days/);
  const list = await otto(['schedule', 'list', '--config', file]);
  expect(list.stdout).toMatch(
    /^shop-weekly {2}every monday 09:00 \(next .+\) {2}\$shop password="hunter2" quantity="3"\n$/,
  );
  const run = await otto(['schedule', 'run', 'shop-weekly', '--config', file]);
  expect(run.stdout, run.stderr).toMatch(/^ok {3}result: .*Order for 3 × Widget placed by Ada Lovelace/);
  expect(run.code).toBe(0);
});
