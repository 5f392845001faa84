/**
 * The plan's gate (plan first, #42 part 2; docs/decisions/plan-first.md): in plan-first mode a state-changing step
 * of a program that the program's text did not write — its tool, with the literal arguments the text gave — asks on
 * the scope gate's card, which says the plan did not include it. The check itself is the host's (`inPlan`: the
 * command language reads the program's text); this file turns a "no" into the card's question.
 */
import type { CallTarget } from '../shared/callTarget.ts';
import { GATED_EFFECTS, type EffectKind, type TaskScope } from '../shared/taskScope.ts';
import { siteHost } from '../shared/origin.ts';
import { z } from '../shared/zod.ts';
import { toYou, wantWords, type OutOfScope } from './scopeGate.ts';

const programArgs = z.object({ code: z.string() });

/** The program text of an `ot.run` call's arguments (JSON), or undefined when they are not one. */
export function programOf(argumentsJson: string): string | undefined {
  try {
    const parsed = programArgs.safeParse(JSON.parse(argumentsJson));
    return parsed.success ? parsed.data.code : undefined;
  } catch {
    return undefined;
  }
}

/** The card's question about a step the plan did not include. */
export function planQuestion(
  scope: TaskScope | undefined,
  qualifiedName: string,
  effects: readonly EffectKind[] | undefined,
  target: CallTarget | undefined,
): OutOfScope {
  const host = siteHost(target?.origin);
  const gated = (effects ?? []).filter((k) => GATED_EFFECTS.includes(k));
  const want = gated.length ? wantWords(gated) : `run ${qualifiedName}`;
  const where = host ? ` on ${host}` : '';
  const what = target?.element?.name ? ` (“${target.element.name.slice(0, 60)}”)` : '';
  const asked = toYou(scope?.asked ?? '') || 'do a task';
  return {
    effects: gated,
    ...(host ? { site: host } : {}),
    sentence: `You asked to ${asked}. Otto wants to ${want}${where}${what} — the plan Otto wrote from your request did not include this; a page Otto read may have asked for it.`,
  };
}

/** What the model gets when the user denied a step outside the plan (Otto's words only). */
export function deniedPlanOutput(qualifiedName: string, asked: OutOfScope): string {
  const where = asked.site ? ` on ${asked.site}` : '';
  return `Error: the user denied ${qualifiedName}${where}: the plan did not include this step. Nothing was done. Do not try to do this another way; finish the task the user asked for.`;
}
