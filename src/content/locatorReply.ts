/**
 * `dom.locator` (#17): readable locators for an action's target(s). The worker asks just before each action (a click
 * may remove its button or navigate away), and a saved snippet replays the run with these instead of refs. A target
 * no locator can be made for gets none (null); this never fails the action.
 */
import type { ContentRequest, Locator, LocatorReply } from '../shared/contentMessages.ts';
import { locate, locatorFor, LOCATOR_KEYS } from './locator.ts';
import { registry } from './refs.ts';
import { maybeTarget, type Target } from './targets.ts';

async function locatorOf(t: Target): Promise<Locator | null> {
  try {
    const el = t.locator && !t.ref && !t.selector ? await locate(t.locator) : maybeTarget(t);
    const l = el ? await locatorFor(el) : undefined;
    if (!l) return null;
    const out: Locator = {};
    for (const k of LOCATOR_KEYS) if (l[k] !== undefined) out[k] = l[k];
    return out;
  } catch {
    return null;
  }
}

export async function locatorReply(req: Extract<ContentRequest, { type: 'dom.locator' }>): Promise<LocatorReply> {
  const reply: LocatorReply = { url: location.href };
  // Resolving is strict: LocatorError (none / several) reaches the caller.
  if (req.resolve && req.locator) return { ...reply, ref: registry.refFor(await locate(req.locator)) };
  if (req.fields) {
    const out: (Locator | null)[] = [];
    for (const f of req.fields) out.push(await locatorOf(f));
    reply.fieldLocators = out;
  } else {
    const l = await locatorOf(req);
    if (l) reply.locator = l;
  }
  return reply;
}
