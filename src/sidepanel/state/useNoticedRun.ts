/**
 * Shows the run a schedule's notification was about (#46): a click on it opens the panel, and the worker leaves the
 * run in session storage (shared/noticedRun.ts). The panel takes it once, when it starts or while it is open, opens
 * that run's conversation, and clears it so a later reload shows what the user chose instead.
 */
import { useEffect } from 'preact/hooks';
import { NoticedRun, OPEN_RUN_KEY } from '../../shared/noticedRun.ts';

export function useNoticedRun(select: (conversationId: string) => void): void {
  useEffect(() => {
    const session = globalThis.chrome?.storage?.session;
    if (!session) return; // outside the extension (unit tests of other parts)
    const take = (value: unknown) => {
      const run = NoticedRun.safeParse(value);
      if (!run.success) return;
      void session.remove(OPEN_RUN_KEY);
      if (run.data.conversationId) select(run.data.conversationId);
    };
    void session.get(OPEN_RUN_KEY).then((got) => take(got[OPEN_RUN_KEY]));
    const onChanged = (changes: Record<string, chrome.storage.StorageChange>) => {
      if (OPEN_RUN_KEY in changes) take(changes[OPEN_RUN_KEY]!.newValue);
    };
    session.onChanged.addListener(onChanged);
    return () => session.onChanged.removeListener(onChanged);
  }, [select]);
}
