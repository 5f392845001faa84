/**
 * #46: a click on a schedule's notification opens the panel on that run. The worker's click handler (unit-tested in
 * test/background/scheduleNotices.test.ts) leaves the run in session storage — a headless browser cannot click a
 * desktop notification — and the panel, open or opening, shows that run's conversation and takes the request once.
 */
import { expect } from './support/fixtures.ts';
import { connectedTest as test, send, waitForStatus } from './support/agent.ts';

test('the run a notification names opens in the panel: its conversation is shown, and the request is taken once', async ({
  panel,
  serviceWorker,
  fakeApi,
}) => {
  fakeApi.script([{ match: 'weekly report', text: 'Weekly report: 3 orders shipped.' }]);
  const id = await send(panel, 'Make the weekly report');
  await waitForStatus(panel, id, 'completed');
  // The user moves on: a new, empty conversation.
  await panel.getByTestId('new-conversation').click();
  await expect(panel.getByText('Weekly report: 3 orders shipped.')).toHaveCount(0);

  await serviceWorker.evaluate(
    (conversationId) =>
      chrome.storage.session.set({ 'schedules.openRun': { scheduleId: 'weekly', runId: 'r1', conversationId } }),
    id,
  );
  await expect(panel.getByText('Weekly report: 3 orders shipped.')).toBeVisible();
  expect(await panel.evaluate(() => localStorage.getItem('otto.panel.current'))).toBe(id);
  await expect
    .poll(() =>
      serviceWorker.evaluate(async () => (await chrome.storage.session.get('schedules.openRun'))['schedules.openRun']),
    )
    .toBeUndefined();
});
