/**
 * A command that ran directly (no model): what was typed and what ran, status, duration, and the output (help as
 * markdown, everything else as the formatted YAML/JSON text), clipped with "Show all". Errors name line and column
 * and point at the place in the input.
 */
import { useState } from 'preact/hooks';
import type { CommandCard, CommandStatus } from '../state/commands.ts';
import { formatDuration } from '../lib/displayFormat.ts';
import { useNow } from '../lib/useNow.ts';
import { Markdown } from './Markdown.tsx';
import { clip, linkDocs } from '../lib/commandText.ts';

const STATUS_LABEL: Record<CommandStatus, string> = {
  running: 'running',
  ok: 'done',
  error: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted (the panel closed)',
};

/** The input line an error points at, with a caret under its column (only for errors in what was typed). */
function Pointer({ card }: { card: CommandCard }) {
  const e = card.error;
  if (!e || e.label || e.line === null || e.column === null) return null;
  const line = card.text.split('\n')[e.line - 1];
  if (line === undefined) return null;
  return (
    <pre class="command-pointer" aria-hidden="true">
      {`${line}\n${' '.repeat(Math.max(0, e.column - 1))}^`}
    </pre>
  );
}

function Output({ card }: { card: CommandCard }) {
  const [all, setAll] = useState(false);
  const text = card.output ?? '';
  const clipped = clip(text);
  const shown = all || clipped === undefined ? text : `${clipped}…`;
  const markdown = card.kind === 'help' || card.source?.startsWith('ot.help(');
  return (
    <div class="command-output" data-testid="command-output">
      {markdown ? <Markdown text={linkDocs(shown)} /> : <pre tabIndex={0}>{shown}</pre>}
      {(clipped !== undefined || card.clipped) && (
        <p class="command-more">
          {clipped !== undefined && (
            <button type="button" class="link" onClick={() => setAll(!all)} data-testid="command-expand">
              {all ? 'Show less' : `Show all (${text.split('\n').length.toLocaleString()} lines)`}
            </button>
          )}
          {card.clipped && <span class="muted"> Output kept after a reload is cut to 20,000 characters.</span>}
        </p>
      )}
    </div>
  );
}

/** A snippet replay that stopped at a failing step (not a typo in the invocation). */
function stoppedReplay(card: CommandCard): boolean {
  const e = card.error;
  return !!e && e.kind === 'tool' && !!e.label?.startsWith("snippet '") && e.line !== null;
}

export function CommandCardView({
  card,
  onCancel,
  onContinue,
}: {
  card: CommandCard;
  onCancel(): void;
  /** #17: given when a model is configured; offered on a replay that stopped at a step. */
  onContinue?: (card: CommandCard) => void;
}) {
  const now = useNow(card.status === 'running');
  const time =
    card.status === 'running' ? formatDuration(Math.max(0, now - card.startedAt)) : formatDuration(card.durationMs);
  const e = card.error;
  const where = e && e.line !== null ? `line ${e.line}, column ${e.column ?? 1}` : '';
  const meta = [
    card.kind === 'snippet' ? 'snippet' : card.kind === 'help' ? 'help' : 'command',
    card.calls !== undefined ? `${card.calls} tool call${card.calls === 1 ? '' : 's'}` : '',
    card.format && card.kind !== 'help' ? card.format.toUpperCase() : '',
  ].filter(Boolean);
  return (
    <article
      class={`command-card ${card.status}`}
      data-testid="command-card"
      data-status={card.status}
      data-kind={card.kind ?? ''}
      aria-label={`Command ${card.text.split('\n')[0]}: ${STATUS_LABEL[card.status]}`}
    >
      <div class="command-head">
        <span
          class={`dot ${card.status === 'cancelled' || card.status === 'interrupted' ? 'error' : card.status}`}
          aria-hidden="true"
        />
        <code class="command-text" data-testid="command-text">
          {card.text}
        </code>
        <span class="tool-time" data-testid="command-duration">
          {card.status === 'ok' || card.status === 'error'
            ? time
            : `${STATUS_LABEL[card.status]}${time ? ` ${time}` : ''}`}
        </span>
        {card.status === 'running' && (
          <button
            type="button"
            class="link"
            onClick={onCancel}
            data-testid="command-cancel"
            aria-label="Cancel the command (Esc)"
          >
            Cancel
          </button>
        )}
      </div>
      {card.source && card.source !== card.text.trim() && (
        <p class="command-source" data-testid="command-source">
          ran <code>{card.source}</code>
        </p>
      )}
      {e && (
        <div class="command-error" role="alert">
          <p data-testid="command-error" data-line={e.line ?? ''} data-column={e.column ?? ''}>
            {where && <strong>{e.label ? `${e.label}, ${where}` : where}: </strong>}
            {where ? e.reason : e.message}
          </p>
          <Pointer card={card} />
          {onContinue && stoppedReplay(card) && (
            <p>
              <button type="button" data-testid="replay-continue" onClick={() => onContinue(card)}>
                Continue with the model
              </button>{' '}
              <span class="muted">it gets the snippet, the failed step, the error and the page as it is now</span>
            </p>
          )}
        </div>
      )}
      {card.output !== undefined && <Output card={card} />}
      {card.status !== 'running' && <p class="command-meta">{meta.join(' · ')} · no model</p>}
    </article>
  );
}
