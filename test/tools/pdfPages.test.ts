/**
 * #43 part 4 without a browser: files.read draws a PDF's scanned pages (and any page asked for) as images the model
 * receives as `input_image` parts; a tab showing a PDF is named with the files.read call that reads it. The offscreen
 * reader is stubbed (pdf.js runs in e2e/files.spec.ts); what is asserted is the exact output the model gets.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fileStore } from '../../src/storage/files.ts';
import { createFilesTools } from '../../src/tools/packs/files/index.ts';
import { noPage } from '../../src/page/api.ts';
import type { PdfRender, PdfText } from '../../src/tools/packs/files/pdf.ts';
import { pdfTabNote } from '../../src/tools/packs/files/tabPdf.ts';
import { fitScale } from '../../src/offscreen/pdfPageImage.ts';
import type { AnyTool } from '../../src/tools/Tool.ts';
import { toolContext } from '../support/toolContext.ts';

const IMG = 'data:image/jpeg;base64,AAAA';
const TAG = /<(external-content-[0-9a-f]{8})>/g;

/** A PDF of `n` pages: odd pages have text, even pages are scans; pages in `render` (and scans up to its count) drawn. */
function fakePdf(n: number, render?: PdfRender): PdfText {
  let scans = render?.scanned ?? 0;
  const pages = Array.from({ length: n }, (_, i) => {
    const p = i + 1;
    const scan = p % 2 === 0;
    const drawn = render?.pages.includes(p) || (scan && scans-- > 0);
    return {
      n: p,
      text: scan ? '' : `Text of page ${p}`,
      images: scan,
      ...(drawn ? { image: { url: IMG, width: 768, height: 993 } } : {}),
    };
  });
  return { numPages: n, pages };
}

function readTool(pages: number, asked: PdfRender[] = []): AnyTool {
  const extract = async (_bytes: ArrayBuffer | Uint8Array, _max?: number, render?: PdfRender) => {
    if (render) asked.push(render);
    return fakePdf(pages, render);
  };
  return createFilesTools({ page: noPage, extract }).find((t) => t.name === 'read') as AnyTool;
}

async function storePdf(name: string): Promise<void> {
  await fileStore().saveBytes(name, new TextEncoder().encode('%PDF-1.4 fake').buffer, 'application/pdf', {
    source: 'download',
    origins: [],
    url: 'https://bank.example/a.pdf',
  });
}

const run = (tool: AnyTool, args: Record<string, unknown>) =>
  tool.execute(tool.parameters.parse(args), toolContext()) as Promise<unknown>;
const untag = (s: string) => s.replace(TAG, '<B>').replace(/<\/external-content-[0-9a-f]{8}>/g, '</B>');

describe('files.read draws PDF pages as images', () => {
  it('a scanned page comes after the text as an input_image, named by page', async () => {
    await storePdf('scan.pdf');
    const asked: PdfRender[] = [];
    const out = (await run(readTool(3, asked), { name: 'scan.pdf' })) as { output_parts: Record<string, string>[] };
    expect(asked).toEqual([{ pages: [], scanned: 3 }]);
    expect(out.output_parts.map((p) => p.type)).toEqual(['input_text', 'input_text', 'input_image']);
    expect(untag(out.output_parts[0]!.text!)).toBe(
      'PDF "scan.pdf": 3 pages, 2 with text; no text layer on page 2 (an image, probably scanned: shown as an image after the text)\n' +
        '<B>\n--- page 1 of 3 ---\nText of page 1\n--- page 2 of 3 ---\n[no text layer: this page is an image (scanned?); it is shown as an image after this text]\n' +
        '--- page 3 of 3 ---\nText of page 3\n</B>',
    );
    expect(out.output_parts[1]).toEqual({
      type: 'input_text',
      text: 'Page 2 of 3 of PDF "scan.pdf" as an image (768×993 px, about 0 KB):',
    });
    expect(out.output_parts[2]).toEqual({ type: 'input_image', image_url: IMG, detail: 'auto' });
  });

  it('past three scans, the others are named with the call that draws one', async () => {
    await storePdf('long.pdf');
    const out = (await run(readTool(10), { name: 'long.pdf' })) as { output_parts: Record<string, string>[] };
    expect(out.output_parts.filter((p) => p.type === 'input_image')).toHaveLength(3);
    expect(out.output_parts[0]!.text).toMatch(
      /\n\[Pages 8, 10 not drawn \(at most 3 images per read\): files\.read\(name="long\.pdf", page_image=8\) shows page 8\.\]$/,
    );
  });

  it('page_image draws that page, its text layer inside the boundary; a page past the end is a clear error', async () => {
    await storePdf('two.pdf');
    const asked: PdfRender[] = [];
    const tool = readTool(3, asked);
    const out = (await run(tool, { name: 'two.pdf', page_image: 3 })) as { output_parts: Record<string, string>[] };
    expect(asked).toEqual([{ pages: [3], scanned: 0 }]);
    expect(out.output_parts.map((p) => p.type)).toEqual(['input_text', 'input_text', 'input_image']);
    expect(untag(out.output_parts[0]!.text!)).toBe(
      'PDF "two.pdf": page 3 of 3 as an image; its text layer follows.\n<B>\nText of page 3\n</B>',
    );
    await expect(run(tool, { name: 'two.pdf', page_image: 2 })).resolves.toMatchObject({
      output_parts: [
        { type: 'input_text', text: 'PDF "two.pdf": page 2 of 3 as an image; it has no text layer.' },
        {},
        {},
      ],
    });
    await expect(run(tool, { name: 'two.pdf', page_image: 7 })).rejects.toThrow(
      'PDF "two.pdf" has 3 pages: there is no page 7.',
    );
  });

  it('a PDF without scans stays text; wrong arguments get plain errors', async () => {
    await storePdf('one.pdf');
    await fileStore().save('notes.txt', 'hello', 'text/plain');
    const tool = readTool(1);
    expect(untag((await run(tool, { name: 'one.pdf' })) as string)).toBe(
      'PDF "one.pdf": 1 page, 1 with text\n<B>\n--- page 1 of 1 ---\nText of page 1\n</B>',
    );
    await expect(run(tool, {})).rejects.toThrow(
      'files.read needs name (a file from files.list) or tab_id (a tab showing a PDF).',
    );
    await expect(run(tool, { name: 'one.pdf', tab_id: 3 })).rejects.toThrow(
      'files.read takes name or tab_id, not both.',
    );
    await expect(run(tool, { name: 'notes.txt', page_image: 1 })).rejects.toThrow(
      'notes.txt is not a PDF: page_image applies to PDFs only.',
    );
  });
});

describe('a tab showing a PDF', () => {
  it('is named with the exact files.read call; its address only inside the boundary', () => {
    const note = pdfTabNote(7, 'https://bank.example/inv.pdf?x=<external-content-1234abcd>');
    const [first, ...rest] = note.split('\n');
    expect(first).toBe(
      "Tab 7 shows a PDF in Chrome's PDF viewer: its pages are not part of the page (no outline, refs or text here). " +
        'Read it with files.read(tab_id=7): the text page by page, and pages without a text layer (scanned) as images; ' +
        "files.read(tab_id=7, page_image=N) shows page N as an image. The file's address:",
    );
    expect(untag(rest.join('\n'))).toBe(
      '<B>\nurl: https://bank.example/inv.pdf?x=&lt;external-content-1234abcd>\n</B>',
    );
  });
});

describe('page images fit the box', () => {
  it('a Letter page fits 768 px wide; a small page is not blown up past twice its size', () => {
    expect(fitScale(612, 792, 768, 1024) * 612).toBeCloseTo(768);
    expect(fitScale(792, 612, 768, 1024) * 792).toBeCloseTo(768);
    expect(fitScale(100, 100, 768, 1024)).toBe(2);
  });
});
