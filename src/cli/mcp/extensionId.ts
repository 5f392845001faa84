/**
 * The id Chrome gives an unpacked extension: the SHA-256 of its folder's absolute path, the first 32 hex digits
 * written with the letters a–p. The manifest has no `key`, so this id is stable for a given build folder, and the
 * CLI can name Otto's connect page (and check the relay's Origin) without asking the browser.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

export function unpackedExtensionId(folder: string): string {
  const hex = createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

export const EXTENSION_ID = /^[a-p]{32}$/;
