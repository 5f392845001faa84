/** What an empty conversation shows: a few things to try, and the commands that run without the model. */
export function EmptyState({ onPick, onTry }: { onPick(text: string): void; onTry?(text: string): void }) {
  const ideas = ['What tabs do I have open?', 'Summarise this page', 'Close the tabs I have open twice'];
  return (
    <div class="empty" data-testid="empty-state">
      <p class="empty-title">Ask Otto about your tabs and pages.</p>
      <div class="chips">
        {ideas.map((t) => (
          <button type="button" key={t} onClick={() => onPick(t)}>
            {t}
          </button>
        ))}
      </div>
      {onTry && <CommandHint onTry={onTry} />}
    </div>
  );
}

/** Commands run directly, without the model or a key. */
export function CommandHint({ onTry }: { onTry(text: string): void }) {
  return (
    <p class="muted command-hint">
      Or run a tool directly, no model needed:{' '}
      <button type="button" class="link" onClick={() => onTry('/help ')}>
        /help
      </button>
      {' · '}
      <button type="button" class="link" onClick={() => onTry('ot.tools(info="list")')}>
        ot.tools(info="list")
      </button>
      {' · '}
      <button type="button" class="link" onClick={() => onTry('tabs.list()')}>
        tabs.list()
      </button>
    </p>
  );
}
