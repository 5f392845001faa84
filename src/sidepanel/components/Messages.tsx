/** User and assistant messages, reasoning summaries, Otto's notes, and the per-turn usage line. */
import type { TurnInfo } from '../state/chat.ts';
import type { AnswerLink } from '../../shared/answerLink.ts';
import { Markdown } from './Markdown.tsx';
import { formatDuration, formatTokens } from '../lib/displayFormat.ts';

export function UserMessage({ text }: { text: string }) {
  return (
    <div class="msg user" data-testid="message-user">
      <div class="bubble">{text}</div>
    </div>
  );
}

export function AssistantMessage({
  text,
  streaming,
  turn,
  links,
}: {
  text: string;
  streaming: boolean;
  turn?: TurnInfo | undefined;
  /** The worker's verdict on its links: a link carrying data, or one without a verdict, asks before it opens. */
  links: readonly AnswerLink[];
}) {
  return (
    <div class="msg assistant">
      <div data-testid="message-assistant" data-streaming={streaming ? 'true' : 'false'} aria-busy={streaming}>
        <Markdown text={text} links={links} />
        {streaming && <span class="caret" aria-hidden="true" />}
      </div>
      {turn && <TurnMeta turn={turn} />}
    </div>
  );
}

export function Reasoning({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <details class="reasoning" data-testid="reasoning">
      <summary>{streaming ? 'Thinking…' : 'Reasoning'}</summary>
      <Markdown text={text} links={[]} />
    </details>
  );
}

export function Note({ text }: { text: string }) {
  return (
    <p class="note" data-testid="note" role="note">
      {text}
    </p>
  );
}

/** Every number of a turn, one per line (for hover). */
export function turnDetail(turn: TurnInfo): string {
  const u = turn.usage;
  return [
    `Turn ${turn.turn}`,
    turn.model ? `model ${turn.model}` : '',
    u ? `${u.inputTokens} input tokens (${u.cachedTokens ?? 0} cached)` : '',
    u ? `${u.outputTokens} output tokens (${u.reasoningTokens ?? 0} reasoning)` : '',
    `${turn.latencyMs} ms`,
    turn.incompleteReason ? `ended early: ${turn.incompleteReason}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** `gpt-5 · 1.2k in · 85 out · 2.1 s`, with every number on hover. */
export function TurnMeta({ turn }: { turn: TurnInfo }) {
  const u = turn.usage;
  return (
    <p class="turn-meta" data-testid="turn-meta" title={turnDetail(turn)}>
      {[
        turn.model,
        u && `${formatTokens(u.inputTokens)} in`,
        u && `${formatTokens(u.outputTokens)} out`,
        formatDuration(turn.latencyMs),
      ]
        .filter(Boolean)
        .join(' · ')}
      {turn.incompleteReason && <span class="warn"> · cut short ({turn.incompleteReason})</span>}
    </p>
  );
}
