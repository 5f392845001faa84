/** The value of `PanelActionsContext`: what the message list can do deep down (open a stored result, cancel a
 * command, continue a stopped replay with the model, #17). */
import { useMemo } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { PanelActions } from '../lib/panelActions.ts';
import type { DataTab } from '../components/DataView.tsx';
import type { PanelStore } from './store.ts';

export function useListActions(client: PortClient, store: PanelStore, openData: (tab: DataTab) => void): PanelActions {
  const { chat, setup, commands } = store;
  return useMemo<PanelActions>(
    () => ({
      openResult: (handle) => {
        openData('files');
        void store.data.viewResult(handle);
      },
      cancelCommand: () => void commands.cancel(),
      // #17: a stopped replay goes to the model with the snippet, the failed step, the error and a fresh snapshot.
      canContinue: !setup.needsKey && setup.config.status !== 'invalid',
      continueReplay: (card) => {
        const e = card.error;
        if (!e || e.line === null) return;
        void client
          .request({
            type: 'replay.context',
            text: card.text,
            line: e.line,
            error: e.reason,
            ...(chat.conversationId ? { conversationId: chat.conversationId } : {}),
          })
          .then((r) => store.send(r.message))
          .catch(() => undefined);
      },
    }),
    [store.data.viewResult, commands.cancel, setup.needsKey, setup.config.status, client, chat.conversationId, store],
  );
}
