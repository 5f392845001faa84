/**
 * #15 step 5 left: a conversation whose stored run state cannot be read (written by a newer Otto, or damaged) still
 * shows its transcript in the panel, read-only, with a notice that says what happened and what the user can do. The
 * stored state is never rewritten. The state is damaged in IndexedDB through the extension's service worker.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Worker } from '@playwright/test';
import { test, expect } from './support/fixtures.ts';
import { collectEvents, connectToFakeApi } from './support/agent.ts';

const SHOTS = path.resolve('e2e-artifacts/screenshots');
mkdirSync(SHOTS, { recursive: true });

type RunRecord = Record<string, unknown>;

/** The `runs` record of a conversation, read (and, with `change`, replaced) in the worker's own IndexedDB. */
function runRecord(sw: Worker, conversationId: string, change?: RunRecord): Promise<RunRecord | undefined> {
  return sw.evaluate(
    ([id, next]) =>
      new Promise<RunRecord | undefined>((resolve, reject) => {
        const open = indexedDB.open('otto');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('runs', 'readwrite');
          const runs = tx.objectStore('runs');
          if (next) runs.put(next);
          const got = runs.get(id);
          tx.oncomplete = () => (open.result.close(), resolve(got.result as RunRecord | undefined));
          tx.onerror = () => reject(tx.error);
        };
      }),
    [conversationId, change] as const,
  );
}

async function reopen(panel: Page): Promise<void> {
  await panel.reload();
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
}

test('a conversation whose run state cannot be read shows its transcript, read-only, and keeps the state', async ({
  panel,
  fakeApi,
  serviceWorker,
}) => {
  fakeApi.reset();
  await panel.setViewportSize({ width: 400, height: 640 });
  await connectToFakeApi(panel, fakeApi);
  await panel.evaluate(() => localStorage.clear());
  await reopen(panel);
  await collectEvents(panel);
  fakeApi.script([{ match: 'shelf', text: 'Three red books.' }]);
  await panel.getByTestId('chat-input').fill('What is on the shelf?');
  await panel.getByTestId('chat-input').press('Enter');
  await expect(panel.getByTestId('message-assistant')).toHaveText('Three red books.');
  await expect(panel.getByTestId('run-status')).toHaveAttribute('data-status', 'idle');
  const id = await panel.evaluate(() => localStorage.getItem('otto.panel.current') ?? '');
  const stored = await runRecord(serviceWorker, id);
  expect(stored).toMatchObject({ conversationId: id, schemaVersion: 3, status: 'completed' });

  // Damaged: a field of the wrong type.
  const damaged = { ...stored, turn: 'three' };
  await runRecord(serviceWorker, id, damaged);
  await reopen(panel);
  await expect(panel.getByTestId('message-user')).toHaveText('What is on the shelf?');
  await expect(panel.getByTestId('message-assistant')).toHaveText('Three red books.');
  const banner = panel.getByTestId('unreadable-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('data-reason', 'invalid');
  await expect(banner).toContainText(
    'This conversation can be read and exported, but not continued. The saved run of this conversation is ' +
      'damaged (turn: Invalid input: expected number, received string), so Otto cannot continue it. Nothing was ' +
      'changed: the conversation and its saved run are kept as they are. Start a new conversation to go on.',
  );
  await expect(panel.getByTestId('notice-banner')).toHaveCount(0);
  await panel.screenshot({ path: path.join(SHOTS, 'unreadable-run.png') });

  // It exports; a message sent in it is refused, and nothing is written: not the message, not the state.
  const [download] = await Promise.all([
    panel.waitForEvent('download'),
    panel.getByTestId('unreadable-export').click(),
  ]);
  expect(download.suggestedFilename()).toBe('otto-what-is-on-the-shelf.md');
  const exported = readFileSync((await download.path())!, 'utf8');
  expect(exported).toContain('What is on the shelf?');
  expect(exported).toContain('Three red books.');
  const requests = fakeApi.requests.length;
  await panel.getByTestId('chat-input').fill('go on');
  await panel.getByTestId('chat-input').press('Enter');
  await expect(panel.getByTestId('notice-banner')).toContainText('The saved run of this conversation is damaged');
  await expect(panel.getByTestId('chat-input')).toHaveValue('go on');
  await expect(panel.getByTestId('message-user')).toHaveCount(1);
  expect(fakeApi.requests.length).toBe(requests);
  expect(await runRecord(serviceWorker, id)).toEqual(damaged);

  // Written by a newer Otto: the notice says to update.
  const newer = { ...stored, schemaVersion: 4, somethingNew: { a: 1 } };
  await runRecord(serviceWorker, id, newer);
  await reopen(panel);
  await expect(panel.getByTestId('message-assistant')).toHaveText('Three red books.');
  await expect(banner).toHaveAttribute('data-reason', 'newer');
  await expect(banner).toContainText(
    'The saved run of this conversation was written by a newer version of Otto (run format 4; this version reads ' +
      'up to 3). Update Otto to continue it.',
  );
  expect(await runRecord(serviceWorker, id)).toEqual(newer);

  // "New conversation" leaves it as it is and starts an empty one.
  await panel.getByTestId('unreadable-new').click();
  await expect(banner).toHaveCount(0);
  await expect(panel.getByTestId('message-user')).toHaveCount(0);
  expect(await runRecord(serviceWorker, id)).toEqual(newer);
});
