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

function otto(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], { cwd: ROOT });
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
