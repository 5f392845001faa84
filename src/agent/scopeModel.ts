/**
 * The task's scope by one small model call (issue #42, `agent.task_scope: model`): the request holds the user's own
 * messages and nothing else — no page content, no tool output, no assistant words, no tools — and the answer is typed
 * JSON (zod) of the kinds of effect and the sites the words ask for. The result is merged with the rules' scope by
 * union (docs/decisions/task-scope.md): both read only the user's words, so neither can be steered by a page; the
 * model adds what the rules' word lists miss ("let Omar know" → send), the rules keep what a model call cannot
 * promise (an answer at all, the same answer twice). A call that fails, times out or answers off-schema leaves the
 * rules' scope as it is.
 */
import { z } from '../shared/zod.ts';
import type { ModelClient, ModelRequest, ResponseItem } from '../models/events.ts';
import { EFFECT_KINDS, GATED_EFFECTS, type EffectKind, type TaskScope } from '../shared/taskScope.ts';
import { userMessage } from './transcript.ts';

/** What the model is told: the kinds, in words, and the JSON it must answer with. */
export const SCOPE_INSTRUCTIONS = [
  'You read a user’s request to a browser agent and say what it asks the agent to commit. Answer JSON only:',
  '{"effects":[...],"sites":[...]}. effects: any of send (send, post, reply, comment, message, submit, book),',
  'buy (buy, order, pay, check out, renew), delete (delete, remove, archive, cancel, clear, empty),',
  'settings (turn on/off, change a setting, unsubscribe, block, mute), download (download, export, save a file),',
  'only where the request asks for it; a question, a how-to or "don’t do it" asks none. sites: domain names the',
  'request names (e.g. mail.example.com), else []. Reading, searching and typing are always allowed: do not list them.',
].join('\n');

/** How long the scope call may take before the rules' scope is used alone. */
export const SCOPE_TIMEOUT_MS = 15_000;

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$/;

const ScopeAnswer = z.strictObject({
  effects: z.array(z.enum(EFFECT_KINDS)).max(EFFECT_KINDS.length),
  sites: z.array(z.string().max(253)).max(20),
});
export type ScopeAnswer = { effects: EffectKind[]; sites: string[] };

/** The request: the user's messages only, no tools. */
export function scopeRequest(userTexts: readonly string[], signal?: AbortSignal): ModelRequest {
  return {
    input: userTexts.map((t) => userMessage(t)),
    instructions: SCOPE_INSTRUCTIONS,
    tools: [],
    ...(signal ? { signal } : {}),
  };
}

/** The answer's text parsed and checked: committing kinds and host names only; anything else is an error. */
export function parseScopeAnswer(text: string): ScopeAnswer | { error: string } {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { error: 'the scope answer was not JSON' };
  }
  const parsed = ScopeAnswer.safeParse(raw);
  if (!parsed.success) return { error: 'the scope answer did not have the expected shape' };
  const effects = parsed.data.effects.filter((k) => GATED_EFFECTS.includes(k));
  const sites = parsed.data.sites.map((s) => s.toLowerCase().replace(/^www\./, '')).filter((s) => HOST.test(s));
  return { effects, sites };
}

/** The text of one completed message item. */
function itemText(item: ResponseItem): string {
  if (item.type !== 'message' || !Array.isArray(item.content)) return '';
  return (item.content as { text?: unknown }[]).map((c) => (typeof c.text === 'string' ? c.text : '')).join('');
}

/** One scope request to the model; its answer, or why there is none. */
export async function scopeByModel(
  model: ModelClient,
  userTexts: readonly string[],
  signal?: AbortSignal,
): Promise<ScopeAnswer | { error: string }> {
  let deltas = '';
  let done = '';
  try {
    for await (const ev of model.stream(scopeRequest(userTexts, signal))) {
      if (ev.type === 'text.delta') deltas += ev.delta;
      else if (ev.type === 'item.done') done += itemText(ev.item);
      else if (ev.type === 'failed') return { error: `the scope request failed: ${ev.error.message}` };
    }
  } catch {
    return { error: 'the scope request failed' };
  }
  return parseScopeAnswer(done || deltas);
}

/** The rules' scope widened by the model's answer (union; `asked` stays the rules'). */
export function mergeModelScope(rules: TaskScope, answer: ScopeAnswer): TaskScope {
  const effects = EFFECT_KINDS.filter((k) => rules.effects.includes(k) || answer.effects.includes(k));
  return { ...rules, effects, sites: [...new Set([...rules.sites, ...answer.sites])] };
}
