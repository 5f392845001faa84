/**
 * "Save as snippet" under a finished run (#17): a name, then `ot.save_snippet(...)` runs as a command, so the saved
 * definition and the dropped calls show in a command card like any command's output. After "Continue with the model"
 * the name of the repaired snippet is filled in, and saving replaces it.
 */
import { useState } from 'preact/hooks';
import { formatCall } from '../../command/literals.ts';
import type { ChatState } from '../state/chat.ts';

const REPAIR = /<otto-replay name="([A-Za-z0-9_-]{1,64})">/;

export function lastUserText(chat: ChatState): string {
  for (let i = chat.items.length - 1; i >= 0; i--) {
    const it = chat.items[i]!.item as { type?: string; role?: string; content?: unknown };
    if (it.type === 'message' && it.role === 'user') {
      const c = it.content;
      return Array.isArray(c) ? c.map((p) => String((p as { text?: unknown }).text ?? '')).join('\n') : String(c ?? '');
    }
  }
  return '';
}

/** Shown when the conversation's last run completed and made tool calls. */
export function canSaveSnippet(chat: ChatState): boolean {
  if (!chat.conversationId || chat.active || chat.status !== 'completed') return false;
  return chat.items.some((r) => (r.item as { type?: string }).type === 'function_call');
}

export function SaveSnippet({ chat, onRun }: { chat: ChatState; onRun(command: string): void }) {
  const [open, setOpen] = useState(false);
  const repaired = REPAIR.exec(lastUserText(chat))?.[1];
  const [name, setName] = useState(repaired ?? '');
  const valid = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/.test(name);
  if (!open)
    return (
      <div class="save-snippet">
        <button type="button" class="link" data-testid="save-snippet" onClick={() => setOpen(true)}>
          {repaired ? `Save the repaired steps into $${repaired}` : 'Save as snippet'}
        </button>
        <span class="muted"> — replay this run with no model</span>
      </div>
    );
  const save = () => {
    if (!valid || !chat.conversationId) return;
    onRun(
      formatCall('ot.save_snippet', {
        name,
        conversation: chat.conversationId,
        ...(repaired && name === repaired ? { replace: true } : {}),
      }),
    );
    setOpen(false);
  };
  return (
    <form
      class="save-snippet"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label>
        Snippet name{' '}
        <input
          data-testid="save-snippet-name"
          value={name}
          placeholder="weekly_report"
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </label>{' '}
      <button type="submit" data-testid="save-snippet-confirm" disabled={!valid}>
        Save
      </button>{' '}
      <button type="button" class="link" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
