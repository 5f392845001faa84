/**
 * Resizing by the corner grip. A page's own grip (jQuery UI resizable, a split pane) listens to the mouse and gets
 * the drag. The browser's native grip (a textarea, or any element with CSS `resize`) answers only trusted input, so
 * when the drag left a natively resizable element's size unchanged, Otto does what Chrome's grip does: it sets the
 * element's inline width/height by the offset (Chrome writes the same inline styles; the page's ResizeObserver
 * fires as for a person's drag). See docs/decisions.md (#21).
 */
export interface Size {
  width: number;
  height: number;
}

export const sizeOf = (el: Element): Size => {
  const r = el.getBoundingClientRect();
  return { width: Math.round(r.width), height: Math.round(r.height) };
};

export function nativelyResizable(el: Element): 'both' | 'horizontal' | 'vertical' | undefined {
  const s = getComputedStyle(el);
  const r = s.resize;
  // CSS resize applies only where overflow is not visible; a textarea's overflow is auto by default.
  if (!r || r === 'none' || (s.overflowX === 'visible' && s.overflowY === 'visible')) return undefined;
  if (r === 'horizontal' || r === 'inline') return 'horizontal';
  if (r === 'vertical' || r === 'block') return 'vertical';
  return 'both';
}

/** Applies the native grip's effect: the border box grows by (dx, dy), within the element's min/max sizes. */
export function resizeNatively(
  el: HTMLElement,
  dx: number,
  dy: number,
  axis: 'both' | 'horizontal' | 'vertical',
): void {
  const s = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  const borderBox = s.boxSizing === 'border-box';
  const extraX = borderBox
    ? 0
    : parseFloat(s.paddingLeft) +
      parseFloat(s.paddingRight) +
      parseFloat(s.borderLeftWidth) +
      parseFloat(s.borderRightWidth);
  const extraY = borderBox
    ? 0
    : parseFloat(s.paddingTop) +
      parseFloat(s.paddingBottom) +
      parseFloat(s.borderTopWidth) +
      parseFloat(s.borderBottomWidth);
  if (axis !== 'vertical' && dx) el.style.width = `${Math.max(0, r.width + dx - extraX)}px`;
  if (axis !== 'horizontal' && dy) el.style.height = `${Math.max(0, r.height + dy - extraY)}px`;
}
