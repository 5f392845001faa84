/** Saves text as a file through a temporary blob link (no `downloads` permission needed from the page). */
export function downloadText(filename: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mimeType};charset=utf-8` }));
  saveUrl(filename, url);
}

/** Saves base64 bytes (a binary file of the store) as a file. */
export function downloadBytes(filename: string, mimeType: string, base64: string): void {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  saveUrl(filename, url);
}

/** A picked file's bytes as base64 (for the port, which carries JSON). */
export async function base64Of(file: Blob): Promise<string> {
  const u8 = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < u8.length; i += 0x8000) bin += String.fromCharCode(...u8.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Saves an object URL as a file through a hidden link, then frees the URL. */
function saveUrl(filename: string, url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
