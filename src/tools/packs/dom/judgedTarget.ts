/**
 * The element a dom call is judged by (#42: its effect is read from it, and the approval card shows it), named by the
 * same arguments the tool itself acts on: a ref, a selector, or a readable locator (role and name, label, text…).
 * A locator must not be a way round the question, so it is built here exactly as the tool builds it.
 */
import type { TargetElement } from '../../../shared/callTarget.ts';
import { locatorArgs, target, type LocatorArgs } from './domToolKit.ts';

/** Tools whose `text` names the element acted on (elsewhere `text` is what is typed). */
const TEXT_NAMES_TARGET = new Set(['click', 'hover', 'drag', 'select_text']);

type Where = ReturnType<typeof target>;

/**
 * The call's own target, except dom.fill_form's, whose submit is Enter in its last field (that field's form says
 * whether it sends or searches). Arguments the tool would refuse give no target: it refuses them when it runs.
 */
export function judgedTarget(tool: string, args: Record<string, unknown>): Where {
  try {
    if (tool === 'fill_form') {
      const last = Array.isArray(args.fields) ? (args.fields.at(-1) as LocatorArgs | undefined) : undefined;
      return last ? target(locatorArgs(last, false)) : {};
    }
    return target(locatorArgs(args as LocatorArgs, TEXT_NAMES_TARGET.has(tool)));
  } catch {
    return {};
  }
}

/** dom.drag's destination element (to_ref, to_selector or to_text), when it drops onto one. */
export function dropTarget(args: Record<string, unknown>): Where {
  if (typeof args.to_ref === 'string') return { ref: args.to_ref };
  if (typeof args.to_selector === 'string') return { selector: args.to_selector };
  if (typeof args.to_text === 'string') return { locator: { text: args.to_text } };
  return {};
}

/** What the classifier reads of a drop destination (and the card shows): its role and words. */
export function dropFacts(to: TargetElement): NonNullable<TargetElement['dropOnto']> {
  return {
    role: to.role,
    name: to.name,
    ...(to.text ? { text: to.text } : {}),
    ...(to.hints ? { hints: to.hints } : {}),
  };
}
