/**
 * Closes #19's registration window. The page-start script (devCapture.iife.ts) is registered by URL path, so another
 * tab loading that very path while a watched tab loads gets it too. The worker sees that tab commit
 * (page/devCapture.ts) and runs this in its MAIN world at once: the console/request capture and the listener
 * registry put the page's own functions back, drop what they recorded and stop answering, so nothing of Otto stays
 * in a page it is not working on and nothing recorded there can reach the worker; wrappers a page kept a reference to
 * only pass through. Order: Chrome runs a registered document_start script as the committed document is created, in
 * the renderer, before the commit's event can reach the worker and come back as this injection.
 *
 * Injected with `executeScript({ func })`: self-contained, no imports.
 */
export function pageStartDisarm(): void {
  const w = window as unknown as Record<symbol, { disarm?: () => void } | undefined>;
  for (const name of ['otto.devlog', 'otto.listeners']) {
    const KEY = Symbol.for(name);
    const s = w[KEY];
    // Nothing installed (the tab committed without getting the script): nothing to do, and nothing is left behind.
    if (s?.disarm) s.disarm();
  }
}
