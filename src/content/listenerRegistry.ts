/**
 * The page-world half of "clickable by a listener" (#14 item 4). A content script lives in an isolated world and
 * cannot see which elements the page gave a `click` listener; this function, run in the page's MAIN world, can: it
 * wraps `EventTarget.prototype.addEventListener` / `removeEventListener` and the `onclick`-style property setters
 * and keeps the elements that have a pointer or key listener. The isolated world asks for them synchronously
 * (content/listeners.ts): it dispatches `request` on `document` with a fresh reply type as its detail; this side
 * answers with one event of that type on `document` (detail: how it was installed) and one on each marked element
 * (the isolated world reads the element from the event's path — event targets are shared DOM nodes; nothing is
 * written into the page's DOM).
 *
 * Like contentDevCapture.ts it is injected with `chrome.scripting.executeScript({ world: 'MAIN', func })` or bundled
 * into the registered document_start script (devCapture.iife.ts), only into tabs a run works on (page/pageDevCapture.ts
 * and contentRouter.ts decide when). So the function is self-contained: no imports, no closure over module state.
 *
 * Limits, said to the model: listeners added before it was installed are not seen (`late`); elements in closed
 * shadow roots are not reported. A page can forge answers (dispatch the reply type on any element) or suppress them:
 * either only gives or withholds a ref on its own page.
 */
/** The event type the registry listens for on `document` (passed in: an injected function closes over nothing). */
export const LISTENER_REQUEST = 'otto:listeners';

export function listenerRegistry(mode: 'load' | 'late', request: string): boolean {
  const KEY = Symbol.for('otto.listeners');
  const w = window as unknown as Record<symbol, unknown>;
  const prev = w[KEY];
  // Installed already, or disarmed before it came (pageStartDisarm.ts's marker, gone once the page is parsed).
  if (prev) return false;
  // Events a person's pointer or keyboard triggers: a listener for one of them marks a control.
  const TYPES = new Set([
    'click',
    'dblclick',
    'mousedown',
    'mouseup',
    'pointerdown',
    'pointerup',
    'touchstart',
    'keydown',
  ]);
  const MAX = 50_000;
  const state = {
    mode: mode === 'load' && document.scripts.length === 0 ? 'load' : 'late',
    disarmed: false,
    disarm: () => undefined as void,
  };
  Object.defineProperty(w, KEY, { value: state, enumerable: false, configurable: true });
  const natives: (() => void)[] = [];
  /** Per element, the listeners (or `on<type>` slots) it has for TYPES; an element counts while the set is not empty. */
  const marked = new WeakMap<Element, Set<unknown>>();
  const order: WeakRef<Element>[] = [];
  let pruneAt = 1024;
  const note = (el: Element, key: unknown): void => {
    if (state.disarmed) return;
    let set = marked.get(el);
    if (!set) {
      if (order.length >= MAX) return;
      set = new Set();
      marked.set(el, set);
      order.push(new WeakRef(el));
      if (order.length >= pruneAt) {
        // Drop elements the page let go of (a re-rendered list), so the answer stays proportional to the live page.
        const live = order.filter((r) => r.deref() !== undefined);
        order.length = 0;
        order.push(...live);
        pruneAt = Math.max(1024, live.length * 2);
      }
    }
    set.add(key);
  };
  const forget = (el: Element, key: unknown): void => {
    marked.get(el)?.delete(key);
  };
  // The prototype elements take addEventListener from: EventTarget.prototype in a browser (found by walking up from
  // HTMLElement.prototype, so a DOM whose elements use their own EventTarget class, as happy-dom does, works too).
  let P: EventTarget = HTMLElement.prototype;
  while (!Object.prototype.hasOwnProperty.call(P, 'addEventListener')) P = Object.getPrototypeOf(P) as EventTarget;
  const add = P.addEventListener;
  const remove = P.removeEventListener;
  const dispatch = P.dispatchEvent;
  natives.push(() => {
    P.addEventListener = add;
    P.removeEventListener = remove;
  });
  P.addEventListener = function (this: EventTarget, type: string, listener: unknown, options?: unknown) {
    try {
      if (listener && TYPES.has(type) && this instanceof Element) note(this, listener);
    } catch {
      // never break the page's own call
    }
    return (add as (...a: unknown[]) => void).call(this, type, listener, options);
  } as EventTarget['addEventListener'];
  P.removeEventListener = function (this: EventTarget, type: string, listener: unknown, options?: unknown) {
    try {
      if (listener && TYPES.has(type) && this instanceof Element) forget(this, listener);
    } catch {
      // never break the page's own call
    }
    return (remove as (...a: unknown[]) => void).call(this, type, listener, options);
  } as EventTarget['removeEventListener'];
  // `el.onclick = fn` makes no attribute the isolated world could read.
  for (const type of ['click', 'mousedown', 'pointerdown']) {
    const prop = `on${type}`;
    const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
    if (!d?.set || !d.configurable) continue;
    const set = d.set;
    natives.push(() => Object.defineProperty(HTMLElement.prototype, prop, d));
    Object.defineProperty(HTMLElement.prototype, prop, {
      ...d,
      set(this: HTMLElement, v: unknown) {
        try {
          if (typeof v === 'function') note(this, prop);
          else forget(this, prop);
        } catch {
          // never break the page's own assignment
        }
        set.call(this, v);
      },
    });
  }
  const answer = (e: Event) => {
    const reply = (e as CustomEvent).detail;
    if (typeof reply !== 'string' || !reply) return;
    dispatch.call(document, new CustomEvent(reply, { detail: state.mode }));
    for (const r of order) {
      const el = r.deref();
      if (!el || !el.isConnected || !marked.get(el)?.size) continue;
      const root = el.getRootNode();
      // A closed shadow root's element would reach the isolated world as its host: not reported.
      if (root instanceof ShadowRoot && root.mode !== 'open') continue;
      dispatch.call(el, new Event(reply, { bubbles: false, composed: true }));
    }
  };
  (add as (...a: unknown[]) => void).call(document, request, answer, true);
  natives.push(() => (remove as (...a: unknown[]) => void).call(document, request, answer, true));
  state.disarm = () => {
    state.disarmed = true;
    delete w[KEY];
    for (const restore of natives) restore();
    order.length = 0;
  };
  return true;
}
