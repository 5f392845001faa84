/**
 * Command cards: what the panel shows for input that ran directly through `command.run` (no model). They are panel
 * view state, not transcript: the model never sees them. Kept per conversation in localStorage (the cards of a panel
 * with no conversation open are a scratch list, adopted by the conversation the next chat message creates), each
 * placed after the transcript item that was last when it ran (`afterSeq`), so a reopened conversation shows them
 * where they were. Pure reducer + small storage helpers; unit-tested in test/sidepanel/commands.test.ts.
 */
import type { CommandRunReply } from '../../port/replies.ts';

export type CommandStatus = 'running' | 'ok' | 'error' | 'cancelled' | 'interrupted';

export interface CommandCardError {
  message: string;
  reason: string;
  kind: string;
  line: number | null;
  column: number | null;
  label: string | null;
}

export interface CommandCard {
  id: string;
  /** What the user typed. */
  text: string;
  /** What ran (a snippet's expansion, `ot.help(query="x")` for `/help x`). */
  source?: string;
  kind?: 'help' | 'snippet' | 'program';
  status: CommandStatus;
  startedAt: number;
  durationMs?: number;
  output?: string;
  format?: 'yaml' | 'json';
  calls?: number;
  error?: CommandCardError;
  /** The seq of the transcript's last item when the command ran (-1: before any). */
  afterSeq: number;
  /** The stored output was cut to MAX_STORED_OUTPUT characters. */
  clipped?: boolean;
}

/** The scratch list's key: cards run while no conversation is open. */
export const SCRATCH = '_scratch';
/** Cards kept per conversation (oldest dropped first). */
export const MAX_CARDS = 50;
/** Output characters kept in localStorage per card (the live card has all of it). */
export const MAX_STORED_OUTPUT = 20_000;

export interface CommandsState {
  /** The conversation whose cards show (SCRATCH when none is open). */
  current: string;
  lists: Record<string, CommandCard[]>;
}

export type CommandsAction =
  | { type: 'open'; key: string; cards: CommandCard[] }
  | { type: 'start'; key: string; card: CommandCard }
  | { type: 'finish'; key: string; id: string; reply: CommandRunReply }
  | { type: 'fail'; key: string; id: string; message: string }
  | { type: 'adopt'; to: string }
  | { type: 'clear'; key: string };

export function emptyCommands(): CommandsState {
  return { current: SCRATCH, lists: {} };
}

function update(s: CommandsState, key: string, id: string, fn: (c: CommandCard) => CommandCard): CommandsState {
  const list = s.lists[key];
  if (!list?.some((c) => c.id === id)) return s;
  return { ...s, lists: { ...s.lists, [key]: list.map((c) => (c.id === id ? fn(c) : c)) } };
}

/** A finished command's card. An aborted command is `cancelled`; an `Error: …` result is an error, as tool cards. */
export function finishCard(card: CommandCard, reply: CommandRunReply): CommandCard {
  if (reply.ok) {
    return {
      ...card,
      status: reply.output.startsWith('Error:') ? 'error' : 'ok',
      kind: reply.kind,
      source: reply.source,
      output: reply.output,
      format: reply.format,
      calls: reply.calls,
      durationMs: reply.durationMs,
    };
  }
  return {
    ...card,
    status: reply.error.kind === 'aborted' ? 'cancelled' : 'error',
    error: reply.error,
    durationMs: reply.durationMs,
  };
}

export function commandsReducer(s: CommandsState, a: CommandsAction): CommandsState {
  switch (a.type) {
    case 'open':
      // Cards this session already holds (a command still running there) win over what storage had.
      return { current: a.key, lists: { ...s.lists, [a.key]: s.lists[a.key] ?? a.cards } };
    case 'start': {
      const list = [...(s.lists[a.key] ?? []), a.card].slice(-MAX_CARDS);
      return { ...s, lists: { ...s.lists, [a.key]: list } };
    }
    case 'finish':
      return update(s, a.key, a.id, (c) => finishCard(c, a.reply));
    case 'fail':
      return update(s, a.key, a.id, (c) => ({
        ...c,
        status: 'error',
        error: { message: a.message, reason: a.message, kind: 'panel', line: null, column: null, label: null },
      }));
    case 'adopt': {
      // The scratch cards move to the conversation just created (they ran before its first item).
      const scratch = s.lists[SCRATCH] ?? [];
      const { [SCRATCH]: _drop, ...rest } = s.lists;
      return {
        current: s.current === SCRATCH ? a.to : s.current,
        lists: { ...rest, [a.to]: [...scratch.map((c) => ({ ...c, afterSeq: -1 })), ...(rest[a.to] ?? [])] },
      };
    }
    case 'clear': {
      const { [a.key]: _drop, ...rest } = s.lists;
      return { ...s, lists: rest };
    }
  }
}

export const currentCards = (s: CommandsState): CommandCard[] => s.lists[s.current] ?? [];
export const runningCard = (s: CommandsState): CommandCard | undefined =>
  Object.values(s.lists)
    .flat()
    .find((c) => c.status === 'running');

// ---- storage --------------------------------------------------------------------------------------------------

const PREFIX = 'otto.panel.commands.';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** Cards as stored: output clipped; a card still running when the panel closed comes back `interrupted`. */
export function forStorage(cards: readonly CommandCard[]): CommandCard[] {
  return cards.slice(-MAX_CARDS).map((c) => {
    const long = c.output !== undefined && c.output.length > MAX_STORED_OUTPUT;
    return {
      ...c,
      ...(c.status === 'running' ? { status: 'interrupted' as const } : {}),
      ...(long ? { output: c.output!.slice(0, MAX_STORED_OUTPUT), clipped: true } : {}),
    };
  });
}

export function loadCommands(key: string): CommandCard[] {
  try {
    const raw = storage()?.getItem(PREFIX + key);
    const v = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(v) ? (v as CommandCard[]) : [];
  } catch {
    return [];
  }
}

export function saveCommands(key: string, cards: readonly CommandCard[]): void {
  try {
    if (cards.length) storage()?.setItem(PREFIX + key, JSON.stringify(forStorage(cards)));
    else storage()?.removeItem(PREFIX + key);
  } catch {
    // Quota: the cards are a convenience; the live view still has them.
  }
}

export function dropCommands(key: string): void {
  storage()?.removeItem(PREFIX + key);
}
