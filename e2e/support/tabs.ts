/**
 * The tabs a test works in: a page opened in a new tab, and the Chrome tab id the extension knows it by (the page
 * tools take `tab_id`; Playwright's pages have none). Asked of an extension page (the panel) or the service worker.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';

const idOf = async (u: string) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id;

/** The Chrome tab id of the tab showing `url`. */
export async function tabIdFor(extension: Page | Worker, url: string): Promise<number> {
  const id = 'context' in extension ? await extension.evaluate(idOf, url) : await extension.evaluate(idOf, url);
  if (id === undefined) throw new Error(`no tab with url ${url}`);
  return id;
}

/** Opens `url` in a new tab and returns the page with its tab id. */
export async function openTab(
  context: BrowserContext,
  extension: Page | Worker,
  url: string,
  timeout?: number,
): Promise<{ page: Page; tabId: number }> {
  const page = await context.newPage();
  await page.goto(url, timeout ? { timeout } : undefined);
  return { page, tabId: await tabIdFor(extension, page.url()) };
}
