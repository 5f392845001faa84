/**
 * A screenshot waits until the page has drawn (#43): a capture taken right after a page or a PDF opened came back
 * blank. Before capturing, the tab's document is waited for — `readyState` complete, then two animation frames (each
 * also ends after 100 ms, so a throttled page cannot hold it) — at most PAINT_WAIT_MS. Chrome's PDF viewer draws its
 * pages after that, so a tab showing a PDF is captured until the image is no longer one flat colour and two
 * captures in a row agree (Chrome allows two captures a second), at most PDF_WAIT_MS. Nothing here can hang: every
 * wait has its bound, and the capture after it is taken whatever the page did.
 */

export const PAINT_WAIT_MS = 3000;
export const PDF_WAIT_MS = 4000;
const CAPTURE_GAP_MS = 550;

/** Runs in the page: resolves with its content type once it is loaded and has painted twice (or at `ms`). */
export function pagePainted(ms: number): Promise<string> {
  const frame = () =>
    new Promise<void>((resolve) => {
      requestAnimationFrame(() => resolve());
      setTimeout(resolve, 100);
    });
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else addEventListener('load', () => resolve(), { once: true });
  });
  const painted = loaded.then(frame).then(frame);
  return Promise.race([painted, new Promise<void>((r) => setTimeout(r, ms))]).then(() => document.contentType);
}

/** Waits for the tab's top document to load and paint; its content type, or '' when the page could not be asked. */
export async function waitForPaint(tabId: number, ms = PAINT_WAIT_MS): Promise<string> {
  // Started inside a promise, so a page or a context without the scripting API is '' too, never a throw.
  const asked = Promise.resolve()
    .then(() => chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: pagePainted, args: [ms] }))
    .then(([r]) => (typeof r?.result === 'string' ? r.result : ''))
    .catch(() => '');
  return Promise.race([asked, new Promise<string>((r) => setTimeout(() => r(''), ms + 500))]);
}

/** Whether RGBA pixels are one flat colour (sampled; a step of a few units is the same colour). */
export function isFlat(px: Uint8ClampedArray, step = 97): boolean {
  const seen = new Set<number>();
  for (let i = 0; i < px.length; i += 4 * step) {
    seen.add(((px[i]! >> 3) << 10) | ((px[i + 1]! >> 3) << 5) | (px[i + 2]! >> 3));
    if (seen.size > 2) return false;
  }
  return true;
}

async function flat(dataUrl: string): Promise<boolean> {
  const bitmap = await createImageBitmap(await (await fetch(dataUrl)).blob());
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = canvas.getContext('2d');
  if (!g) return false;
  g.drawImage(bitmap, 0, 0);
  bitmap.close();
  return isFlat(g.getImageData(0, 0, canvas.width, canvas.height).data);
}

/**
 * A PDF viewer's capture once it has drawn: captured again while it is flat or still changing, until `ms` has passed.
 * `blank` says the viewer had drawn nothing by then.
 */
export async function captureDrawnPdf(
  capture: () => Promise<string>,
  ms = PDF_WAIT_MS,
  isBlank: (dataUrl: string) => Promise<boolean> = flat,
): Promise<{ dataUrl: string; blank: boolean }> {
  const deadline = Date.now() + ms;
  let shot = await capture();
  let blank = await isBlank(shot);
  while (Date.now() + CAPTURE_GAP_MS <= deadline) {
    await new Promise((r) => setTimeout(r, CAPTURE_GAP_MS));
    const next = await capture();
    const same = next === shot;
    shot = next;
    blank = await isBlank(shot);
    if (same && !blank) break;
  }
  return { dataUrl: shot, blank };
}
