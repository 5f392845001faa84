/**
 * Problems as banners, each with the action that fixes it: no key / rejected key → Settings; rate limited →
 * a countdown while the client retries; network, cut stream, server → Retry; an interrupted run → Resume; a run state
 * this version cannot read → read and export the transcript, or start a new conversation.
 */
import type { ChatState } from '../state/chat.ts';
import type { RunError } from '../../storage/runRecords.ts';
import type { UnreadableRun } from '../../storage/runStateSchema.ts';
import { useNow } from '../lib/useNow.ts';

export interface BannerActions {
  retry(): void;
  resume(): void;
  dismiss(): void;
  dismissInfo(): void;
  openSettings(): void;
  newConversation(): void;
  exportConversation(): void;
}

type Fix = { label: string; testId: string; run: (a: BannerActions) => void };

export function fixFor(error: RunError): Fix | undefined {
  if (error.kind === 'auth' && /^No API key/.test(error.message))
    return { label: 'Open settings', testId: 'banner-open-settings', run: (a) => a.openSettings() };
  if (error.kind === 'auth')
    return { label: 'Check API key', testId: 'banner-check-key', run: (a) => a.openSettings() };
  if (
    error.kind === 'model_not_found' ||
    error.kind === 'not_found' ||
    error.kind === 'not_a_stream' ||
    error.kind === 'config'
  )
    return { label: 'Open settings', testId: 'banner-open-settings', run: (a) => a.openSettings() };
  if (error.retryable) return { label: 'Retry', testId: 'chat-retry', run: (a) => a.retry() };
  return undefined;
}

function titleFor(error: RunError): string {
  switch (error.kind) {
    case 'auth':
      if (/^Your API key contains/.test(error.message)) return 'The API key cannot be sent';
      return /^No API key/.test(error.message) ? 'No API key' : 'API key rejected';
    case 'rate_limit':
      return 'Rate limited';
    case 'network':
      return 'Cannot reach the model';
    case 'stream_cut':
      return 'The reply was cut off';
    case 'timeout':
      return 'The model took too long';
    case 'server':
      return 'The model server failed';
    case 'model_not_found':
      return 'Model not found';
    case 'not_found':
      return 'The server has no such endpoint';
    case 'not_a_stream':
      return 'The server did not answer with a stream';
    case 'config':
      return 'Settings have problems';
    default:
      return 'Something went wrong';
  }
}

function ErrorBanner({ error, actions }: { error: RunError; actions: BannerActions }) {
  const fix = fixFor(error);
  return (
    <div class="banner error" role="alert" data-testid="error-banner" data-kind={error.kind}>
      <div>
        <strong>{titleFor(error)}.</strong> {error.message}
      </div>
      <div class="actions">
        {fix && (
          <button type="button" class="primary" data-testid={fix.testId} onClick={() => fix.run(actions)}>
            {fix.label}
          </button>
        )}
        <button type="button" onClick={() => actions.dismiss()} aria-label="Dismiss error">
          Dismiss
        </button>
      </div>
    </div>
  );
}

function RetryingBanner({ retrying }: { retrying: NonNullable<ChatState['retrying']> }) {
  const now = useNow(true, 500);
  const left = Math.max(0, Math.ceil((retrying.at + retrying.delayMs - now) / 1000));
  const rate = /rate/i.test(retrying.reason);
  return (
    <div class="banner warn" role="status" data-testid="retry-banner">
      {rate ? 'Rate limited by the API' : `The request failed (${retrying.reason})`}: retrying in {left} s (attempt{' '}
      {retrying.attempt}).
    </div>
  );
}

/**
 * The stored run of this conversation cannot be read (a newer Otto wrote it, or it is damaged). The worker's message
 * says which and that nothing was changed; this says what still works. It has no Dismiss: it stays while the
 * conversation is open, because a message sent in it is refused.
 */
function UnreadableBanner({ unreadable, actions }: { unreadable: UnreadableRun; actions: BannerActions }) {
  return (
    <div class="banner warn" role="status" data-testid="unreadable-banner" data-reason={unreadable.reason}>
      <div>
        <strong>This conversation can be read and exported, but not continued.</strong> {unreadable.message}
      </div>
      <div class="actions">
        <button type="button" class="primary" data-testid="unreadable-new" onClick={() => actions.newConversation()}>
          New conversation
        </button>
        <button type="button" data-testid="unreadable-export" onClick={() => actions.exportConversation()}>
          Export
        </button>
      </div>
    </div>
  );
}

export function Banners({
  chat,
  notice,
  actions,
}: {
  chat: ChatState;
  notice?: string | undefined;
  actions: BannerActions;
}) {
  const interrupted = chat.status === 'interrupted' || (chat.status === 'running' && !chat.active);
  return (
    <div class="banners">
      {chat.retrying && <RetryingBanner retrying={chat.retrying} />}
      {chat.info && (
        <div class="banner ok" role="status" data-testid="info-banner">
          <div>{chat.info}</div>
          <div class="actions">
            <button type="button" onClick={() => actions.dismissInfo()} aria-label="Dismiss notice">
              Dismiss
            </button>
          </div>
        </div>
      )}
      {chat.unreadable && <UnreadableBanner unreadable={chat.unreadable} actions={actions} />}
      {chat.status === 'error' && chat.error && <ErrorBanner error={chat.error} actions={actions} />}
      {interrupted && (
        <div class="banner warn" role="status" data-testid="interrupted-banner">
          <div>This run was interrupted (Otto's background worker stopped). Nothing that finished was lost.</div>
          <div class="actions">
            <button type="button" class="primary" data-testid="run-resume" onClick={() => actions.resume()}>
              Resume
            </button>
          </div>
        </div>
      )}
      {(chat.workerError ?? notice) && (
        <div class="banner error" role="alert" data-testid="notice-banner">
          <div>{chat.workerError ?? notice}</div>
          <div class="actions">
            <button type="button" onClick={() => actions.dismiss()} aria-label="Dismiss message">
              Dismiss
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
