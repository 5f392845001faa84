/**
 * #17 "Teach once, replay free": a run the scripted model made on a fixture shop (log in, fill an order across two
 * pages, read the confirmation number) is saved as a snippet from the panel; the snippet then replays with no model
 * request after a reload and after the shop renamed its classes and reordered its fields; when a label changes the
 * replay stops at that step, "Continue with the model" finishes it, and the repaired steps are saved back.
 */
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { connectToFakeApi, send, waitForStatus } from './support/agent.ts';
import { refIn } from './page-tools.helpers.ts';
import { call, reading } from './support/modelTurns.ts';
import { shopTurns, shopUrl } from './support/shopOrder.ts';
import { tabIdFor } from './support/tabs.ts';

const CONFIRMATION = /Confirmation number: (ORD-\d{7})/;

async function runCommand(panel: Page, text: string) {
  const before = await panel.getByTestId('command-card').count();
  await panel.getByTestId('chat-input').fill(text);
  await panel.getByTestId('chat-input').press('Enter');
  const card = panel.getByTestId('command-card').nth(before);
  await expect(card).not.toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  return card;
}

test('a scripted run saved as a snippet replays with 0 model requests; a changed label is repaired by the model', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  test.setTimeout(120_000);
  fakeApi.reset();
  await connectToFakeApi(panel, fakeApi, { yaml: 'approvals:\n  policy: auto\n' });
  const url = shopUrl(pages.origin);
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(() => localStorage.removeItem('variant'));
  await page.reload();
  const tabId = await tabIdFor(panel, url);

  const stamp = `order-${Date.now()}`;
  fakeApi.script([
    { match: stamp, calls: [call('dom__snapshot')] },
    shopTurns.signIn(),
    // A wrong guess (fails) and a look around (exploratory): both are left out of the snippet.
    { match: /^dom__click ok/, calls: [call('dom__click', { ref: 'e999' }), call('dom__snapshot')] },
    shopTurns.details(),
    {
      match: /^dom__click ok/,
      calls: [call('dom__find', { role: 'combobox', name: 'Product' }), call('dom__snapshot')],
    },
    shopTurns.order(),
    { match: /^dom__click ok/, calls: [call('dom__text')] },
    { match: CONFIRMATION, text: 'Done: the order is placed.' },
  ]);
  const id = await send(
    panel,
    `${stamp}: log in as ada@example.com with password hunter2, order 12 Widget for Ada Lovelace at Acme Ltd, and tell me the confirmation number`,
    { tabId },
  );
  await waitForStatus(panel, id, 'completed', 60_000);
  const number = CONFIRMATION.exec(await page.locator('body').innerText())![1]!;

  // Open that conversation in the panel and save its run.
  await panel.getByTestId('open-conversations').click();
  await panel.getByTestId('conversations').getByLabel('Search conversations').fill(stamp);
  await panel.getByTestId('conversations').getByTestId('conversation-item').first().locator('.conv-open').click();
  await panel.getByTestId('save-snippet').click();
  await panel.getByTestId('save-snippet-name').fill('shop_order');
  await panel.getByTestId('save-snippet-confirm').click();
  const saved = panel.getByTestId('command-card').last();
  await expect(saved).toHaveAttribute('data-status', 'ok');
  await saved.getByTestId('command-expand').click();
  const savedText = await saved.getByTestId('command-output').innerText();
  expect(savedText).toContain("Saved snippet 'shop_order' (10 steps)");
  expect(savedText).toContain('tabs.navigate(url="{{ url }}")');
  expect(savedText).toContain('dom.type(role="textbox", name="Email", text="{{ email }}")');
  expect(savedText).toContain('dom.type(role="textbox", name="Password", text="{{ password }}")');
  expect(savedText).toContain('dom.click(role="button", name="Log in")');
  expect(savedText).toContain('dom.select(role="combobox", name="Product", value="{{ product }}")');
  expect(savedText).toContain('dom.type(role="textbox", name="Quantity", text="{{ quantity }}")');
  expect(savedText.split('Dropped')[0]).not.toMatch(/ref=/);
  expect(savedText).not.toContain('hunter2'); // the password is a parameter without a default
  expect(savedText).toContain('Dropped 5 calls:');
  expect(savedText).toMatch(
    /- dom\.click\(ref="e999"\) — failed: Ref e999: this ref is from an earlier page; take a new snapshot/,
  );
  expect(savedText).toMatch(/- dom\.snapshot\(\) — exploratory/);

  // It is in the config: ot.help finds it.
  const help = await runCommand(panel, 'ot.help(query="$shop_order")');
  await expect(help.getByTestId('command-output')).toContainText('dom.click(role="button", name="Log in")');

  // Replays with no model after a reload, and after classes and field order changed (labels the same).
  for (const variant of [null, 'shuffled']) {
    await page.evaluate((v) => (v ? localStorage.setItem('variant', v) : localStorage.removeItem('variant')), variant);
    await page.reload();
    const requests = fakeApi.requests.length;
    const card = await runCommand(panel, '$shop_order password=hunter2');
    await expect(card).toHaveAttribute('data-status', 'ok');
    expect(CONFIRMATION.exec(await card.getByTestId('command-output').innerText())?.[1]).toBe(number);
    await expect(page.locator('body')).toContainText(`Confirmation number: ${number}`);
    expect(fakeApi.requests.length - requests).toBe(0);
  }
  // A changed label: the replay stops at that step with a clear error.
  await page.evaluate(() => localStorage.setItem('variant', 'relabeled'));
  await page.reload();
  const before = fakeApi.requests.length;
  const failed = await runCommand(panel, '$shop_order password=hunter2');
  await expect(failed).toHaveAttribute('data-status', 'error');
  await expect(failed.getByTestId('command-error')).toContainText(
    `snippet 'shop_order', line 6, column 1: dom.type failed: No element matches role="textbox" name="Company" on this page.`,
  );
  expect(fakeApi.requests.length).toBe(before);

  // "Continue with the model": it gets the snippet, the failed step, the error and the page as it is now.
  fakeApi.script([
    reading(/Replaying the snippet \$shop_order stopped at step 6/, (m) => [
      call('dom__type', { ref: refIn(m, 'textbox "Organisation"'), text: 'Acme Ltd' }),
      call('dom__click', { ref: refIn(m, 'button "Next"') }),
    ]),
    { match: /^dom__click ok/, calls: [call('dom__snapshot')] },
    shopTurns.order(),
    { match: /^dom__click ok/, calls: [call('dom__text')] },
    { match: CONFIRMATION, text: 'Finished the order.' },
  ]);
  await failed.getByTestId('replay-continue').click();
  await expect(panel.getByTestId('message-assistant').last()).toHaveText('Finished the order.', { timeout: 60_000 });
  const handed = fakeApi.responsesRequests().find((r) => r.lastInput.includes('Replaying the snippet'))!.lastInput;
  expect(handed).toContain('  6 ✗ dom.type(role="textbox", name="Company", text="Acme Ltd")');
  expect(handed).toContain('Error: dom.type failed: No element matches role="textbox" name="Company" on this page.');
  expect(handed).toContain('  3   dom.type(role="textbox", name="Password", text="•••")');
  expect(handed).toMatch(/The page now:\nPage snapshot — [\s\S]*textbox "Organisation" \[ref=[a-z]*e\d+\]/);
  expect(handed).not.toContain('hunter2');
  await expect(page.locator('body')).toContainText(`Confirmation number: ${number}`);

  // Save the repaired steps back, then the relabeled shop replays with no model.
  await panel.getByTestId('save-snippet').click();
  await expect(panel.getByTestId('save-snippet-name')).toHaveValue('shop_order');
  await panel.getByTestId('save-snippet-confirm').click();
  const resaved = panel.getByTestId('command-card').last();
  await expect(resaved).toHaveAttribute('data-status', 'ok');
  await expect(resaved.getByTestId('command-output')).toContainText(
    'dom.type(role="textbox", name="Organisation", text="{{ company }}")',
  );
  await page.reload();
  const requests = fakeApi.requests.length;
  const again = await runCommand(panel, '$shop_order password=hunter2');
  await expect(again).toHaveAttribute('data-status', 'ok');
  expect(CONFIRMATION.exec(await again.getByTestId('command-output').innerText())?.[1]).toBe(number);
  expect(fakeApi.requests.length - requests).toBe(0);
  await page.evaluate(() => localStorage.removeItem('variant'));
  await page.close();
});
