/**
 * The command slice of the panel store: runs input through `command.run` (no model, no key), keeps the cards per
 * conversation (state/commands.ts) and in localStorage, cancels with `command.cancel`, and caches the command
 * vocabulary so the composer can tell a command from a message while the user types.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import type { CommandVocabularyReply } from '../../port/replies.ts';
import { classifyInput } from '../../command/classify.ts';
import {
  SCRATCH,
  commandsReducer,
  currentCards,
  dropCommands,
  loadCommands,
  runningCard,
  saveCommands,
  type CommandCard,
  type CommandsState,
} from './commands.ts';
import type { Request } from './request.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

export interface CommandsSlice {
  cards: CommandCard[];
  running?: CommandCard | undefined;
  vocabulary?: CommandVocabularyReply | undefined;
  /** Local classification with the cached vocabulary (the composer's hint); 'chat' until it is known. */
  looksLikeCommand(text: string): boolean;
  /** The worker's classification (current config), falling back to the local one. */
  classify(text: string): Promise<'command' | 'chat'>;
  run(text: string, context: { conversationId?: string | undefined; afterSeq: number }): Promise<void>;
  cancel(): Promise<void>;
  /** Shows the cards of a conversation (undefined: the scratch list). */
  open(conversationId: string | undefined): void;
  /** Moves the scratch cards to a conversation just created for a chat message. */
  adopt(conversationId: string): void;
  forget(conversationId: string | undefined): void;
  refreshVocabulary(): Promise<void>;
}

const newId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

function initial(): CommandsState {
  return { current: SCRATCH, lists: { [SCRATCH]: loadCommands(SCRATCH) } };
}

export function useCommands(req: Request): CommandsSlice {
  const [state, dispatch] = useReducer(commandsReducer, undefined, initial);
  const [vocabulary, setVocabulary] = useState<CommandVocabularyReply | undefined>();
  const stateRef = useRef(state);
  stateRef.current = state;
  const active = useRef<{ runId: string } | undefined>(undefined);
  const saved = useRef<CommandsState['lists']>(state.lists);

  // Persist every list that changed (by identity).
  useEffect(() => {
    for (const [key, list] of Object.entries(state.lists)) if (saved.current[key] !== list) saveCommands(key, list);
    saved.current = state.lists;
  }, [state.lists]);

  const refreshVocabulary = useCallback(async () => {
    try {
      setVocabulary(await req({ type: 'command.vocabulary' }));
    } catch {
      // The hint waits for the next refresh; classification asks the worker anyway.
    }
  }, [req]);

  const looksLikeCommand = useCallback(
    (text: string) => !!vocabulary && !!text.trim() && classifyInput(text, vocabulary) === 'command',
    [vocabulary],
  );

  const classify = useCallback(
    async (text: string) => {
      try {
        return (await req({ type: 'command.classify', text })).kind;
      } catch {
        return looksLikeCommand(text) ? 'command' : 'chat';
      }
    },
    [req, looksLikeCommand],
  );

  const run = useCallback(
    async (text: string, context: { conversationId?: string | undefined; afterSeq: number }) => {
      const key = stateRef.current.current;
      const id = newId();
      const runId = `cmd-${id}`;
      dispatch({
        type: 'start',
        key,
        card: { id, text, status: 'running', startedAt: Date.now(), afterSeq: context.afterSeq },
      });
      active.current = { runId };
      try {
        const reply = await req({
          type: 'command.run',
          text,
          runId,
          ...(context.conversationId ? { conversationId: context.conversationId } : {}),
        });
        dispatch({ type: 'finish', key, id, reply });
      } catch (e) {
        dispatch({ type: 'fail', key, id, message: errorMessage(e) });
      } finally {
        if (active.current?.runId === runId) active.current = undefined;
      }
      // A command may change what counts as one (ot.reload after editing aliases or snippets).
      void refreshVocabulary();
    },
    [req, refreshVocabulary],
  );

  const cancel = useCallback(async () => {
    const a = active.current;
    if (a) await req({ type: 'command.cancel', runId: a.runId }).catch(() => undefined);
  }, [req]);

  const open = useCallback((conversationId: string | undefined) => {
    const key = conversationId ?? SCRATCH;
    dispatch({ type: 'open', key, cards: loadCommands(key) });
  }, []);

  const adopt = useCallback((conversationId: string) => {
    dropCommands(SCRATCH);
    dispatch({ type: 'adopt', to: conversationId });
  }, []);

  const forget = useCallback((conversationId: string | undefined) => {
    const key = conversationId ?? SCRATCH;
    dropCommands(key);
    dispatch({ type: 'clear', key });
  }, []);

  return useMemo(
    () => ({
      cards: currentCards(state),
      running: runningCard(state),
      vocabulary,
      looksLikeCommand,
      classify,
      run,
      cancel,
      open,
      adopt,
      forget,
      refreshVocabulary,
    }),
    [state, vocabulary, looksLikeCommand, classify, run, cancel, open, adopt, forget, refreshVocabulary],
  );
}
