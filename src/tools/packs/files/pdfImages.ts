/**
 * `files.read` with PDF pages as images (#43): a page without a text layer (a scan) is drawn and sent to the model
 * as an image, the way tabs.screenshot sends its capture (`output_parts`: text, then `input_image`); and one page is
 * drawn when the model asks for it (`page_image`). The images come from pdf.js in Otto's offscreen document
 * (src/offscreen/pdfPageImage.ts), scaled to fit PAGE_IMAGE_BOX.
 */
import type { PdfPage } from '../../../shared/offscreenMessages.ts';
import { wrapUntrusted } from '../../../shared/untrusted.ts';
import { formatPdf, type PdfText } from './pdf.ts';

/** Scanned pages drawn by one files.read at most: each image costs the model about a thousand tokens. */
export const MAX_SCANNED_IMAGES = 3;

type Part =
  { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'low' | 'high' | 'auto' };
export type PdfOutput = string | { output_parts: Part[] };

const kb = (dataUrl: string) => Math.round((dataUrl.length * 3) / 4 / 1024);

function imageParts(what: string, numPages: number, pages: PdfPage[]): Part[] {
  return pages.flatMap((p): Part[] =>
    p.image
      ? [
          {
            type: 'input_text',
            text: `Page ${p.n} of ${numPages} of PDF ${what} as an image (${p.image.width}×${p.image.height} px, about ${kb(p.image.url)} KB):`,
          },
          { type: 'input_image', image_url: p.image.url, detail: 'auto' },
        ]
      : [],
  );
}

/**
 * The pages as text (formatPdf) and, after them, the pages drawn as images. Without images, the text alone (a
 * string, as before). Scanned pages beyond MAX_SCANNED_IMAGES are named, with the call that draws one.
 */
export function pdfOutput(
  what: string,
  call: string,
  pdf: PdfText,
  opts: { fromPage?: number; maxChars?: number } = {},
): PdfOutput {
  const text = formatPdf(what, pdf, opts);
  const from = opts.fromPage ?? 1;
  const drawn = pdf.pages.filter((p) => p.image && p.n >= from);
  const undrawn = pdf.pages.filter((p) => !p.text && p.images && !p.image && p.n >= from).map((p) => p.n);
  const hint = undrawn.length
    ? `\n[Page${undrawn.length > 1 ? 's' : ''} ${undrawn.join(', ')} not drawn (at most ${MAX_SCANNED_IMAGES} images per read): ${call.replace('PAGE', String(undrawn[0]))} shows page ${undrawn[0]}.]`
    : '';
  if (!drawn.length) return text + hint;
  return { output_parts: [{ type: 'input_text', text: text + hint }, ...imageParts(what, pdf.numPages, drawn)] };
}

/** One page asked for as an image (`page_image`): its text, if any, inside the boundary, then the image. */
export function pdfPageOutput(what: string, pdf: PdfText, n: number): PdfOutput {
  const page = pdf.pages.find((p) => p.n === n);
  if (n > pdf.numPages)
    throw new Error(`PDF ${what} has ${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'}: there is no page ${n}.`);
  if (!page?.image) throw new Error(`Page ${n} of PDF ${what} could not be drawn as an image.`);
  const layer = page.text ? 'its text layer follows' : 'it has no text layer';
  const head = `PDF ${what}: page ${n} of ${pdf.numPages} as an image; ${layer}.`;
  return {
    output_parts: [
      { type: 'input_text', text: page.text ? `${head}\n${wrapUntrusted(page.text)}` : head },
      ...imageParts(what, pdf.numPages, [page]),
    ],
  };
}
