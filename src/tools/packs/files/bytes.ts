/** Bytes ⇄ base64 and sizes for people (#19). Chrome 116 has no Uint8Array.toBase64, so it is done in chunks. */

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let bin = '';
  for (let i = 0; i < u8.length; i += 0x8000) bin += String.fromCharCode(...u8.subarray(i, i + 0x8000));
  return btoa(bin);
}

export function humanSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1048576).toFixed(1)} MB`;
}

/** Whether bytes look like a PDF (`%PDF-` near the start), whatever the content type said. */
export function looksLikePdf(bytes: ArrayBuffer | Uint8Array, mime = ''): boolean {
  if (/pdf/i.test(mime)) return true;
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const head = String.fromCharCode(...u8.subarray(0, 1024));
  return head.includes('%PDF-');
}

const TEXT_MIME =
  /^(text\/|application\/(json|xml|javascript|x-javascript|ld\+json|csv|x-yaml|yaml|x-ndjson)|image\/svg)/i;

/** Whether a file of this type (or these bytes) reads as text. */
export function isTextType(mime: string, bytes?: Uint8Array): boolean {
  if (TEXT_MIME.test(mime) || /\+(json|xml)/i.test(mime)) return true;
  if (!bytes || (mime && !/octet-stream/i.test(mime))) return false;
  // No useful type: text when the first KB has no NUL byte and decodes as UTF-8.
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(
      head.length < bytes.length ? head.subarray(0, head.length - 4) : head,
    );
    return true;
  } catch {
    return false;
  }
}
