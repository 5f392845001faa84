/** The run-status line (`run-status`: idle | running | error | interrupted; `data-run` = the raw status). */
import type { ChatState } from '../state/chat.ts';
import { runStatusView } from '../state/view.ts';
import { formatTokens } from '../lib/displayFormat.ts';
import { scopeLine } from '../../shared/taskScope.ts';

const TEXT: Record<string, string> = {
  idle: 'Ready',
  completed: 'Done',
  running: 'Working…',
  awaiting_approval: 'Waiting for your approval',
  error: 'Stopped by an error',
  interrupted: 'Interrupted',
};

/** `api.openai.com`, `127.0.0.1:1234`: the server's host, which is what tells a user where their words go. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

export function StatusLine({
  chat,
  model,
  baseUrl,
  configInvalid = false,
}: {
  chat: ChatState;
  model: string;
  baseUrl: string;
  configInvalid?: boolean;
}) {
  const view = runStatusView(chat);
  const raw = view === 'interrupted' ? 'interrupted' : chat.status;
  let text = TEXT[raw] ?? raw;
  if (raw === 'idle' && chat.stopReason === 'aborted') text = 'Stopped';
  if (raw === 'completed' && chat.stopReason === 'max_turns') text = 'Stopped at the turn limit';
  const t = chat.totals;
  return (
    <div class="statusline">
      <span data-testid="run-status" data-status={view} data-run={raw} role="status">
        {view === 'running' && raw === 'running' && <span class="spinner" aria-hidden="true" />}
        {text}
      </span>
      <span
        class="muted"
        title={
          t
            ? `Last run: ${t.responses} responses, ${t.inputTokens} input tokens (${t.cachedTokens} cached), ${t.outputTokens} output tokens (${t.reasoningTokens} reasoning)`
            : undefined
        }
      >
        <span data-testid="run-endpoint" title={baseUrl ? `Requests go to ${baseUrl}` : undefined}>
          {configInvalid
            ? 'nothing is sent until settings are fixed'
            : baseUrl
              ? `${model} @ ${hostOf(baseUrl)}`
              : model}
        </span>
        {t ? ` · ${formatTokens(t.inputTokens + t.outputTokens)} tokens` : ''}
      </span>
      {chat.taskScope && (
        <span
          class="muted"
          data-testid="task-scope"
          title="What your words ask this task to do: anything else Otto would change asks you first"
        >
          {scopeLine(chat.taskScope)}
        </span>
      )}
      {chat.context && <ContextMeter {...chat.context} />}
    </div>
  );
}

/**
 * Tokens in the last request against the context budget (#23); past it, the next request is compacted first — unless
 * compacting would save too little (the instructions and tool definitions alone near the budget): then it says so.
 */
export function ContextMeter({
  tokens,
  budget,
  cachedTokens,
  fixedTokens,
}: {
  tokens: number;
  budget: number;
  cachedTokens?: number;
  fixedTokens?: number;
}) {
  const share = budget > 0 ? Math.min(1, tokens / budget) : 0;
  const pct = Math.round((budget > 0 ? tokens / budget : 0) * 100);
  const over = tokens > budget;
  const fixed = fixedTokens ? ` Instructions and tool definitions take ${fixedTokens} of them.` : '';
  const then = over
    ? ' Over the budget: compacting the earlier turns would not save enough yet, so the request went as it was.'
    : ' Past the budget, older turns are compacted.';
  return (
    <span
      class="context-meter"
      data-testid="context-meter"
      data-tokens={tokens}
      data-budget={budget}
      data-over={over ? 'true' : undefined}
      title={`Context: ${tokens} of ${budget} tokens in the last request (${pct}%)${cachedTokens ? `, ${cachedTokens} served from the prompt cache` : ''}.${fixed}${then}`}
    >
      <meter min={0} max={1} value={share} high={0.8} optimum={0.2} aria-label="Context used" />
      {` ${formatTokens(tokens)} / ${formatTokens(budget)}`}
    </span>
  );
}
