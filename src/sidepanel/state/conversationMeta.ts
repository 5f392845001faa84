/**
 * What the transcript does not keep but the panel shows: per-turn usage (model, tokens, latency) and tool
 * durations. Cached per conversation in the extension's localStorage, so a reopened conversation shows them again.
 */
import type { TurnInfo } from './chat.ts';

export interface ConversationMeta {
  turns: Record<string, TurnInfo>;
  durations: Record<string, number>;
}

const PREFIX = 'otto.panel.meta.';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function loadMeta(conversationId: string): ConversationMeta {
  try {
    const raw = storage()?.getItem(PREFIX + conversationId);
    const v = raw ? (JSON.parse(raw) as Partial<ConversationMeta>) : {};
    return { turns: v.turns ?? {}, durations: v.durations ?? {} };
  } catch {
    return { turns: {}, durations: {} };
  }
}

export function saveMeta(conversationId: string, meta: ConversationMeta): void {
  if (!Object.keys(meta.turns).length && !Object.keys(meta.durations).length) return;
  try {
    storage()?.setItem(PREFIX + conversationId, JSON.stringify(meta));
  } catch {
    // Quota or disabled storage: the footers are a nicety, the transcript is intact.
  }
}

export function dropMeta(conversationId: string): void {
  storage()?.removeItem(PREFIX + conversationId);
}

const CURRENT = 'otto.panel.current';
/** Written by panels from before the input history (history.ts); only read now, to seed that history. */
const LAST_INPUT = 'otto.panel.lastInput';

export function loadCurrent(): string | undefined {
  return storage()?.getItem(CURRENT) ?? undefined;
}

export function saveCurrent(id: string | undefined): void {
  if (id) storage()?.setItem(CURRENT, id);
  else storage()?.removeItem(CURRENT);
}

export function loadLastInput(): string {
  return storage()?.getItem(LAST_INPUT) ?? '';
}
