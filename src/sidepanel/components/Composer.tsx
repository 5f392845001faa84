/**
 * The message box. Enter sends, Shift+Enter adds a line, ArrowUp in an empty box recalls the last message; while a
 * run is active the Send button becomes Stop (Esc stops too, see App).
 */
import type { Ref } from 'preact';
import { useState } from 'preact/hooks';
import { loadLastInput, saveLastInput } from '../state/meta.ts';

export interface ComposerProps {
  inputRef: Ref<HTMLTextAreaElement>;
  ready: boolean;
  active: boolean;
  onSend(text: string): Promise<boolean>;
  onStop(): void;
}

export function Composer({ inputRef, ready, active, onSend, onStop }: ComposerProps) {
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);

  const submit = async () => {
    const text = draft.trim();
    if (!text || sending || active || !ready) return;
    setSending(true);
    saveLastInput(text);
    setDraft('');
    const ok = await onSend(text);
    if (!ok) setDraft(text);
    setSending(false);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'ArrowUp' && !draft) {
      const last = loadLastInput();
      if (last) {
        e.preventDefault();
        setDraft(last);
      }
    }
  };

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={inputRef}
        data-testid="chat-input"
        aria-label="Message Otto"
        placeholder={active ? 'Otto is working… (Esc to stop)' : 'Message Otto'}
        title="Enter sends · Shift+Enter adds a line · ↑ recalls your last message · Esc stops"
        rows={2}
        value={draft}
        onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
        onKeyDown={onKeyDown}
      />
      {active ? (
        <button type="button" class="danger" data-testid="chat-stop" onClick={onStop} aria-label="Stop (Esc)">
          Stop
        </button>
      ) : (
        <button
          type="submit"
          class="primary"
          data-testid="chat-send"
          disabled={!draft.trim() || !ready || sending}
          aria-label="Send"
        >
          Send
        </button>
      )}
    </form>
  );
}
