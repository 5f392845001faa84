/**
 * Screenshots are scaled to what the model will actually look at before they are sent and stored: the Responses API
 * fits an image in 2048×2048 and then its short side in 768 px ("high"/"auto"), or looks at 512×512 ("low"). A
 * HiDPI capture is often 2–4× larger than that; the extra pixels cost transfer and transcript storage, not accuracy.
 */

export type Detail = 'low' | 'high' | 'auto';
export interface Size {
  width: number;
  height: number;
}

/** The size the model works at for this detail level (never larger than the original). */
export function modelSize(size: Size, detail: Detail): Size {
  const long = Math.max(size.width, size.height);
  const short = Math.min(size.width, size.height);
  let scale: number;
  if (detail === 'low') scale = Math.min(1, 512 / long);
  else {
    scale = Math.min(1, 2048 / long); // fit in 2048×2048, then the short side in 768
    if (short * scale > 768) scale *= 768 / (short * scale);
  }
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

export interface Scaled {
  dataUrl: string;
  size: Size;
  original: Size;
}

/**
 * Decodes a captured data URL and re-encodes it at `modelSize` with OffscreenCanvas (available in the service
 * worker). Returns the capture unchanged when it is already small enough.
 */
export async function scaleForModel(
  dataUrl: string,
  detail: Detail,
  encode: { type: string; quality?: number },
): Promise<Scaled> {
  const blob = await (await fetch(dataUrl)).blob();
  const bitmap = await createImageBitmap(blob);
  const original = { width: bitmap.width, height: bitmap.height };
  const size = modelSize(original, detail);
  if (size.width === original.width && size.height === original.height) {
    bitmap.close();
    return { dataUrl, size, original };
  }
  const canvas = new OffscreenCanvas(size.width, size.height);
  const g = canvas.getContext('2d');
  if (!g) throw new Error('Could not scale the screenshot: no 2D canvas in this context.');
  g.imageSmoothingQuality = 'high';
  g.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  const out = await canvas.convertToBlob(encode);
  return { dataUrl: `data:${out.type};base64,${base64(new Uint8Array(await out.arrayBuffer()))}`, size, original };
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
