/**
 * One tool call: qualified name, a one-line argument summary, live status (elapsed time while running), duration,
 * and on expand the pretty arguments and the result preview (each truncated, with "Show all").
 */
import { useState } from 'preact/hooks';
import type { ToolCardModel } from '../state/view.ts';
import { argsSummary, formatDuration, prettyJson, truncate } from '../lib/displayFormat.ts';
import { useNow } from '../lib/useNow.ts';
import { usePanelActions } from '../lib/panelActions.ts';

const PREVIEW = 600;

const STATUS_LABEL: Record<ToolCardModel['status'], string> = {
  pending: 'preparing',
  awaiting: 'waiting for approval',
  running: 'running',
  ok: 'done',
  error: 'failed',
  interrupted: 'interrupted',
};

function Clipped({ label, text }: { label: string; text: string }) {
  const [all, setAll] = useState(false);
  const shown = all ? { text, truncated: false } : truncate(text, PREVIEW);
  return (
    <div class="tool-section">
      <h4>{label}</h4>
      {/* Focusable: a long line scrolls sideways, and the keyboard must be able to scroll it (WCAG 2.1.1). */}
      <pre tabIndex={0}>{shown.text}</pre>
      {(shown.truncated || all) && (
        <button type="button" class="link" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
          <span class="visually-hidden">{` of the ${label.toLowerCase()}`}</span>
        </button>
      )}
    </div>
  );
}

export function ToolCard({ card }: { card: ToolCardModel }) {
  const [open, setOpen] = useState(false);
  const actions = usePanelActions();
  const now = useNow(card.status === 'running');
  const time =
    card.status === 'running' && card.startedAt
      ? formatDuration(Math.max(0, now - card.startedAt))
      : card.durationMs !== undefined
        ? formatDuration(card.durationMs)
        : '';
  const errorLine = card.status === 'error' && card.output ? truncate(card.output.split('\n')[0] ?? '', 160).text : '';
  return (
    <article class={`tool-card ${card.status}`} data-testid="tool-call" data-tool={card.name} data-status={card.status}>
      <button type="button" class="tool-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class={`dot ${card.status}`} aria-hidden="true" />
        {/* The spaces separate the words in the spoken name; a flex row does not render them. */}
        <code class="tool-name">{card.name}</code> <span class="tool-args">{argsSummary(card.args, 60)}</span>{' '}
        <span class="tool-time" data-testid="tool-duration">
          {card.status === 'ok' || card.status === 'error'
            ? time
            : `${STATUS_LABEL[card.status]}${time ? ` ${time}` : ''}`}
        </span>
        {/* The name is the visible text and then this (WCAG 2.5.3: a name that starts elsewhere than the words a
            person sees cannot be spoken to voice control): the status the dot shows only by colour, and the action. */}
        <span class="visually-hidden">{`, ${STATUS_LABEL[card.status]}. Show details`}</span>
      </button>
      {errorLine && <p class="tool-error">{errorLine}</p>}
      {card.handle && (
        <p class="tool-handle">
          Large result stored as{' '}
          <button
            type="button"
            class="link"
            data-testid="result-link"
            aria-label={`Open stored result ${card.handle}`}
            onClick={() => actions.openResult(card.handle!)}
          >
            <code>{card.handle}</code>
          </button>{' '}
          ·{' '}
          <button
            type="button"
            class="link"
            onClick={() => void navigator.clipboard.writeText(`ot.result(handle="${card.handle}")`)}
          >
            Copy ot.result call
          </button>
        </p>
      )}
      {open && (
        <div class="tool-body">
          <Clipped label="Arguments" text={prettyJson(card.args || '{}')} />
          {card.output !== undefined && <Clipped label="Result" text={prettyJson(card.output)} />}
        </div>
      )}
    </article>
  );
}
