/** A destructive call waiting for the user: what, where, and Allow once / Always on this site / Deny. */
import type { PendingApproval } from '../../storage/runRecords.ts';
import { prettyJson, truncate } from '../lib/format.ts';

export interface ApprovalActions {
  approve(scope: 'once' | 'site'): void;
  deny(): void;
}

export function ApprovalCard({ approval, actions }: { approval: PendingApproval; actions: ApprovalActions }) {
  return (
    <section class="approval" role="group" aria-label={`Approve ${approval.name}?`} data-testid="approval">
      <p class="approval-title">
        Otto wants to run <code>{approval.name}</code>
        {approval.origin ? (
          <>
            {' '}
            on <strong>{approval.origin}</strong>
          </>
        ) : (
          ''
        )}
        .
      </p>
      <pre class="approval-args">{truncate(prettyJson(approval.arguments || '{}'), 800).text}</pre>
      <p class="approval-hint">This action can change things. Allow it?</p>
      <div class="actions">
        <button type="button" class="primary" data-testid="approval-approve" onClick={() => actions.approve('once')}>
          Allow once
        </button>
        <button
          type="button"
          data-testid="approval-always"
          disabled={!approval.origin}
          title={
            approval.origin
              ? `Always allow destructive tools on ${approval.origin}`
              : 'No site: this call does not act on a web page'
          }
          onClick={() => actions.approve('site')}
        >
          Always on this site
        </button>
        <button type="button" class="danger" data-testid="approval-deny" onClick={() => actions.deny()}>
          Deny
        </button>
      </div>
    </section>
  );
}
