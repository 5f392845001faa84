/**
 * "Repeat this" under a finished run (#46 part 4): the run's task, on a schedule. A name, when, and an optional watch;
 * `schedules.save` fixes the scope now from the task's words (as a typed task's), so an unattended repeat may do
 * only what this task asked for. The schedule then shows in Stats and files → Schedules.
 */
import { useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import type { ChatState } from '../state/chat.ts';
import { parseWatchCondition } from '../../shared/watchCondition.ts';
import { errorMessage } from '../../shared/errorMessage.ts';
import { lastUserText } from './SaveSnippet.tsx';

/** A run that ended well, with the user's words to repeat. */
export function canRepeat(chat: ChatState): boolean {
  return !!chat.conversationId && !chat.active && chat.status === 'completed' && !!lastUserText(chat).trim();
}

/** A schedule name from the task's first words: `check-the-price`. */
export function nameFromTask(task: string): string {
  const words = task.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.slice(0, 4).join('-').slice(0, 64) || 'repeat';
}

export function RepeatRun({ chat, client }: { chat: ChatState; client: PortClient }) {
  const task = lastUserText(chat).trim();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(() => nameFromTask(task));
  const [when, setWhen] = useState('every day 09:00');
  const [watch, setWatch] = useState('');
  const [said, setSaid] = useState<{ text: string; error: boolean }>();
  if (!open)
    return (
      <div class="save-snippet">
        <button type="button" class="link" data-testid="repeat-run" onClick={() => setOpen(true)}>
          Repeat this
        </button>
        <span class="muted"> — run this task on a schedule</span>
        {said && !said.error && (
          <span role="status" data-testid="repeat-run-saved">
            {' '}
            {said.text}
          </span>
        )}
      </div>
    );
  const save = async () => {
    try {
      if (watch.trim()) parseWatchCondition(watch);
      await client.request({
        type: 'schedules.save',
        scheduleId: name,
        when,
        task,
        ...(watch.trim() ? { watch: { condition: watch.trim() } } : {}),
      });
      setSaid({ text: `Scheduled “${name}” (${when}); see Stats and files → Schedules.`, error: false });
      setOpen(false);
    } catch (e) {
      setSaid({ text: errorMessage(e), error: true });
    }
  };
  return (
    <form
      class="save-snippet"
      aria-label="Repeat this task on a schedule"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Name <input data-testid="repeat-run-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>{' '}
      <label>
        When <input data-testid="repeat-run-when" value={when} onInput={(e) => setWhen(e.currentTarget.value)} />
      </label>{' '}
      <label>
        Watch (optional){' '}
        <input
          data-testid="repeat-run-watch"
          value={watch}
          placeholder="changed"
          onInput={(e) => setWatch(e.currentTarget.value)}
        />
      </label>{' '}
      <button type="submit" data-testid="repeat-run-confirm">
        Schedule
      </button>{' '}
      <button type="button" class="link" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {said?.error && (
        <p class="error-text" role="alert" data-testid="repeat-run-error">
          {said.text}
        </p>
      )}
    </form>
  );
}
