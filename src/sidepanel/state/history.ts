/**
 * Input history for the composer: every message and command sent, newest last, kept in localStorage (last
 * MAX_HISTORY, consecutive duplicates folded). `recall` is the pure step behind ArrowUp/ArrowDown.
 */
import { loadLastInput } from './conversationMeta.ts';

export const MAX_HISTORY = 100;
const KEY = 'otto.panel.history';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function loadHistory(): string[] {
  try {
    const raw = storage()?.getItem(KEY);
    const v = raw ? (JSON.parse(raw) as unknown) : undefined;
    if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  } catch {
    // fall through
  }
  // Panels from before the history kept only the last input.
  const last = loadLastInput();
  return last ? [last] : [];
}

/** The history with `text` appended (a repeat of the newest entry is not added twice). */
export function appendHistory(history: readonly string[], text: string): string[] {
  if (!text || history[history.length - 1] === text) return [...history];
  return [...history, text].slice(-MAX_HISTORY);
}

export function pushHistory(text: string): void {
  try {
    storage()?.setItem(KEY, JSON.stringify(appendHistory(loadHistory(), text)));
  } catch {
    // Quota or disabled storage: recall is a convenience.
  }
}

export interface Recall {
  /** Index into the history, or null when the box holds the user's own draft. */
  index: number | null;
  text: string;
}

/**
 * One step through the history. `at` is where the box is now (null: the draft); `draft` is what the user had typed
 * before they started recalling (restored when they step past the newest entry). Returns undefined when there is
 * nowhere to go.
 */
export function recall(
  history: readonly string[],
  at: number | null,
  direction: 'up' | 'down',
  draft: string,
): Recall | undefined {
  if (!history.length) return undefined;
  if (direction === 'up') {
    const next = at === null ? history.length - 1 : at - 1;
    return next < 0 ? undefined : { index: next, text: history[next]! };
  }
  if (at === null) return undefined;
  const next = at + 1;
  return next >= history.length ? { index: null, text: draft } : { index: next, text: history[next]! };
}
