/**
 * Worker ⇄ offscreen PDF reader (#19). The worker sends the PDF's bytes (base64) with `chrome.runtime.sendMessage`;
 * the offscreen document (src/offscreen/pdf.ts) answers with the text of each page. Both sides validate.
 */
import { z } from './zod.ts';

export const PDF_TARGET = 'otto-pdf';

export const PdfRequest = z.object({
  target: z.literal(PDF_TARGET),
  type: z.literal('pdf.text'),
  data: z.string(),
  maxPages: z.number().int().min(1).max(5000),
});
export type PdfRequest = z.infer<typeof PdfRequest>;

export const PdfPage = z.object({
  n: z.number().int(),
  text: z.string(),
  /** The page paints an image: with no text, it is most likely a scan. */
  images: z.boolean(),
});
export type PdfPage = z.infer<typeof PdfPage>;

export const PdfReply = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    numPages: z.number().int(),
    pages: z.array(PdfPage),
    title: z.string().optional(),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type PdfReply = z.infer<typeof PdfReply>;
