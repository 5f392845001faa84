/**
 * "Schedule a snippet" in the Schedules tab (#46 part 4): a saved snippet, its arguments as typed after `$name`
 * (`url="…" size=L`), when, and an optional watch → `schedules.save`. The snippet's recorded steps and the sites they
 * name are what the unattended run agrees to (the worker fixes them now).
 */
import { useEffect, useState } from 'preact/hooks';
import type { PortClient } from '../../port/portClient.ts';
import { parseWatchCondition } from '../../shared/watchCondition.ts';
import { parseSnippetInvocation } from '../../command/index.ts';
import { errorMessage } from '../../shared/errorMessage.ts';

export function ScheduleSnippet({ client, onSaved }: { client: PortClient; onSaved(): void }) {
  const [snippets, setSnippets] = useState<string[]>();
  const [name, setName] = useState('');
  const [snippet, setSnippet] = useState('');
  const [args, setArgs] = useState('');
  const [when, setWhen] = useState('every day 09:00');
  const [watch, setWatch] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    void client
      .request({ type: 'command.vocabulary' })
      .then((v) => {
        const names = Object.keys(v.snippets).sort();
        setSnippets(names);
        setSnippet((s) => s || names[0] || '');
      })
      .catch(() => setSnippets([]));
  }, [client]);
  if (!snippets?.length) return null;
  const save = async () => {
    try {
      if (watch.trim()) parseWatchCondition(watch);
      const inv = parseSnippetInvocation(`$${snippet} ${args}`);
      await client.request({
        type: 'schedules.save',
        scheduleId: name.trim() || snippet,
        when,
        snippet,
        args: inv.args,
        ...(watch.trim() ? { watch: { condition: watch.trim() } } : {}),
      });
      setError('');
      onSaved();
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <details class="schedule-new">
      <summary data-testid="schedule-snippet-open">Schedule a snippet</summary>
      <form
        class="schedule-edit"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label for="schedule-new-snippet">Snippet</label>
        <select
          id="schedule-new-snippet"
          data-testid="schedule-snippet-name"
          value={snippet}
          onChange={(e) => setSnippet(e.currentTarget.value)}
        >
          {snippets.map((s) => (
            <option key={s} value={s}>
              ${s}
            </option>
          ))}
        </select>
        <label for="schedule-new-args">Arguments (k=v, as after $name)</label>
        <input
          id="schedule-new-args"
          data-testid="schedule-snippet-args"
          value={args}
          onInput={(e) => setArgs(e.currentTarget.value)}
        />
        <label for="schedule-new-name">Schedule name (default: the snippet's)</label>
        <input
          id="schedule-new-name"
          data-testid="schedule-snippet-id"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <label for="schedule-new-when">When</label>
        <input
          id="schedule-new-when"
          data-testid="schedule-snippet-when"
          value={when}
          onInput={(e) => setWhen(e.currentTarget.value)}
        />
        <label for="schedule-new-watch">Watch (optional: below 40, changed, contains "shipped")</label>
        <input
          id="schedule-new-watch"
          data-testid="schedule-snippet-watch"
          value={watch}
          onInput={(e) => setWatch(e.currentTarget.value)}
        />
        {error && (
          <p class="error-text" role="alert" data-testid="schedule-snippet-error">
            {error}
          </p>
        )}
        <button type="submit" data-testid="schedule-snippet-save">
          Schedule
        </button>
      </form>
    </details>
  );
}
