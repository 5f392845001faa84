/**
 * Turning an action's target (`ref` or CSS `selector`) into one live element, with errors that say what to do next.
 */
import { checkSelector, deepQuerySliced, SEARCH_ELEMENTS, type DeepQuery } from './deepQuery.ts';
import { deepQueryAll } from './flatTree.ts';
import { locate, LocatorError, type Locator } from './locator.ts';
import { registry } from './refs.ts';
import { isElementVisible } from './visibility.ts';
import { named } from './describe.ts';

export interface Target {
  ref?: string;
  selector?: string;
  /** A readable locator (#17): exactly one element must match. */
  locator?: Locator;
}

export class ActionError extends Error {}

export function resolveTarget(t: Target): Element {
  if (t.ref) return registry.resolve(t.ref);
  if (t.selector) {
    // A selector resolveSelectorTarget could not resolve in slices: its error, not a second, synchronous search.
    const failed = unresolved.get(t);
    if (failed) throw failed;
    let found: Element[];
    try {
      found = deepQueryAll(t.selector);
    } catch {
      throw new ActionError(
        `Invalid CSS selector ${JSON.stringify(t.selector)}. Fix it, or use a ref from dom.snapshot / dom.find.`,
      );
    }
    if (!found.length)
      throw new ActionError(
        `No element matches selector ${JSON.stringify(t.selector)}. Check the selector, or find the element with dom.find (by text) or dom.snapshot.`,
      );
    // Prefer the first visible match: selectors often also match hidden templates or off-screen copies.
    const el = found.find((e) => isElementVisible(e)) ?? found[0]!;
    registry.refFor(el);
    return el;
  }
  // Locators are resolved to refs before a request runs (`resolveLocator`): resolving walks the page in slices.
  if (t.locator)
    throw unresolved.get(t) ?? new ActionError('The locator was not resolved before the action; act by ref.');
  throw new ActionError('Give a target: ref (from dom.snapshot) or selector (CSS).');
}

/** Optional target: the element, or undefined when none was given. */
export function maybeTarget(t: Target): Element | undefined {
  return t.ref || t.selector || t.locator ? resolveTarget(t) : undefined;
}

/**
 * A drag's destination named by a readable locator (`to_text`, #43): the ref of the one element it names, resolved as
 * a target's locator is (the same rules, the same errors), the error saying it is about the drop target.
 */
export async function dropTarget(locator: Locator, deadline: number): Promise<string> {
  const t: Target = { locator };
  try {
    await resolveLocator(t, deadline);
  } catch (e) {
    if (e instanceof LocatorError) throw new LocatorError(`The drop target: ${e.message}`, e.code);
    throw e;
  }
  return t.ref!;
}

/**
 * A selector target resolved in slices, to the element `resolveTarget` would pick (the first visible match, else the
 * first match), returned as a ref. On a big page the synchronous search held the page's main thread for seconds
 * (#24); handlers run this first so every action by selector is resolved this way.
 */
export async function selectorToRef(selector: string, deadline: number): Promise<string> {
  try {
    checkSelector(selector);
  } catch {
    throw new ActionError(
      `Invalid CSS selector ${JSON.stringify(selector)}. Fix it, or use a ref from dom.snapshot / dom.find.`,
    );
  }
  const r = await deepQuerySliced(selector, {
    limit: 1,
    pick: (el) => isElementVisible(el),
    deadline,
    lane: '',
    searchBudget: SEARCH_ELEMENTS,
  });
  const el = r.found[0];
  if (!el) throw new ActionError(notFound(selector, r));
  return registry.refFor(el);
}

/** Why a selector named no element: none on the page, or none in the part a big page's walk could search (#24). */
function notFound(selector: string, r: DeepQuery): string {
  const sel = JSON.stringify(selector);
  if (r.complete)
    return `No element matches selector ${sel}. Check the selector, or find the element with dom.find (by text) or dom.snapshot.`;
  if (r.searchedUpTo && r.byId)
    return `No element matches selector ${sel} in this big page's main document, nor in the shadow roots of its first ${r.searched.toLocaleString('en-US')} elements (up to ${named(r.searchedUpTo)}); shadow roots past them were not searched. Check the selector, or act by ref from dom.snapshot.`;
  if (r.searchedUpTo)
    return `No element matching selector ${sel} in the first ${r.searched.toLocaleString('en-US')} elements of this big page (up to ${named(r.searchedUpTo)}); the rest of the page was NOT searched. A selector whose last part has an #id is looked up in the whole page; or scroll to the element, take dom.snapshot and act by ref.`;
  return `No element matching selector ${sel} was found before the time limit on this big page. Narrow the selector, or find the element with dom.find.`;
}

/** Why a target's selector or locator could not be resolved, for the action that then asks for its element. */
const unresolved = new WeakMap<Target, Error>();

/**
 * A locator target resolved in slices, before the request runs, to the one element it names: the target then holds
 * its ref. When it names none or several, the LocatorError is thrown, and kept for `resolveTarget` to throw again.
 */
export async function resolveLocator(t: Target, deadline: number): Promise<void> {
  if (!t.locator || t.ref || t.selector) return;
  try {
    t.ref = registry.refFor(await locate(t.locator, deadline));
    delete t.locator;
  } catch (e) {
    unresolved.set(t, e instanceof Error ? e : new ActionError(String(e)));
    throw e;
  }
}

/**
 * A selector target resolved in slices, before the request runs (`selectorToRef`): the target then holds its ref.
 * When it fails, the error is kept for `resolveTarget` to throw again (a form field's failure is reported with the
 * field), so no synchronous search of the whole page follows a sliced one that found nothing (#24).
 */
export async function resolveSelectorTarget(t: Target, deadline: number): Promise<void> {
  if (!t.selector || t.ref) return;
  try {
    t.ref = await selectorToRef(t.selector, deadline);
    delete t.selector;
  } catch (e) {
    unresolved.set(t, e instanceof Error ? e : new ActionError(String(e)));
    throw e;
  }
}
