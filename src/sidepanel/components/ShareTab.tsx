/**
 * "Share this tab" (#27): the tab the user is looking at joins the open conversation's tab group, so Otto may read it
 * and act on it without asking. Un-sharing is dragging the tab out of the group in the tab strip.
 */
import { useState } from 'preact/hooks';
import { errorMessage } from '../../shared/errorMessage.ts';

export function ShareTab({ ready, onShare }: { ready: boolean; onShare(): Promise<string> }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const share = async () => {
    setBusy(true);
    try {
      setNote(await onShare());
    } catch (e) {
      setNote(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="share-tab">
      <button
        type="button"
        data-testid="share-tab"
        disabled={!ready || busy}
        title="Add the tab you are looking at to Otto's tab group; drag it out of the group to stop sharing"
        onClick={() => void share()}
      >
        Share this tab
      </button>
      <span role="status" data-testid="share-tab-status">
        {note}
      </span>
    </div>
  );
}
