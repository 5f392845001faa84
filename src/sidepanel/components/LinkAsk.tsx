/**
 * The question before a guarded answer link opens (issue #42 part 3, lib/answerLinkGuard.ts): the flow in plain
 * words — where the link goes, what it carries and from where — and the full address, with Open / Don't open.
 * Don't open opens nothing, and has the focus. The texts come from the answer and the pages: shown as text, never as HTML.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { LinkQuestion } from '../lib/answerLinkGuard.ts';

export function LinkAsk({ ask, onOpen, onCancel }: { ask: LinkQuestion; onOpen(): void; onCancel(): void }) {
  // The safe answer takes the focus: Enter on a link, then Enter again, opens nothing.
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), [ask]);
  return (
    <section class="link-ask" role="group" aria-label={ask.sentence} data-testid="link-ask">
      <p class="link-ask-title" data-testid="link-ask-sentence">
        {ask.sentence}
      </p>
      <p class="link-ask-url" data-testid="link-ask-url">
        {ask.url}
      </p>
      <div class="actions">
        <button type="button" data-testid="link-ask-open" onClick={onOpen}>
          Open
        </button>
        <button type="button" class="primary" data-testid="link-ask-cancel" ref={cancel} onClick={onCancel}>
          Don't open
        </button>
      </div>
    </section>
  );
}
