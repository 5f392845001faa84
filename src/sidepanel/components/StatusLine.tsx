/** The run-status line (`run-status`: idle | running | error | interrupted; `data-run` = the raw status). */
import type { ChatState } from '../state/chat.ts';
import { runStatusView } from '../state/view.ts';
import { formatTokens } from '../lib/format.ts';

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
    </div>
  );
}
