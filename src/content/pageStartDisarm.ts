/**
 * Closes #19's registration window. The page-start script (devCapture.iife.ts) is registered by URL path, so another
 * tab loading that very path while a watched tab loads gets it too. The worker sees that tab commit
 * (page/devCapture.ts) and runs this in its MAIN world at once: the console/request capture and the listener
 * registry put the page's own functions back, drop what they recorded and stop answering, so nothing of Otto stays
 * in a page it is not working on and nothing recorded there can reach the worker. If it runs before the page-start
 * script (the order of the two is not guaranteed), it leaves a tombstone that keeps that script from installing (and
 * that script then removes the tombstone). Disarmed, the wrappers a page kept a reference to only pass through.
 *
 * Injected with `executeScript({ func })`: self-contained, no imports.
 */
export function pageStartDisarm(): void {
  const w = window as unknown as Record<symbol, { disarm?: () => void; disarmed?: boolean } | undefined>;
  for (const name of ['otto.devlog', 'otto.listeners']) {
    const KEY = Symbol.for(name);
    const s = w[KEY];
    if (s?.disarm) s.disarm();
    else if (!s) Object.defineProperty(w, KEY, { value: { disarmed: true }, enumerable: false, configurable: true });
  }
}
