/**
 * #43: a download click fetches its file once. The page-side catch needs the Navigation API (e2e/files.spec.ts,
 * "a portal's download button"); here, how the caught answer is judged and named.
 */
import { describe, expect, it } from 'vitest';
import { fileNameOf, isAttachment } from '../../src/tools/packs/files/downloadCatch.ts';

describe('a caught download', () => {
  it('is a file when answered as an attachment or as anything but a web page', () => {
    expect(isAttachment('attachment; filename="a.pdf"', 'application/pdf')).toBe(true);
    expect(isAttachment('attachment', 'text/html')).toBe(true);
    expect(isAttachment(null, 'application/pdf')).toBe(true);
    expect(isAttachment(null, 'text/csv')).toBe(true);
    expect(isAttachment(null, 'text/html')).toBe(false);
    expect(isAttachment('inline', 'application/xhtml+xml')).toBe(false);
  });

  it('takes its name from Content-Disposition (filename* first), else from the URL', () => {
    expect(fileNameOf(`attachment; filename*=UTF-8''Rechnung%20%C3%9C.pdf; filename="x.pdf"`, 'https://a/b')).toBe(
      'Rechnung Ü.pdf',
    );
    expect(fileNameOf('attachment; filename="invoice 11.pdf"', 'https://a/b')).toBe('invoice 11.pdf');
    expect(fileNameOf('attachment; filename=plain.csv', 'https://a/b')).toBe('plain.csv');
    expect(fileNameOf(null, 'https://portal.example/files/report.pdf?download')).toBe('report.pdf');
    expect(fileNameOf('attachment', 'https://portal.example/')).toBe('download');
  });
});
