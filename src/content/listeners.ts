/**
 * The isolated world's view of the page's pointer and key listeners (#14 item 4), asked from the page-world registry
 * (content/listenerRegistry.ts) when Otto installed one in this page. See that file for the protocol and its limits.
 *
 * Which listener-bearing elements count as a control: a listener on a container is how pages delegate (one `click`
 * on a list or a feed, reading `event.target`), and it tells nothing about which child is a target — so the
 * children get no ref from it, and the container gets one only when it reads as one control itself (see
 * `oneControl`). Without a registry (Otto came after the page loaded, no run going) the answer is empty and says so.
 */
import { walkMemo } from './visibility.ts';
import { LISTENER_REQUEST } from './listenerRegistry.ts';

/** How the registry was installed: at the page's start (`load`), after it (`late`), or not at all (`none`). */
export type ListenerMode = 'load' | 'late' | 'none';

export interface ListenerView {
  mode: ListenerMode;
  elements: Set<Element>;
}

let rnd = 0;
function replyType(): string {
  const b = new Uint32Array(2);
  crypto.getRandomValues(b);
  return `otto:l${(rnd++).toString(36)}${b[0]!.toString(36)}${b[1]!.toString(36)}`;
}

/** Asks the page-world registry (synchronously: dispatchEvent runs its listener before returning). */
export function readListeners(): ListenerView {
  const view: ListenerView = { mode: 'none', elements: new Set() };
  const type = replyType();
  const onReply = (e: Event): void => {
    if (e.target === document) {
      const d = (e as CustomEvent).detail as unknown;
      if (d === 'load' || d === 'late') view.mode = d;
      return;
    }
    const t = e.composedPath()[0];
    if (t instanceof Element) view.elements.add(t);
  };
  document.addEventListener(type, onReply, true);
  try {
    document.dispatchEvent(new CustomEvent(LISTENER_REQUEST, { detail: type }));
  } finally {
    document.removeEventListener(type, onReply, true);
  }
  return view;
}

let taskCache: ListenerView | undefined;
const MEMO_KEY = Symbol('listeners');

/** The view for this walk (a sliced snapshot spans tasks), or for this task when no walk is open. */
export function listenerView(): ListenerView {
  return walkMemo(MEMO_KEY, () => {
    if (!taskCache) {
      taskCache = readListeners();
      queueMicrotask(() => (taskCache = undefined));
    }
    return taskCache;
  });
}

const DESCENDANTS_MAX = 12;
const TEXT_MAX = 80;

/**
 * A listener-bearing element that reads as one control: a button made of a span, an icon and a label, a count.
 * Not a delegating container: at most DESCENDANTS_MAX elements inside, at most TEXT_MAX characters of text, and
 * not three or more children that each hold text (`Share · Save · Report` under one listener are targets the page
 * tells apart by `event.target`; one ref for all would merge them). Two are allowed: an icon font's glyph name and a
 * label, a label and a count.
 */
export function oneControl(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'html' || tag === 'body') return false;
  // The bounded count first: a big container's textContent would cost a walk of all of it.
  let n = 0;
  for (let d = el.firstElementChild; d; d = nextInside(d, el)) if (++n > DESCENDANTS_MAX) return false;
  if ((el.textContent ?? '').replace(/\s+/g, ' ').trim().length > TEXT_MAX) return false;
  let texty = 0;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling)
    if (/\S/.test(c.textContent ?? '') && ++texty > 2) return false;
  return true;
}

function nextInside(d: Element, root: Element): Element | null {
  if (d.firstElementChild) return d.firstElementChild;
  for (let e: Element | null = d; e && e !== root; e = e.parentElement)
    if (e.nextElementSibling) return e.nextElementSibling;
  return null;
}

/** The page gave this element a pointer or key listener, and it reads as one control. */
export function clickableByListener(el: Element): boolean {
  const v = listenerView();
  return v.elements.size > 0 && v.elements.has(el) && oneControl(el);
}
