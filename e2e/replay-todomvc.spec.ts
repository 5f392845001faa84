/**
 * #44 "Replay that holds on any app": a run the scripted model made on the React TodoMVC (add two todos, complete
 * the first) is saved from the panel; each saved locator is checked against Playwright's own locator on the recorded
 * page; the snippet then replays with no model request, with new values, on the Vue, Lit and jQuery builds (same
 * visible texts, different DOM), on the tab where the user is. A redesigned page (the field's placeholder renamed)
 * stops at that step; `otto run --each` over rows that mix the apps reports each row and exits 1 for that one alone.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { ROOT } from './support/browser.ts';
import { connectToFakeApi, send, waitForStatus } from './support/agent.ts';
import { refIn } from './page-tools.helpers.ts';
import { call, reading } from './support/modelTurns.ts';
import { tabIdFor } from './support/tabs.ts';

const FIELD = 'What needs to be done?';
const BODY = [
  'tabs.navigate(url="{{ url }}")',
  `dom.type(placeholder="${FIELD}", text="{{ what_needs_to_be_done }}", submit=True)`,
  `dom.type(placeholder="${FIELD}", text="{{ what_needs_to_be_done_2 }}", submit=True)`,
  'dom.check(item="{{ what_needs_to_be_done }}", role="checkbox", checked=True)',
];

async function runCommand(panel: Page, text: string) {
  const before = await panel.getByTestId('command-card').count();
  await panel.getByTestId('chat-input').fill(text);
  await panel.getByTestId('chat-input').press('Enter');
  const card = panel.getByTestId('command-card').nth(before);
  await expect(card).not.toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  return card;
}

/** Playwright's own locator for a saved one (`item` = the list item or row whose text holds it). */
function playwrightLocator(page: Page, saved: Record<string, string>): Locator {
  let scope: Page | Locator = page;
  if (saved.item) scope = page.getByRole('listitem').or(page.getByRole('row')).filter({ hasText: saved.item });
  if (saved.role) return scope.getByRole(saved.role as 'checkbox', saved.name ? { name: saved.name } : {});
  if (saved.label) return scope.getByLabel(saved.label);
  if (saved.placeholder) return scope.getByPlaceholder(saved.placeholder);
  if (saved.text) return scope.getByText(saved.text);
  if (saved.testid) return scope.getByTestId(saved.testid);
  throw new Error(`no readable locator in ${JSON.stringify(saved)}`);
}

/** The items of a TodoMVC page (any build): title and whether it is completed. */
async function items(page: Page): Promise<{ title: string; done: boolean }[]> {
  const li = page.getByRole('listitem');
  const out: { title: string; done: boolean }[] = [];
  for (let i = 0; i < (await li.count()); i++)
    out.push({
      title: (await li.nth(i).innerText()).trim(),
      done: await li.nth(i).getByRole('checkbox').isChecked(),
    });
  return out;
}

test('recorded on React TodoMVC, replayed with 0 model requests on the Vue, Lit and jQuery builds where the user is', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  test.setTimeout(180_000);
  fakeApi.reset();
  await connectToFakeApi(panel, fakeApi, { yaml: 'approvals:\n  policy: auto\n' });
  const app = (name: string) => `${pages.origin}/apps/todomvc-${name}.html`;
  const page = await context.newPage();
  await page.goto(app('react'));
  const tabId = await tabIdFor(panel, app('react'));

  const stamp = `todos-${Date.now()}`;
  fakeApi.script([
    { match: stamp, calls: [call('dom__snapshot')] },
    reading(/Page snapshot/, (m) => [
      call('dom__type', { ref: refIn(m, 'textbox "New Todo Input"'), text: 'Buy milk', submit: true }),
      call('dom__type', { ref: refIn(m, 'textbox "New Todo Input"'), text: 'Call mom', submit: true }),
      call('dom__snapshot'),
    ]),
    reading(/Page snapshot/, (m) => [call('dom__check', { ref: refIn(m, /checkbox "Buy milk"/), checked: true })]),
    { match: /^dom__check ok/, text: 'Done: two todos, the first completed.' },
  ]);
  const id = await send(panel, `${stamp}: add the todos "Buy milk" and "Call mom", then complete "Buy milk"`, {
    tabId,
  });
  await waitForStatus(panel, id, 'completed', 60_000);
  expect(await items(page)).toEqual([
    { title: 'Buy milk', done: true },
    { title: 'Call mom', done: false },
  ]);

  // Save that run from the panel: the body, the parameters and what was dropped, and why.
  await panel.getByTestId('open-conversations').click();
  await panel.getByTestId('conversations').getByLabel('Search conversations').fill(stamp);
  await panel.getByTestId('conversations').getByTestId('conversation-item').first().locator('.conv-open').click();
  await panel.getByTestId('save-snippet').click();
  await panel.getByTestId('save-snippet-name').fill('todo_run');
  await panel.getByTestId('save-snippet-confirm').click();
  const saved = panel.getByTestId('command-card').last();
  await expect(saved).toHaveAttribute('data-status', 'ok');
  // A short card shows its whole output; a longer one folds it.
  if (await saved.getByTestId('command-expand').count()) await saved.getByTestId('command-expand').click();
  const savedText = await saved.getByTestId('command-output').innerText();

  expect(savedText).toContain("Saved snippet 'todo_run' (3 steps)");
  expect(savedText).toContain(BODY.map((l) => `  ${l}`).join('\n'));
  expect(savedText).not.toContain('New Todo Input');
  expect(savedText).toContain('Dropped 2 calls:');
  expect(savedText).toMatch(/- dom\.snapshot\(\) — exploratory: it only looked at the page or at Otto/);

  // Each saved locator, built as Playwright's own, names exactly the element the run acted on.
  const field = playwrightLocator(page, { placeholder: FIELD });
  await expect(field).toHaveCount(1);
  expect(await field.evaluate((el) => el === document.getElementById('todo-input'))).toBe(true);
  const box = playwrightLocator(page, { item: 'Buy milk', role: 'checkbox' });
  await expect(box).toHaveCount(1);
  expect(await box.evaluate((el) => el.nextElementSibling?.textContent)).toBe('Buy milk');
  await expect(box).toBeChecked();
  // What the issue saw saved before: Playwright's getByLabel finds the checkbox by neither.
  await expect(page.getByLabel('Buy milk')).toHaveCount(0);

  // Replays on the other builds, with new values, on the tab where the user is: no trip back to React.
  for (const name of ['vue', 'lit', 'jquery']) {
    await page.goto(app(name));
    const requests = fakeApi.requests.length;
    const card = await runCommand(
      panel,
      `$todo_run what_needs_to_be_done="Call dad ${name}" what_needs_to_be_done_2="Pay rent"`,
    );
    await expect(card, name).toHaveAttribute('data-status', 'ok');
    expect(page.url()).toBe(app(name));
    await expect
      .poll(() => items(page), { message: name })
      .toEqual([
        { title: `Call dad ${name}`, done: true },
        { title: 'Pay rent', done: false },
      ]);
    expect(fakeApi.requests.length - requests).toBe(0);
  }

  // A redesign renamed the field's placeholder: the replay stops at that step, with the error, and no model call.
  await page.goto(`${app('jquery')}?renamed=1`);
  const before = fakeApi.requests.length;
  const failed = await runCommand(panel, '$todo_run');
  await expect(failed).toHaveAttribute('data-status', 'error');
  await expect(failed.getByTestId('command-error')).toContainText(
    `snippet 'todo_run', line 2, column 1: dom.type failed: No element matches placeholder="${FIELD}" on this page.`,
  );
  await expect(failed.getByTestId('replay-continue')).toBeVisible();
  expect(page.url()).toBe(`${app('jquery')}?renamed=1`);
  expect(fakeApi.requests.length).toBe(before);
  await page.close();
});

test('otto run --each over rows that mix the apps: one line per row, exit 1 only for the redesigned page', async ({
  pages,
}) => {
  test.setTimeout(240_000);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'otto-todos-'));
  try {
    const app = (name: string) => `${pages.origin}/apps/todomvc-${name}.html`;
    const yaml = [
      'snippets:',
      '  todo_run:',
      '    params:',
      '      url: {optional: true}',
      '      what_needs_to_be_done: {default: "Buy milk"}',
      '      what_needs_to_be_done_2: {default: "Call mom"}',
      '    body: |',
      ...BODY.map((l) => `      ${l}`),
      '      dom.text()',
      '',
    ].join('\n');
    await writeFile(path.join(dir, 'config.yaml'), yaml);
    const rows = [
      ['vue', 'Water plants'],
      ['lit', 'Book flights'],
      ['jquery', 'Fix bike'],
      ['jquery?renamed=1', 'Never added'],
      ['react', 'Call dad'],
    ];
    await writeFile(
      path.join(dir, 'rows.csv'),
      ['url,what_needs_to_be_done', ...rows.map(([a, t]) => `${app(a!)},${t}`)].join('\n') + '\n',
    );
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const p = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/index.ts',
          'run',
          '$todo_run',
          '--each',
          path.join(dir, 'rows.csv'),
          '--concurrency',
          '2',
          '--config',
          path.join(dir, 'config.yaml'),
        ],
        { cwd: ROOT },
      );
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      p.on('error', reject);
      p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    const lines = r.stdout.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(5);
    rows.forEach(([, title], i) => {
      const line = lines.find((l) => l.includes(` row ${i + 1}: `)) ?? '';
      if (i === 3)
        expect(line).toMatch(
          /^FAIL row 4: snippet 'todo_run', line 2, column 1: dom\.type failed: No element matches placeholder="What needs to be done\?" on this page/,
        );
      else expect(line).toMatch(new RegExp(`^ok {3}row ${i + 1}: .*${title}`));
    });
    expect(r.stderr).toContain('4 of 5 rows ok, 1 failed');
    expect(r.code).toBe(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
