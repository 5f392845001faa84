/**
 * tabs.screenshot's overlay for a model that picks points by looking: the boxes of the refs on screen, each labelled
 * with its ref, and/or a coordinate grid in the viewport's CSS pixels — the units dom.click(x, y) takes without a
 * ref. Drawn with OffscreenCanvas on the image the model gets (after scaling), so labels stay legible.
 */
import type { BoxesReply } from '../../../shared/contentMessages.ts';

export type Overlay = 'refs' | 'grid' | 'both';

/** Grid spacing in CSS px: about eight lines across the viewport, on a round number. */
export function gridStep(viewportWidth: number): number {
  for (const s of [50, 100, 200, 250, 500]) if (viewportWidth / s <= 12) return s;
  return 1000;
}

export async function drawOverlay(
  dataUrl: string,
  overlay: Overlay,
  boxes: BoxesReply | undefined,
  viewport: { width: number; height: number },
  encode: { type: string; quality?: number },
): Promise<string> {
  const bitmap = await createImageBitmap(await (await fetch(dataUrl)).blob());
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = canvas.getContext('2d');
  if (!g) throw new Error('Could not draw the overlay: no 2D canvas in this context.');
  g.drawImage(bitmap, 0, 0);
  const s = bitmap.width / viewport.width;
  bitmap.close();
  const font = Math.max(10, Math.round(11 * Math.min(1.5, Math.max(0.8, s))));
  g.font = `${font}px sans-serif`;
  g.textBaseline = 'top';
  if (overlay !== 'refs') {
    const step = gridStep(viewport.width);
    g.strokeStyle = 'rgba(0, 120, 255, 0.45)';
    g.fillStyle = 'rgba(0, 90, 200, 0.9)';
    g.lineWidth = 1;
    for (let x = step; x < viewport.width; x += step) {
      g.beginPath();
      g.moveTo(x * s + 0.5, 0);
      g.lineTo(x * s + 0.5, canvas.height);
      g.stroke();
      g.fillText(String(x), x * s + 2, 2);
    }
    for (let y = step; y < viewport.height; y += step) {
      g.beginPath();
      g.moveTo(0, y * s + 0.5);
      g.lineTo(canvas.width, y * s + 0.5);
      g.stroke();
      g.fillText(String(y), 2, y * s + 2);
    }
  }
  if (overlay !== 'grid' && boxes) {
    g.lineWidth = 1.5;
    for (const b of boxes.boxes) {
      g.strokeStyle = 'rgba(230, 0, 90, 0.85)';
      g.strokeRect(b.x * s, b.y * s, b.w * s, b.h * s);
      const w = g.measureText(b.ref).width + 4;
      const ly = Math.max(0, b.y * s - font - 2);
      g.fillStyle = 'rgba(230, 0, 90, 0.9)';
      g.fillRect(b.x * s, ly, w, font + 2);
      g.fillStyle = '#fff';
      g.fillText(b.ref, b.x * s + 2, ly + 1);
    }
  }
  const out = await canvas.convertToBlob(encode);
  const bytes = new Uint8Array(await out.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${out.type};base64,${btoa(bin)}`;
}
