/** The tool cards of one model turn, collapsible as a group. */
import { useState } from 'preact/hooks';
import type { ToolCardModel } from '../state/view.ts';
import type { TurnInfo } from '../state/chat.ts';
import { ToolCard } from './ToolCard.tsx';
import { turnDetail } from './Messages.tsx';

function summary(cards: ToolCardModel[]): string {
  const count = (s: ToolCardModel['status']) => cards.filter((c) => c.status === s).length;
  const parts = [`${cards.length} tool calls`];
  if (count('ok')) parts.push(`${count('ok')} ok`);
  if (count('error')) parts.push(`${count('error')} failed`);
  const busy = cards.length - count('ok') - count('error');
  if (busy) parts.push(`${busy} in progress`);
  return parts.join(' · ');
}

export function ToolGroup({ cards, turn }: { cards: ToolCardModel[]; turn?: TurnInfo | undefined }) {
  const [collapsed, setCollapsed] = useState(false);
  const many = cards.length > 1;
  return (
    // A tool turn's usage is on hover: the chat stays quiet, the numbers are one pointer away.
    <section
      class="tool-group"
      aria-label="Tool calls"
      data-testid="tool-group"
      title={turn ? turnDetail(turn) : undefined}
    >
      {many && (
        <button type="button" class="group-head" aria-expanded={!collapsed} onClick={() => setCollapsed(!collapsed)}>
          <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> {summary(cards)}
        </button>
      )}
      {!(many && collapsed) && cards.map((c) => <ToolCard key={c.callId} card={c} />)}
    </section>
  );
}
