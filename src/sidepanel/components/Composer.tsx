/**
 * The message box. Enter sends, Shift+Enter adds a line; ArrowUp/ArrowDown step through the history of messages
 * and commands (from an empty box, or while the box holds an unedited recalled entry). Input that is a command runs
 * directly, without the model — a hint under the box says so while typing. While a run or a command is active the
 * Send button becomes Stop (Esc stops too, see App).
 */
import type { Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { loadHistory, pushHistory, recall } from '../state/history.ts';
import { MESSAGE_MAX_CHARS, messageTooLong } from '../../shared/limits.ts';

export interface ComposerProps {
  inputRef: Ref<HTMLTextAreaElement>;
  ready: boolean;
  active: boolean;
  /** A command (not a model run) is what is active. */
  commandRunning?: boolean;
  /** Text put in from elsewhere (help's "Try it"). */
  fill?: { text: string; n: number } | undefined;
  looksLikeCommand?(text: string): boolean;
  onSend(text: string): Promise<boolean>;
  onStop(): void;
}

export function Composer({
  inputRef,
  ready,
  active,
  commandRunning,
  fill,
  looksLikeCommand,
  onSend,
  onStop,
}: ComposerProps) {
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  // Where the box is in the history (null: the user's own draft), and that draft while recalling.
  const at = useRef<number | null>(null);
  const stash = useRef('');

  useEffect(() => {
    if (!fill) return;
    at.current = null;
    setDraft(fill.text);
    const el = (inputRef as { current?: HTMLTextAreaElement | null }).current;
    setTimeout(() => {
      el?.focus();
      el?.setSelectionRange(fill.text.length, fill.text.length);
    }, 0);
  }, [fill?.n]);

  const submit = async () => {
    const text = draft.trim();
    if (!text || sending || active || !ready) return;
    // Over the limit: refused here, before any request, and the text stays in the box.
    if (text.length > MESSAGE_MAX_CHARS) return;
    setSending(true);
    pushHistory(text);
    at.current = null;
    setDraft('');
    const ok = await onSend(text);
    if (!ok) setDraft(text);
    setSending(false);
  };

  const step = (direction: 'up' | 'down'): boolean => {
    const history = loadHistory();
    const recalled = at.current !== null && history[at.current] === draft;
    if (!(draft === '' || recalled)) return false;
    if (at.current === null) stash.current = draft;
    const next = recall(history, recalled ? at.current : null, direction, stash.current);
    if (!next) return false;
    at.current = next.index;
    setDraft(next.text);
    return true;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void submit();
    } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.shiftKey && !e.altKey) {
      if (step(e.key === 'ArrowUp' ? 'up' : 'down')) e.preventDefault();
    }
  };

  const tooLong = draft.length > MESSAGE_MAX_CHARS && draft.trim().length > MESSAGE_MAX_CHARS;
  // Classifying a huge text on every keystroke is wasted work: it cannot be sent anyway.
  const command = !tooLong && !!draft.trim() && !!looksLikeCommand?.(draft);
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div class="composer-box">
        <textarea
          ref={inputRef}
          data-testid="chat-input"
          data-mode={command ? 'command' : 'chat'}
          aria-label="Message Otto"
          aria-describedby="composer-hint"
          placeholder={
            active
              ? commandRunning
                ? 'Running the command… (Esc to cancel)'
                : 'Otto is working… (Esc to stop)'
              : 'Message Otto, or /help'
          }
          title="Enter sends · Shift+Enter adds a line · ↑/↓ go through what you sent · Esc stops"
          rows={2}
          value={draft}
          onInput={(e) => {
            at.current = null;
            setDraft((e.target as HTMLTextAreaElement).value);
          }}
          onKeyDown={onKeyDown}
        />
        {tooLong ? (
          <p id="composer-hint" class="composer-hint error-text" data-testid="composer-limit" role="alert">
            {messageTooLong(draft.trim().length)}
          </p>
        ) : (
          <p
            id="composer-hint"
            class={`composer-hint ${command ? 'on' : ''}`}
            data-testid="composer-hint"
            aria-live="polite"
          >
            {command ? 'Command: runs directly, without the model' : ''}
          </p>
        )}
      </div>
      {active ? (
        <button
          type="button"
          class="danger"
          data-testid="chat-stop"
          onClick={onStop}
          aria-label={commandRunning ? 'Cancel the command (Esc)' : 'Stop (Esc)'}
        >
          Stop
        </button>
      ) : (
        <button
          type="submit"
          class="primary"
          data-testid="chat-send"
          disabled={!draft.trim() || !ready || sending || tooLong}
          aria-label={command ? 'Run command' : 'Send'}
        >
          {command ? 'Run' : 'Send'}
        </button>
      )}
    </form>
  );
}
