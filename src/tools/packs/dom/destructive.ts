/**
 * Which dom calls need the user's approval, decided per call (`needsApproval(args, ctx)`) — see README.md here.
 *
 * Decisions that only depend on the arguments are made at once (`submit: true`). The rest ask the page what the
 * target is, with the existing `dom.query` request: run a CSS selector that describes the dangerous kind of element
 * (password fields, submit buttons, links to another origin, fields inside a form) in the target's frame and see
 * whether the target's ref is among the matches. Refs are stable per element, so the element the query names is the
 * element the action will reach. No new content-script request, no snapshot side effects (query does not mark
 * elements as seen).
 *
 * When the page cannot answer because the action itself will fail the same way (restricted page, tab gone, stale
 * ref, no content script in a frame), the call is not flagged: the action then fails with that error. Any other
 * failure propagates, and the agent counts an error as "ask".
 */
import type { Locator } from '../../../shared/contentMessages.ts';
import type { PageApi } from '../../../page/api.ts';
import { errorMessage } from '../../../shared/errorMessage.ts';

export interface Target {
  ref?: string | undefined;
  selector?: string | undefined;
  /** #17: a readable locator (role and name, label, text); resolved to its one element's ref first. */
  locator?: Locator | undefined;
}

/** What dom.type reaches (the control itself, or a label wrapping it) when it types a password. */
export const PASSWORD_FIELDS =
  'input[type="password"], input[autocomplete$="password" i], label:has(input[type="password"])';

/** Controls whose (left) click submits a form. */
export const SUBMIT_CONTROLS = [
  'form button:not([type="button"]):not([type="reset"]):not([type="menu"])',
  'form input[type="submit"]',
  'form input[type="image"]',
  'button[form]:not([type="button"]):not([type="reset"]):not([type="menu"])',
  'input[type="submit"][form]',
  'input[type="image"][form]',
].join(', ');

/** Fields in which Enter submits the form (implicit submission). */
export const ENTER_SUBMITS = [
  'form input:not([type="button"]):not([type="reset"]):not([type="hidden"]):not([type="file"])',
  'input[form]:not([type="button"]):not([type="reset"]):not([type="hidden"]):not([type="file"])',
].join(', ');

/** With Control/Meta, Enter submits from a textarea on many sites (comment boxes). */
export const CTRL_ENTER_SUBMITS = 'form textarea, textarea[form]';

const ACTION_WILL_FAIL = new Set([
  'restricted',
  'gone',
  'stale-ref',
  'no-receiver',
  'action',
  'locator-none',
  'locator-many',
]);

/** Runs a page probe; failures that the action would hit as well count as "not destructive". */
async function probe(fn: () => Promise<boolean>): Promise<boolean> {
  try {
    return await fn();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && ACTION_WILL_FAIL.has(code)) return false;
    if (/Invalid CSS selector/i.test(errorMessage(e))) return false;
    throw e;
  }
}

/**
 * The ref (and frame) the action will reach: the given ref, or the first visible match of the selector; 'unknown'
 * when the selector matched nothing in the part of a big page its query searched (#24 few-match walks): the action's
 * own search may still reach an element, and this check has not seen it.
 */
async function targetRef(
  page: PageApi,
  tabId: number,
  target: Target,
): Promise<{ ref: string; frameId: number } | 'unknown' | undefined> {
  if (target.ref) return { ref: target.ref, frameId: page.frameOfRef(target.ref) };
  if (target.locator && page.locate) return { ref: await page.locate(tabId, target.locator), frameId: 0 };
  if (!target.selector) return undefined;
  const q = await page.query(tabId, target.selector, { frameId: 0, limit: 50 });
  const m = q.matches.find((x) => x.visible) ?? q.matches[0];
  if (!m) return q.partial ? 'unknown' : undefined;
  return { ref: m.ref, frameId: 0 };
}

/** Whether the target is one of the elements `selector` matches (in the target's frame). */
export async function targetMatches(page: PageApi, tabId: number, target: Target, selector: string): Promise<boolean> {
  return probe(async () => {
    const t = await targetRef(page, tabId, target);
    if (t === 'unknown') return true; // not seen, so not known to be safe: ask
    if (!t) return false;
    // The element itself answers, whatever the page's size: a query for the selector's matches is cut short on a
    // big page (#24), and a cut list would make every click there ask.
    const own = page.describe && (await page.describe(tabId, { ref: t.ref }, selector));
    if (own && typeof own.matches === 'boolean') return own.matches;
    const q = await page.query(tabId, selector, { frameId: t.frameId, limit: 500 });
    if (q.matches.some((m) => m.ref === t.ref)) return true;
    // More matches than one query returns, or a count that stopped early (#24): the target may be among the rest, so ask.
    return q.total > q.matches.length || q.partial === true;
  });
}

export function isPasswordField(page: PageApi, tabId: number, target: Target): Promise<boolean> {
  return targetMatches(page, tabId, target, PASSWORD_FIELDS);
}

/**
 * A click that submits a form. (Following a link to another site is no longer an approval of its own: the data-flow
 * guard judges what could leave with it — src/tools/guard/.)
 */
export async function clickIsDestructive(
  page: PageApi,
  tabId: number,
  target: Target,
  button: 'left' | 'right' | 'middle',
): Promise<boolean> {
  if (button !== 'left') return false; // a context menu or a middle click never submits
  return targetMatches(page, tabId, target, SUBMIT_CONTROLS);
}

/** dom.type(submit=true) presses Enter afterwards: a submission only in a field where Enter submits a form. */
export function typeSubmitIsDestructive(page: PageApi, tabId: number, target: Target): Promise<boolean> {
  return targetMatches(page, tabId, target, ENTER_SUBMITS);
}

/** The key of a combination (`Control+Enter` → `Enter`) and whether Control/Meta is held. */
export function splitKey(key: string): { key: string; ctrlOrMeta: boolean } {
  const parts = key.split('+');
  const last = key.endsWith('++') || key === '+' ? '+' : (parts.pop() ?? key);
  const mods = parts.map((p) => p.toLowerCase());
  return {
    key: last,
    ctrlOrMeta: mods.some((m) => ['control', 'ctrl', 'meta', 'cmd', 'command', 'controlormeta'].includes(m)),
  };
}

/**
 * Enter in a form field, or Enter/Space on a submit button, submits the form. Without a target the key goes to
 * the focused element, which the page cannot reliably name (`:focus` does not match while the side panel has
 * focus): Enter then counts as a submit — give a ref to avoid the question.
 */
export async function pressIsDestructive(page: PageApi, tabId: number, target: Target, key: string): Promise<boolean> {
  const k = splitKey(key);
  const enter = k.key === 'Enter';
  const space = k.key === ' ' || k.key === 'Space' || k.key === 'Spacebar';
  if (!enter && !space) return false;
  if (!target.ref && !target.selector && !target.locator) return enter;
  // Enter (or Space) on a link follows it like a click: whether data could leave with it is the data-flow guard's
  // question (a press on a link sends to the link's destination), as for a click (#13; #31's own rule gave way).
  const selectors = [SUBMIT_CONTROLS];
  if (enter) selectors.push(ENTER_SUBMITS);
  if (enter && k.ctrlOrMeta) selectors.push(CTRL_ENTER_SUBMITS);
  return targetMatches(page, tabId, target, selectors.join(', '));
}

/** Fields of dom.fill_form that type into a password field (checkbox values never do). */
export async function fillFormTypesPassword(
  page: PageApi,
  tabId: number,
  fields: readonly (Target & { value: unknown })[],
): Promise<boolean> {
  for (const f of fields) {
    if (typeof f.value !== 'string') continue;
    if (await isPasswordField(page, tabId, f)) return true;
  }
  return false;
}
