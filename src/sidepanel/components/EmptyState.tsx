/** What an empty conversation shows: a few things to try. */
export function EmptyState({ onPick }: { onPick(text: string): void }) {
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
    </div>
  );
}
