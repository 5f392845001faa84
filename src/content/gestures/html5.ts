/**
 * An HTML5 drag and drop as Chrome runs it once a drag starts: dragstart on the draggable (cancelled: no drag), then
 * for each step `drag` on the source and, on what is under the pointer, dragenter (when it changes; dragleave on the
 * previous one) and dragover — the drop is allowed only where the page cancelled dragover (or dragenter) — then drop
 * on the last target if allowed, and dragend on the source with the outcome in dropEffect. One DataTransfer is shared
 * by every event, so what the page put in at dragstart is what it reads at drop.
 */
import { deepElementFromPoint } from '../flatTree.ts';
import { BUTTONS_MASK } from '../actions/pointer.ts';
import { nextFrame, path } from './mouse.ts';
import type { Point } from './points.ts';

export interface Html5Result {
  started: boolean;
  dropped: boolean;
  /** The element the drop landed on (or the last one dragged over). */
  over?: Element;
  dropEffect: string;
}

function dragEvent(type: string, p: Point, dt: DataTransfer, buttons: number): DragEvent {
  return new DragEvent(type, {
    bubbles: true,
    cancelable: type !== 'dragleave' && type !== 'dragend',
    composed: true,
    view: window,
    clientX: p.x,
    clientY: p.y,
    screenX: p.x + (window.screenX || 0),
    screenY: p.y + (window.screenY || 0),
    button: 0,
    buttons,
    dataTransfer: dt,
  });
}

/** The drop effect the page asked for, within what the source allowed (the browser's rule, simplified). */
function effectOf(dt: DataTransfer): string {
  const allowed = dt.effectAllowed;
  const want = dt.dropEffect;
  if (want && want !== 'none') return want;
  if (allowed === 'copy' || allowed === 'copyLink' || allowed === 'copyMove') return 'copy';
  if (allowed === 'link' || allowed === 'linkMove') return 'link';
  return 'move';
}

export async function html5Drag(source: Element, from: Point, to: Point, steps: number): Promise<Html5Result> {
  const dt = new DataTransfer();
  const held = BUTTONS_MASK.left;
  if (!source.dispatchEvent(dragEvent('dragstart', from, dt, held)))
    return { started: false, dropped: false, dropEffect: 'none' };
  // Pages often prepare the drag on the next task (SortableJS does); Chrome's first dragover comes later too.
  await nextFrame();
  let current: Element | null = null;
  let accepted = false;
  for (const p of [...path(from, to, steps), to]) {
    source.dispatchEvent(dragEvent('drag', p, dt, held));
    const at = deepElementFromPoint(p.x, p.y);
    if (at !== current) {
      let enterAccepted = false;
      if (at) {
        dt.dropEffect = 'none';
        enterAccepted = !at.dispatchEvent(dragEvent('dragenter', p, dt, held));
      }
      current?.dispatchEvent(dragEvent('dragleave', p, dt, held));
      current = at;
      accepted = enterAccepted;
    }
    if (current) {
      dt.dropEffect = 'none';
      // The page allows a drop here by cancelling dragover; a dragover it lets through means "not here".
      accepted = !current.dispatchEvent(dragEvent('dragover', p, dt, held));
    }
    await nextFrame();
  }
  let dropped = false;
  let effect = 'none';
  if (current && accepted) {
    effect = effectOf(dt);
    dt.dropEffect = effect as DataTransfer['dropEffect'];
    current.dispatchEvent(dragEvent('drop', to, dt, 0));
    dropped = true;
  } else if (current) current.dispatchEvent(dragEvent('dragleave', to, dt, 0));
  dt.dropEffect = (dropped ? effect : 'none') as DataTransfer['dropEffect'];
  // dragend goes to the source even when a drop handler moved it elsewhere.
  source.dispatchEvent(dragEvent('dragend', to, dt, 0));
  const r: Html5Result = { started: true, dropped, dropEffect: dropped ? effect : 'none' };
  if (current) r.over = current;
  return r;
}
