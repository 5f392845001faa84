/** The panel's chat as a user drives it: a fresh panel pointed at the fake API, and a message typed and sent. */
import type { Page } from '@playwright/test';
import type { FakeApi } from '../../test/support/fake-api/index.ts';
import { collectEvents, connectToFakeApi } from './agent.ts';

/**
 * Points Otto at the fake API, then reloads the panel into a fresh, empty conversation, at side-panel size unless
 * `sidePanelSize` is false.
 */
export async function readyPanel(
  panel: Page,
  api: FakeApi,
  opts: { key?: string; yaml?: string; sidePanelSize?: boolean } = {},
): Promise<void> {
  const { sidePanelSize = true, ...connect } = opts;
  if (sidePanelSize) await panel.setViewportSize({ width: 400, height: 640 });
  await connectToFakeApi(panel, api, connect);
  await panel.evaluate(() => localStorage.clear());
  await panel.reload();
  await panel.getByTestId('worker-status').and(panel.locator('[data-state="ready"]')).waitFor();
  await collectEvents(panel);
}

/** Types `text` into the chat box and sends it with Enter. */
export async function sendText(panel: Page, text: string): Promise<void> {
  await panel.getByTestId('chat-input').fill(text);
  await panel.getByTestId('chat-input').press('Enter');
}
