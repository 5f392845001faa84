/**
 * The user's answers to questions asked inside a running call (a code-mode program's steps), kept with that call
 * (`PendingCall.stepAnswers`). A program the data-flow guard stops at a step it could not ask about inline (the
 * page changed between the question and the check) pauses for a card on `ot.run` and, after a yes, runs again from
 * the start; its earlier steps then meet the same questions. The same card gets the same answer, unasked.
 *
 * A card is known by a digest of everything it shows (tool, validated arguments, target, flow): the same step on a
 * page that changed (another element under the ref, another destination) is a different card and is asked again.
 */
import type { PendingApproval, PendingCall } from '../storage/runRecords.ts';
import type { RunSession } from './session.ts';

/** What a card shows the user, without when or under which id it was asked. */
function shown(approval: PendingApproval): unknown {
  const { name, arguments: args, origin, target, flow, targetAsks } = approval;
  return { name, args, origin, target, flow, targetAsks };
}

/** The digest an answer is kept under (SHA-256 of the card as JSON, hex). */
export async function cardDigest(approval: PendingApproval): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(shown(approval)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function answersOf(session: RunSession, callId: string): NonNullable<PendingCall['stepAnswers']> {
  return session.state.pendingCalls.find((c) => c.callId === callId)?.stepAnswers ?? [];
}

/** How many questions this call's runs asked so far (the next inline card's number continues from there). */
export function askedSoFar(session: RunSession, callId: string): number {
  return answersOf(session, callId).length;
}

/** The answer the user gave to this card inside this call before, if any. */
export function earlierAnswer(session: RunSession, callId: string, card: string): boolean | undefined {
  return answersOf(session, callId).find((a) => a.card === card)?.allowed;
}

/** Keeps an answer with the call (inside the caller's commit). */
export function keepAnswer(s: { pendingCalls: PendingCall[] }, callId: string, card: string, allowed: boolean): void {
  const pc = s.pendingCalls.find((c) => c.callId === callId);
  if (pc) pc.stepAnswers = [...(pc.stepAnswers ?? []), { card, allowed }];
}
