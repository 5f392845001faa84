/**
 * The live tool reference: `src/docs/index.html?pack=<name>` asks the worker for the pack's page, built from the
 * registry as it is now. Packs Otto ships have bundled pages (public/docs/tools/); MCP packs exist only once their
 * server is connected, so ot.help links here for them. The page text is escaped HTML made by docsPages.ts.
 */
import '../shared/zod.ts';
import { PortClient } from '../port/portClient.ts';
import { errorMessage } from '../shared/errorMessage.ts';

async function show(): Promise<void> {
  const pack = new URLSearchParams(location.search).get('pack') ?? '';
  const status = document.querySelector('[data-testid="docs-status"]')!;
  if (!pack) {
    status.textContent = 'No pack named: open this page from ot.help or the help browser.';
    return;
  }
  const client = new PortClient();
  try {
    const page = await client.request({ type: 'help.page', pack });
    if (!page) {
      status.textContent = `Otto has no pack named "${pack}" right now. If it comes from an MCP server, check that the server is connected (Settings → MCP servers).`;
      return;
    }
    const doc = new DOMParser().parseFromString(page.html, 'text/html');
    document.title = page.title;
    for (const style of doc.head.querySelectorAll('style')) document.head.append(style);
    document.body.replaceChildren(...doc.body.childNodes);
  } catch (err) {
    status.textContent = `The reference could not be loaded: ${errorMessage(err)}`;
  }
}

void show();
