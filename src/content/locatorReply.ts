/**
 * `dom.locator` (#17): readable locators for an action's target(s). The worker asks just before each action (a click
 * may remove its button or navigate away), and a saved snippet replays the run with these instead of refs. A target
 * no locator can be made for gets none (null); this never fails the action.
 */
import type { ContentRequest, Locator, LocatorReply } from '../shared/contentMessages.ts';
import { locate, locatorFor } from './locator.ts';
import { registry } from './refs.ts';
import { maybeTarget, type Target } from './targets.ts';

function locatorOf(t: Target): Locator | null {
  try {
    const el = maybeTarget(t);
    const l = el ? locatorFor(el) : undefined;
    if (!l) return null;
    const out: Locator = {};
    for (const k of ['role', 'name', 'label', 'text', 'selector'] as const) if (l[k] !== undefined) out[k] = l[k];
    return out;
  } catch {
    return null;
  }
}

export function locatorReply(req: Extract<ContentRequest, { type: 'dom.locator' }>): LocatorReply {
  const reply: LocatorReply = { url: location.href };
  // Resolving is strict: LocatorError (none / several) reaches the caller.
  if (req.resolve && req.locator) return { ...reply, ref: registry.refFor(locate(req.locator)) };
  if (req.fields) reply.fieldLocators = req.fields.map((f) => locatorOf(f));
  else {
    const l = locatorOf(req);
    if (l) reply.locator = l;
  }
  return reply;
}
