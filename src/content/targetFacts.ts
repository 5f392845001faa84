/**
 * What an action's target is, as the approval card shows it (issue #31): role and accessible name as the outline
 * shows them, a link's absolute destination (the element's own, or the link it sits in: a click there follows it),
 * and for form controls the form's action and method (a submit button's own `formaction` wins, as in the browser).
 */
import type { DescribeReply } from '../shared/contentMessages.ts';
import { accessibleName, normalize, textOf, truncate } from './names.ts';
import { interactiveRole, roleOf } from './roles.ts';
import { registry } from './refs.ts';
import { actionFacts } from './actionFacts.ts';

function isSubmitter(el: Element): boolean {
  if (el instanceof HTMLButtonElement) return el.type === 'submit';
  return el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'image');
}

function formOf(el: Element): HTMLFormElement | null {
  if (
    el instanceof HTMLButtonElement ||
    el instanceof HTMLInputElement ||
    el instanceof HTMLSelectElement ||
    el instanceof HTMLTextAreaElement
  )
    return el.form;
  return null;
}

export function describeTarget(el: Element): DescribeReply {
  const role = interactiveRole(el, roleOf(el), undefined) ?? roleOf(el) ?? el.localName;
  const name = truncate(normalize(accessibleName(el, role) || textOf(el, 120)), 200);
  const out: DescribeReply = { role, name, ...actionFacts(el) };
  const ref = registry.peek(el);
  if (ref) out.ref = ref;
  const link = el.closest('a[href], area[href]');
  if (link) {
    try {
      out.href = new URL(link.getAttribute('href') ?? '', link.ownerDocument.baseURI).href.slice(0, 2000);
    } catch {
      out.href = (link.getAttribute('href') ?? '').slice(0, 2000);
    }
  }
  const form = formOf(el);
  if (form) {
    const submits = isSubmitter(el);
    // Read from attributes, never `form.action`/`form.method`: a page can shadow those with a field named
    // "action" (DOM clobbering). A submitter's own `formaction`/`formmethod` win, as in the browser.
    const own = (attr: string) => (submits && el.hasAttribute(attr) ? el.getAttribute(attr) : null);
    const action = own('formaction') ?? form.getAttribute('action') ?? '';
    const method = (own('formmethod') ?? form.getAttribute('method') ?? 'get').toLowerCase();
    try {
      out.formAction = new URL(action, el.ownerDocument.baseURI).href.slice(0, 2000);
    } catch {
      out.formAction = action.slice(0, 2000);
    }
    out.formMethod = method === 'post' || method === 'dialog' ? method.toUpperCase() : 'GET';
    if (submits) out.submits = true;
  }
  return out;
}

/**
 * Whether the element matches `selector`: an approval's check on the target itself ("is it a submit button?"),
 * which costs one match whatever the page's size, where listing the selector's matches is cut short on a big page
 * (#24, docs/decisions.md "#24 few-match walks").
 */
export function matchesSelector(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    throw new Error(`Invalid CSS selector ${JSON.stringify(selector)}.`);
  }
}
