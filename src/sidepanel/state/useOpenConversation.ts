/**
 * Which conversation the panel shows: selecting one (remembered across panel reloads), loading its transcript with
 * the tools' display names, and starting fresh when it is gone.
 */
import { useCallback, useRef } from 'preact/hooks';
import type { RefObject } from 'preact';
import type { ResponseItem } from '../../models/events.ts';
import { parseAnswerLinks } from '../../shared/answerLink.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import type { ChatAction, PersistedItem } from './chat.ts';
import { loadMeta, saveCurrent } from './conversationMeta.ts';
import type { Request } from './request.ts';

export interface OpenConversation {
  /** The id selected last (set before its transcript arrives; a late reply for another id is dropped). */
  current: RefObject<string | undefined>;
  load(id: string): Promise<void>;
  /** Shows a conversation, or none (an empty chat). */
  select(id: string | undefined): void;
}

export function useOpenConversation(
  req: Request,
  dispatch: (a: ChatAction) => void,
  openCommands: (id: string | undefined) => void,
  setNotice: (n: string | undefined) => void,
): OpenConversation {
  const current = useRef<string | undefined>(undefined);
  const load = useCallback(
    async (id: string) => {
      dispatch({ type: 'loading', conversationId: id });
      try {
        const got = await req({ type: 'conversations.get', conversationId: id });
        const apiNames = [
          ...new Set(got.items.filter((x) => x.item.type === 'function_call').map((x) => String(x.item.name))),
        ];
        const names = apiNames.length ? await req({ type: 'tools.resolve', names: apiNames }) : {};
        if (current.current !== id) return;
        dispatch({
          type: 'loaded',
          conversationId: id,
          // Storage keeps each item as a plain record; what it stores are the Responses API items the loop wrote.
          items: got.items.map(({ seq, item, links }): PersistedItem => ({
            seq,
            item: item as ResponseItem,
            ...(links !== undefined ? { links: parseAnswerLinks(links) } : {}),
          })),
          state: got.state,
          unreadable: got.unreadable,
          active: got.active,
          names,
          ...loadMeta(id),
        });
      } catch (e) {
        if (current.current !== id) return;
        // The conversation is gone (deleted elsewhere): start fresh.
        current.current = undefined;
        saveCurrent(undefined);
        openCommands(undefined);
        dispatch({ type: 'clear' });
        setNotice(errorMessage(e));
      }
    },
    [req, openCommands, dispatch, setNotice],
  );
  const select = useCallback(
    (id: string | undefined) => {
      current.current = id;
      saveCurrent(id);
      setNotice(undefined);
      openCommands(id);
      if (id) void load(id);
      else dispatch({ type: 'clear' });
    },
    [load, openCommands, dispatch, setNotice],
  );
  return { current, load, select };
}
