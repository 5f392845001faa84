/**
 * Closes #19's registration window. The page-start script (devCapture.iife.ts) is registered by URL path, so another
 * tab loading that very path while a watched tab loads gets it too. The worker sees that tab commit
 * (page/pageDevCapture.ts) and runs this in its MAIN world at once: the console/request capture and the listener
 * registry put the page's own functions back, drop what they recorded and stop answering, so nothing of Otto stays
 * in a page it is not working on and nothing recorded there can reach the worker; wrappers a page kept a reference to
 * only pass through. The order of the two is not guaranteed (measured: this injection can come first); see below.
 *
 * Injected with `executeScript({ func })`: self-contained, no imports.
 */
export function pageStartDisarm(): void {
  const w = window as unknown as Record<symbol, { disarm?: () => void } | undefined>;
  for (const name of ['otto.devlog', 'otto.listeners']) {
    const KEY = Symbol.for(name);
    const s = w[KEY];
    if (s?.disarm) {
      s.disarm();
      continue;
    }
    if (s) continue;
    // Not there (yet): this can run before the page-start script does. A marker keeps that script out, and goes
    // once the document is parsed (any document_start script has run by then), so nothing is left behind.
    Object.defineProperty(w, KEY, { value: { disarmed: true }, enumerable: false, configurable: true });
    const clear = () => {
      if ((w[KEY] as { disarmed?: boolean } | undefined)?.disarmed) delete w[KEY];
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', clear, { once: true });
    else clear();
  }
}
