/**
 * #19, the rest of the browser: downloads (a link, a button, a URL) waited for and kept in Otto's file store, PDFs
 * read page by page (a downloaded one, a tab showing one, one from web.fetch), uploads into a React file input and a
 * drop zone, the data-flow guard on uploads, and the page's console and requests captured without the debugger —
 * each asserted on the text the model receives, and the page's real state.
 */
import type { Page } from '@playwright/test';
import { test, expect, panelRequest } from './support/fixtures.ts';
import { connectToFakeApi, events, send, waitForStatus } from './support/agent.ts';
import { lastOutputs } from './support/modelTurns.ts';
import type { FakeApi } from '../test/support/fake-api/index.ts';
import type { ScriptedCall, Turn } from '../test/support/fake-api/turns.ts';
import { tabIdFor } from './support/tabs.ts';

test.beforeEach(({ fakeApi }) => fakeApi.reset());

/** One model turn per call, in order, after the user's message; then a closing text. */
function script(api: FakeApi, first: string, calls: ScriptedCall[]): void {
  const turns: Turn[] = calls.map((c, i) => (i === 0 ? { match: first, calls: [c] } : { calls: [c] }));
  api.script([...turns, { text: 'Done.' }]);
}

async function clearFiles(panel: Page, ...names: string[]): Promise<void> {
  for (const name of names) await panelRequest(panel, { type: 'files.delete', name });
}

const ALL_TOOLS = '  tool_set: all\n';

test('a link and a button download a CSV and a PDF: name, size, type and path reported, copies kept and read page by page', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  await clearFiles(panel, 'expenses.csv', 'report.pdf');
  const page = await context.newPage();
  await page.goto(`${pages.origin}/files/downloads.html`);
  script(fakeApi, 'get my statements', [
    { name: 'files__download_click', arguments: { selector: '#csv' } },
    { name: 'files__download_click', arguments: { selector: '#pdf' } },
    { name: 'files__read', arguments: { name: 'report.pdf' } },
    { name: 'files__read', arguments: { name: 'expenses.csv' } },
    { name: 'files__list', arguments: {} },
    { name: 'files__download_click', arguments: { selector: '#nothing', wait_start_ms: 1000 } },
  ]);
  const id = await send(panel, 'get my statements', { tabId: await tabIdFor(panel, page.url()) });
  await waitForStatus(panel, id, 'completed', 60_000);
  const [csv, pdf, pdfText, csvText, list, nothing] = lastOutputs(fakeApi);

  expect(csv).toContain('Downloaded.\nname: expenses.csv\nsize: 63 B (63 bytes)\ntype: text/csv\nsaved at: /');
  expect(csv).toContain(`from: ${pages.origin}/files/expenses.csv\nkept in Otto's file store as "expenses.csv"`);
  expect(csv).toContain('clicked link "Download expenses (CSV)"');
  expect(pdf).toContain('Downloaded.\nname: report.pdf\nsize: 3.4 KB (3509 bytes)\ntype: application/pdf\n');
  expect(pdf).toContain(`from: ${pages.origin}/files/report.pdf?download\nkept in Otto's file store as "report.pdf"`);

  // #43: the scanned page 3 follows the text as an image (the output is parts; here as their JSON).
  const [pdfHead, pdfPage3] = (JSON.parse(pdfText!) as { text?: string }[]).map((p) => p.text);
  expect(pdfHead).toMatch(
    /^PDF "report\.pdf": 3 pages, 2 with text; no text layer on page 3 \(an image, probably scanned: shown as an image after the text\)\n<external-content-[0-9a-f]{8}>\n/,
  );
  expect(pdfHead).toContain(
    '--- page 1 of 3 ---\nInvoice 2026-11\nCustomer: Ada Lovelace\n--- page 2 of 3 ---\nTotal due: 1,234.56 EUR\nPayable within 30 days\n--- page 3 of 3 ---\n[no text layer: this page is an image (scanned?); it is shown as an image after this text]\n</external-content-',
  );
  expect(pdfPage3).toMatch(/^Page 3 of 3 of PDF "report\.pdf" as an image \(768×993 px, about \d+ KB\):$/);
  expect(csvText).toMatch(
    new RegExp(
      `^expenses\\.csv \\(text/csv, 63 B, downloaded from ${pages.origin.replace(/[.:/]/g, '\\$&')}/files/expenses\\.csv\\)\\n<external-content-[0-9a-f]{8}>\\ndate,item,amount\\n2026-11-01,Coffee,3\\.50\\n2026-11-02,Books,42\\.00\\n\\n</external-content-`,
    ),
  );
  expect(list).toContain('- "report.pdf" — application/pdf, 3.4 KB, downloaded from');
  expect(list).toContain('- "expenses.csv" — text/csv, 63 B, downloaded from');
  expect(nothing).toContain('Error: The click started no download within 1000 ms.');
  // The click's download catch is gone with the call: the page's own navigation afterwards goes through.
  await page.evaluate(() => (location.href = 'downloads.html?after'));
  await expect(page).toHaveURL(`${pages.origin}/files/downloads.html?after`);
});

test('files.download of a URL, and web.fetch of a PDF and a tab showing it: the text page by page', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  await clearFiles(panel, 'report.pdf', 'report (2).pdf');
  const page = await context.newPage();
  await page.goto(`${pages.origin}/files/report.pdf`);
  const pdfUrl = `${pages.origin}/files/report.pdf`;
  script(fakeApi, 'read the pdf', [
    { name: 'dom__read', arguments: {} },
    { name: 'web__fetch', arguments: { url: pdfUrl } },
    { name: 'files__download', arguments: { url: pdfUrl } },
  ]);
  const id = await send(panel, 'read the pdf', { tabId: await tabIdFor(panel, page.url()) });
  await waitForStatus(panel, id, 'completed', 60_000);
  const [tab, fetched, downloaded] = lastOutputs(fakeApi);
  const pagesText =
    '--- page 1 of 3 ---\nInvoice 2026-11\nCustomer: Ada Lovelace\n--- page 2 of 3 ---\nTotal due: 1,234.56 EUR\nPayable within 30 days\n--- page 3 of 3 ---\n[no text layer: this page is an image (scanned?)]';
  expect(tab).toMatch(
    new RegExp(`^PDF ${pdfUrl.replace(/[.:/]/g, '\\$&')}: 3 pages, 2 with text; no text layer on page 3 `),
  );
  expect(tab).toContain(pagesText);
  // #43: the scanned page is named with the call that shows it.
  expect(tab).toMatch(
    new RegExp(
      `\\n</external-content-[0-9a-f]{8}>\\n\\[No text layer on page 3: files__read\\(tab_id=\\d+\\) shows scanned pages as images; files__read\\(tab_id=\\d+, page_image=3\\) shows page 3\\.\\]$`,
    ),
  );
  expect(fetched).toMatch(new RegExp(`^Source: ${pdfUrl.replace(/[.:/]/g, '\\$&')}\\nPDF `));
  expect(fetched).toContain(pagesText);
  expect(fetched).toMatch(
    /\n\[Kept in Otto's file store as "report\.pdf" \(files__read, files__upload\)\.\]\n\[No text layer on page 3: files__read\(name="report\.pdf"\) shows scanned pages as images\.\]$/,
  );
  expect(downloaded).toContain('Downloaded.\nname: report.pdf\nsize: 3.4 KB (3509 bytes)\ntype: application/pdf\n');
  expect(downloaded).toContain(`kept in Otto's file store as "report (2).pdf"`);
});

type Part = { type: string; text?: string; image_url?: string; detail?: string };

/** The tool outputs of the last request as sent: a string, or the parts of an output with images. */
function rawOutputs(api: FakeApi): (string | Part[])[] {
  const input = (api.responsesRequests().at(-1)!.body?.input ?? []) as { type: string; output?: string | Part[] }[];
  return input.filter((i) => i.type === 'function_call_output').map((i) => i.output!);
}

/** A JPEG's size from its SOF0/SOF2 header. */
function jpegSize(dataUrl: string): { width: number; height: number } {
  const b = Buffer.from(dataUrl.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
  for (let i = 2; i < b.length;) {
    const marker = b[i + 1]!;
    if (marker === 0xc0 || marker === 0xc2) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + b.readUInt16BE(i + 2);
  }
  throw new Error('no JPEG frame header');
}

test('a tab showing a PDF: snapshot and text name files.read; files.read(tab_id) gives the text and the scanned page as an image; page_image draws a page', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  // Its own address: tabOf finds a tab by URL, and the test before leaves report.pdf open.
  const pdfUrl = `${pages.origin}/files/report.pdf?tab`;
  const page = await context.newPage();
  await page.goto(pdfUrl);
  const tabId = await tabIdFor(panel, page.url());
  script(fakeApi, 'what does this pdf say', [
    { name: 'dom__snapshot', arguments: {} },
    { name: 'dom__text', arguments: {} },
    { name: 'files__read', arguments: { tab_id: tabId } },
    { name: 'files__read', arguments: { tab_id: tabId, page_image: 1 } },
    { name: 'files__read', arguments: { tab_id: tabId, page_image: 9 } },
  ]);
  const id = await send(panel, 'what does this pdf say', { tabId });
  await waitForStatus(panel, id, 'completed', 60_000);
  const [snap, text, read, page1, nine] = rawOutputs(fakeApi);

  const note = (out: string) =>
    expect(out).toMatch(
      new RegExp(
        `^Tab ${tabId} shows a PDF in Chrome's PDF viewer: its pages are not part of the page \\(no outline, refs or text here\\)\\. ` +
          `Read it with files__read\\(tab_id=${tabId}\\): the text page by page, and pages without a text layer \\(scanned\\) as images; ` +
          `files__read\\(tab_id=${tabId}, page_image=N\\) shows page N as an image\\. The file's address:\\n` +
          `<(external-content-[0-9a-f]{8})>\\nurl: ${pdfUrl.replace(/[.:/?]/g, '\\$&')}\\n</\\1>$`,
      ),
    );
  note(snap as string);
  note(text as string);

  // The text page by page, then the scanned page 3 drawn as an image the model receives.
  const parts = read as Part[];
  expect(parts.map((p) => p.type)).toEqual(['input_text', 'input_text', 'input_image']);
  expect(parts[0]!.text).toMatch(
    new RegExp(
      `^PDF in tab ${tabId}: 3 pages, 2 with text; no text layer on page 3 \\(an image, probably scanned: shown as an image after the text\\)\\n<(external-content-[0-9a-f]{8})>\\n` +
        '--- page 1 of 3 ---\\nInvoice 2026-11\\nCustomer: Ada Lovelace\\n--- page 2 of 3 ---\\nTotal due: 1,234\\.56 EUR\\nPayable within 30 days\\n' +
        '--- page 3 of 3 ---\\n\\[no text layer: this page is an image \\(scanned\\?\\); it is shown as an image after this text\\]\\n</\\1>$',
    ),
  );
  expect(parts[1]!.text).toMatch(
    new RegExp(`^Page 3 of 3 of PDF in tab ${tabId} as an image \\(768×993 px, about \\d+ KB\\):$`),
  );
  expect(parts[2]!.image_url).toMatch(/^data:image\/jpeg;base64,/);
  expect(jpegSize(parts[2]!.image_url!)).toEqual({ width: 768, height: 993 });

  // Page 1 asked for as an image: its text layer, then the image.
  const one = page1 as Part[];
  expect(one.map((p) => p.type)).toEqual(['input_text', 'input_text', 'input_image']);
  expect(one[0]!.text).toMatch(
    new RegExp(
      `^PDF in tab ${tabId}: page 1 of 3 as an image; its text layer follows\\.\\n<(external-content-[0-9a-f]{8})>\\nInvoice 2026-11\\nCustomer: Ada Lovelace\\n</\\1>$`,
    ),
  );
  expect(jpegSize(one[2]!.image_url!)).toEqual({ width: 768, height: 993 });
  expect(nine).toBe(`Error: PDF in tab ${tabId} has 3 pages: there is no page 9.`);
  await page.close();
});

test('a screenshot taken right after a PDF opens shows its pages, not the blank viewer', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  const pdfUrl = `${pages.origin}/files/report.pdf?shot`;
  const page = await context.newPage();
  // Not awaited: the run starts while the viewer is still loading.
  void page.goto(pdfUrl).catch(() => undefined);
  await page.bringToFront();
  const tabId = await panel.evaluate(async (u) => {
    for (;;) {
      const t = (await chrome.tabs.query({})).find((x) => x.url === u || x.pendingUrl === u);
      if (t) return t.id!;
      await new Promise((r) => setTimeout(r, 20));
    }
  }, pdfUrl);
  script(fakeApi, 'look at the pdf', [{ name: 'tabs__screenshot', arguments: { format: 'png' } }]);
  const id = await send(panel, 'look at the pdf', { tabId });
  await waitForStatus(panel, id, 'completed', 60_000);
  const [shot] = rawOutputs(fakeApi) as Part[][];
  expect(shot!.map((p) => p.type)).toEqual(['input_text', 'input_image']);
  expect(shot![0]!.text).toMatch(
    new RegExp(`^Screenshot of tab ${tabId} \\(png, \\d+×\\d+, about \\d+ KB\\)\\. The page it shows:`),
  );
  // The viewer's grey and the pages' white and ink: many colours, a good share of white paper.
  const look = await panel.evaluate(async (u) => {
    const bm = await createImageBitmap(await (await fetch(u)).blob());
    const c = new OffscreenCanvas(bm.width, bm.height);
    const g = c.getContext('2d')!;
    g.drawImage(bm, 0, 0);
    const d = g.getImageData(0, 0, bm.width, bm.height).data;
    const colours = new Set<number>();
    let white = 0;
    for (let i = 0; i < d.length; i += 4) {
      colours.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
      if (d[i]! > 250 && d[i + 1]! > 250 && d[i + 2]! > 250) white++;
    }
    return { colours: colours.size, white: white / (d.length / 4) };
  }, shot![1]!.image_url!);
  expect(look.colours).toBeGreaterThan(20);
  expect(look.white).toBeGreaterThan(0.2);
  await page.close();
});

test('a portal’s download button: the attachment is fetched once, the page does not load again, the copy is read', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  await clearFiles(panel, 'report.pdf');
  const page = await context.newPage();
  await page.goto(`${pages.origin}/files/portal.html`);
  const loadId = await page.evaluate(() => (window as unknown as { loadId: string }).loadId);
  const file = '/files/report.pdf?download&portal';
  const before = { file: pages.requests(file), page: pages.requests('/files/portal.html') };
  script(fakeApi, 'get the invoice', [
    { name: 'files__download_click', arguments: { selector: '#get' } },
    { name: 'files__read', arguments: { name: 'report.pdf' } },
  ]);
  const id = await send(panel, 'get the invoice', { tabId: await tabIdFor(panel, page.url()) });
  await waitForStatus(panel, id, 'completed', 60_000);
  const [clicked, read] = lastOutputs(fakeApi);
  expect(pages.requests(file) - before.file).toBe(1);
  expect(pages.requests('/files/portal.html') - before.page).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { loadId: string }).loadId)).toBe(loadId);
  const esc = (s: string) => s.replace(/[.?()[\]|\\/^$*+{}]/g, '\\$&');
  expect(clicked).toMatch(
    new RegExp(
      '^Downloaded\\.\\nname: report\\.pdf\\nsize: 3\\.4 KB \\(3509 bytes\\)\\ntype: application/pdf\\nsaved at: /.+\\n' +
        `from: ${esc(`${pages.origin}${file}`)}\\n` +
        esc(
          `kept in Otto's file store as "report.pdf": read it with files__read(name="report.pdf") or upload it with files__upload`,
        ) +
        '\\n\\ndom__click ok — no DOM change within \\d+ ms\\.\\n<(external-content-[0-9a-f]{8})>\\nclicked button "Download invoice" \\[ref=\\w+\\]\\n',
    ),
  );
  expect(clicked).not.toContain('navigated');
  expect(read).toContain('PDF \\"report.pdf\\": 3 pages, 2 with text');
  await page.close();
});

test('download_click on a link to a web page: nothing downloaded, the tab goes on to that page', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  const page = await context.newPage();
  // Its own address: tabOf finds a tab by URL, and another test's portal tab may still be open.
  await page.goto(`${pages.origin}/files/portal.html?links`);
  script(fakeApi, 'get the statements', [{ name: 'files__download_click', arguments: { selector: '#details' } }]);
  const id = await send(panel, 'get the statements', { tabId: await tabIdFor(panel, page.url()) });
  await waitForStatus(panel, id, 'completed', 60_000);
  const [out] = lastOutputs(fakeApi);
  expect(out).toMatch(
    /^Error: The click led to a web page, not a file: nothing was downloaded, and the tab was sent on to that page \(Otto asked for it once to tell\)\. Take a new snapshot\.\n/,
  );
  await expect(page).toHaveURL(`${pages.origin}/files/downloads.html`);
  await expect(page.locator('h1')).toHaveText('Statements');
  await page.close();
});

test('upload: a stored file reaches a React file input’s state (name and size validated) and a drop zone; a wrong type is rejected by the page', async ({
  context,
  panel,
  fakeApi,
  pages,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  await clearFiles(panel, 'receipt.csv', 'notes.txt');
  const csv = 'date,item,amount\n2026-11-01,Coffee,3.50\n';
  // Files the user picks in the panel (Stats and files → Files → Add a file…), and one through the same request.
  if ((await panel.getByTestId('open-stats').getAttribute('aria-pressed')) !== 'true')
    await panel.getByTestId('open-stats').click();
  await panel.getByTestId('tab-files').click();
  await panel
    .getByTestId('file-add')
    .setInputFiles({ name: 'receipt.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(panel.locator('[data-testid="file-row"][data-name="receipt.csv"]')).toContainText('text/csv');
  await panelRequest(panel, {
    type: 'files.add',
    name: 'notes.txt',
    mime: 'text/plain',
    data: Buffer.from('hello').toString('base64'),
  });
  const page = await context.newPage();
  await page.goto(`${pages.origin}/apps/upload.html`);
  await expect(page.locator('#file-status')).toHaveText('No receipt attached');
  script(fakeApi, 'attach my receipt', [
    { name: 'files__upload', arguments: { file: 'notes.txt', selector: '#receipt' } },
    { name: 'files__upload', arguments: { file: 'receipt.csv', selector: '#receipt' } },
    { name: 'files__upload', arguments: { file: 'receipt.csv', selector: '#dropzone' } },
  ]);
  const id = await send(panel, 'attach my receipt', { tabId: await tabIdFor(panel, page.url()) });
  await waitForStatus(panel, id, 'completed', 60_000);
  const [wrong, right, dropped] = lastOutputs(fakeApi);
  expect(wrong).toContain('set notes.txt (5 B) on');
  expect(wrong).toContain('Rejected notes.txt: not a CSV or PDF');
  expect(right).toMatch(/^files__upload ok/);
  expect(right).toContain('set receipt.csv (40 B) on button "Receipt (CSV or PDF, up to 1 MB)"');
  await expect(page.locator('#file-status')).toHaveText(
    'Attached receipt.csv (40 bytes), first line: date,item,amount',
  );
  expect(right).toContain('Attached receipt.csv (40 bytes), first line: date,item,amount');
  expect(dropped).toContain('dropped receipt.csv (40 B) on region "Drop photos here"');
  await expect(page.locator('#dropped li')).toHaveText(['Dropped receipt.csv (text/csv, 40 bytes)']);
  expect(dropped).toContain('Dropped receipt.csv (text/csv, 40 bytes)');
  expect((await events(panel, id)).some((e) => e.type === 'approval.required')).toBe(false);
});

test('uploading a file downloaded from one site to another asks first, naming the flow; denied, the page gets nothing', async ({
  context,
  panel,
  fakeApi,
  pages,
  otherOrigin,
}) => {
  await connectToFakeApi(panel, fakeApi, { yaml: ALL_TOOLS });
  await clearFiles(panel, 'expenses.csv');
  // An earlier conversation downloaded the file from `pages`.
  script(fakeApi, 'fetch the expenses', [
    { name: 'files__download', arguments: { url: `${pages.origin}/files/expenses.csv` } },
  ]);
  const first = await send(panel, 'fetch the expenses');
  await waitForStatus(panel, first, 'completed', 60_000);
  expect(lastOutputs(fakeApi)[0]).toContain(`kept in Otto's file store as "expenses.csv"`);

  // A new conversation, on the other site's upload form: nothing read yet, but the file carries its origin.
  fakeApi.reset();
  const page = await context.newPage();
  await page.goto(`${otherOrigin.origin}/apps/upload.html`);
  script(fakeApi, 'attach the expenses', [
    { name: 'files__upload', arguments: { file: 'expenses.csv', selector: '#receipt' } },
  ]);
  const id = await send(panel, 'attach the expenses', { tabId: await tabIdFor(panel, page.url()) });
  const asked = await panel.waitForFunction(
    (cid) =>
      (
        (globalThis as unknown as { __events?: { conversationId: string; type: string; approval?: unknown }[] })
          .__events ?? []
      ).find((e) => e.conversationId === cid && e.type === 'approval.required')?.approval,
    id,
    { timeout: 30_000 },
  );
  const approval = (await asked.jsonValue()) as { callId: string; flow?: { sentence: string } };
  expect(approval.flow?.sentence).toBe(
    `Data read from 127.0.0.1:${pages.port} may be sent to 127.0.0.1:${otherOrigin.port}`,
  );
  await panelRequest(panel, { type: 'chat.deny', conversationId: id, callId: approval.callId });
  await waitForStatus(panel, id, 'completed', 30_000);
  expect(lastOutputs(fakeApi)[0]).toContain(
    'Error: the user denied files__upload: data read from 127.0.0.1:' +
      pages.port +
      ' may be sent to 127.0.0.1:' +
      otherOrigin.port +
      '. Nothing was sent.',
  );
  await expect(page.locator('#file-status')).toHaveText('No receipt attached');
});
