/**
 * The boxes of the refs on screen, for tabs.screenshot's overlay: every element this frame has given a ref (by a
 * snapshot, find or query) that is visible and intersects the viewport, in viewport CSS pixels. Nested refs are
 * all listed; the overlay draws each with its label.
 */
import type { BoxesReply } from '../../shared/contentMessages.ts';
import { registry } from '../refs.ts';
import { isElementVisible } from '../visibility.ts';

export function refBoxes(limit = 500): BoxesReply {
  const boxes: BoxesReply['boxes'] = [];
  let total = 0;
  for (const [ref, el] of registry.entries()) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth)
      continue;
    if (!isElementVisible(el)) continue;
    total++;
    if (boxes.length < limit) boxes.push({ ref, x: r.left, y: r.top, w: r.width, h: r.height });
  }
  return { boxes, total, viewport: { width: innerWidth, height: innerHeight, dpr: devicePixelRatio || 1 } };
}
