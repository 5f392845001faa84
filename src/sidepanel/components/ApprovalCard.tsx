/**
 * A call waiting for the user: a destructive one (what, where: Allow once / Always on this site / Deny), or one that
 * wants a tab outside Otto's group (Share / Always for this site / Don't share), or one that could carry data read
 * from one site to another (the flow named; Allow once / Always for these sites / Deny). A destructive call's card
 * describes its resolved target (issue #31) — the tab's site and title, the element as Otto sees it (role, name, a
 * link's destination, a form's action), a URL it loads and whether that is the user's own network — with
 * page-controlled text marked as coming from the page; a flow card shows that target too. The arguments are shown
 * whole: nothing is cut off. A call outside the task the user asked for (#42) gets a card that says so (Allow once /
 * Allow for this task / Deny, never "always"); every action card shows what it would send or change.
 */
import type { ComponentChildren } from 'preact';
import type { PendingApproval, TabShareRequest } from '../../storage/runRecords.ts';
import type { CallTarget } from '../../shared/callTarget.ts';
import { isShareApproval, shareQuestion } from '../../agent/tabAccess.ts';
import { prettyJson, truncate } from '../lib/displayFormat.ts';

export interface ApprovalActions {
  /** `task` (#42): allow, and widen the task's scope with what the card names. */
  approve(scope: 'once' | 'site' | 'task'): void;
  deny(): void;
}

/** The page question a call asks to accept (`dom.click` accept_dialog, `dom.dialogs` accept), if any. */
function acceptedQuestion(name: string, args: string): { question: string; text?: string } | undefined {
  try {
    const a = JSON.parse(args || '{}') as Record<string, unknown>;
    const q = name === 'dom.dialogs' ? a.accept : a.accept_dialog;
    if (typeof q !== 'string') return undefined;
    return typeof a.text === 'string' && name === 'dom.dialogs' ? { question: q, text: a.text } : { question: q };
  } catch {
    return undefined;
  }
}

/** The card's answers: approve once, the card's own wider answer (`children`), deny. */
function Answers(props: { actions: ApprovalActions; approve?: string; deny?: string; children: ComponentChildren }) {
  const { actions, approve = 'Allow once', deny = 'Deny', children } = props;
  return (
    <div class="actions">
      <button type="button" class="primary" data-testid="approval-approve" onClick={() => actions.approve('once')}>
        {approve}
      </button>
      {children}
      <button type="button" class="danger" data-testid="approval-deny" onClick={() => actions.deny()}>
        {deny}
      </button>
    </div>
  );
}

/** `dom.click on https://shop.example (a step of its program)`: the call, the site it acts on, whether a program ran it. */
function CallAndSite({ approval }: { approval: PendingApproval }) {
  const site = approval.origin;
  return (
    <>
      <code>{approval.name}</code>
      {site ? (
        <>
          {' '}
          on <strong>{site}</strong>
        </>
      ) : (
        ''
      )}
      {approval.parentCallId ? ' (a step of its program)' : ''}
    </>
  );
}

/** The call's arguments, whole (nothing cut off), in the Tab order so a keyboard can scroll them. */
function Arguments({ approval }: { approval: PendingApproval }) {
  return (
    <pre class="approval-args" tabIndex={0}>
      {prettyJson(approval.arguments || '{}')}
    </pre>
  );
}

/** A call wants a tab outside Otto's group (#27): share it once, always for its site, or not at all. */
function ShareCard({
  approval,
  actions,
}: {
  approval: PendingApproval & { share: TabShareRequest };
  actions: ApprovalActions;
}) {
  const { share } = approval;
  return (
    <section class="approval" role="group" aria-label={shareQuestion(share)} data-testid="approval" data-kind="share">
      <p class="approval-title">{shareQuestion(share)}</p>
      <p class="approval-hint">
        Otto wants to use this tab (<code>{approval.name}</code>), which is not in Otto's tab group. Shared, it joins
        the group and Otto can read it and act on it.
      </p>
      <Answers actions={actions} approve="Share" deny="Don't share">
        <button
          type="button"
          data-testid="approval-always"
          disabled={!share.origin}
          title={share.origin ? `Share every tab of ${share.host} with Otto without asking` : 'This page has no site'}
          onClick={() => actions.approve('site')}
        >
          Always for this site
        </button>
      </Answers>
    </section>
  );
}

/**
 * The data-flow guard asks (#13): the flow in plain words, what would leave; "always" means this pair of sites. When
 * the target rule asks too (#31: an action on a site, another tab, the user's own network), the same card says so and
 * its one answer covers both; "always" then also allows actions on the target's site.
 */
function FlowApproval({ approval, actions }: { approval: PendingApproval; actions: ApprovalActions }) {
  const flow = approval.flow!;
  const action = !!approval.targetAsks;
  const site = approval.origin;
  // #42: outside the task too — the card says so, and offers the task's widening instead of "always".
  const scope = approval.outOfScope;
  return (
    <section
      class="approval"
      role="group"
      aria-label={`Approve ${approval.name}?`}
      data-testid="approval"
      data-kind={action ? 'flow-action' : 'flow'}
    >
      <p class="approval-title" data-testid="approval-flow">
        {flow.sentence}.
      </p>
      {scope && (
        <p class="approval-title" data-testid="approval-scope">
          {scope.sentence}
        </p>
      )}
      {action && (
        <p class="approval-title" data-testid="approval-action">
          And it is an action: Otto wants to run <CallAndSite approval={approval} />, which can change things.
        </p>
      )}
      <p class="approval-hint" data-testid="approval-sends">
        <code>{approval.name}</code>
        {approval.parentCallId && !action ? ' (a step of its program) would send:' : ' would send:'}
      </p>
      <pre class="approval-args" data-testid="approval-data" tabIndex={0}>
        {truncate(flow.data, 800).text}
      </pre>
      {action && <WhatChanges approval={approval} />}
      {approval.target && <TargetFacts target={approval.target} />}
      <p class="approval-hint">{action ? 'Allow this action, and this data to leave?' : 'Allow this data to leave?'}</p>
      <Answers actions={actions}>
        {scope ? (
          <button type="button" data-testid="approval-task" onClick={() => actions.approve('task')}>
            Allow for this task
          </button>
        ) : (
          <button
            type="button"
            data-testid="approval-always"
            title={
              action && site
                ? `Always allow data to go from these sites to this one, and actions on ${site}`
                : 'Always allow data to go from these sites to this one'
            }
            onClick={() => actions.approve('site')}
          >
            Always for these sites
          </button>
        )}
      </Answers>
    </section>
  );
}

/**
 * The call is outside the task the user asked for (#42): the card says so in plain words, shows what the action would
 * send or change, and offers Allow once, Allow for this task (the scope widens with this kind of effect) or Deny —
 * never "always on this site", which must not cover an action the task did not ask for.
 */
function ScopeApproval({ approval, actions }: { approval: PendingApproval; actions: ApprovalActions }) {
  const asked = approval.outOfScope!;
  return (
    <section
      class="approval"
      role="group"
      aria-label={`Approve ${approval.name}?`}
      data-testid="approval"
      data-kind="scope"
    >
      <p class="approval-title" data-testid="approval-scope">
        {asked.sentence}
      </p>
      {approval.flow && (
        <p class="approval-title" data-testid="approval-flow">
          {approval.flow.sentence}.
        </p>
      )}
      {approval.targetAsks && (
        <p class="approval-hint" data-testid="approval-action">
          Otto would ask about this action in any task: <code>{approval.name}</code> can change things (a form it
          submits, a password, another tab).
        </p>
      )}
      <WhatChanges approval={approval} />
      {approval.target && <TargetFacts target={approval.target} />}
      <Arguments approval={approval} />
      <Answers actions={actions}>
        <button
          type="button"
          data-testid="approval-task"
          title={`Add “${asked.effects.join(', ')}” to what this task may do`}
          onClick={() => actions.approve('task')}
        >
          Allow for this task
        </button>
      </Answers>
    </section>
  );
}

/** Every action card (#42): what it would send or change, the page's part marked as page text. */
function WhatChanges({ approval }: { approval: PendingApproval }) {
  const changes = whatChanges(approval);
  if (!changes.length) return null;
  return (
    <div data-testid="approval-changes">
      <p class="approval-hint">It would send or change:</p>
      <ul class="approval-target">
        {changes.map((c) => (
          <li>{c.fromPage ? <FromPage text={c.text} /> : c.text}</li>
        ))}
      </ul>
    </div>
  );
}

/** What the action would send or change: the values it writes (the model's), and the page's fields and item. */
function whatChanges(approval: PendingApproval): { text: string; fromPage: boolean }[] {
  const out: { text: string; fromPage: boolean }[] = [];
  try {
    const a = JSON.parse(approval.arguments || '{}') as Record<string, unknown>;
    if (typeof a.text === 'string') out.push({ text: `Types: ${truncate(a.text, 300).text}`, fromPage: false });
    if (typeof a.checked === 'boolean') out.push({ text: a.checked ? 'Turns it on' : 'Turns it off', fromPage: false });
    if (a.value !== undefined)
      out.push({ text: `Chooses: ${truncate(JSON.stringify(a.value), 300).text}`, fromPage: false });
  } catch {
    // The arguments are shown whole below.
  }
  for (const line of approval.target?.element?.context ?? []) out.push({ text: line, fromPage: true });
  return out;
}

/** Text the web page controls: shown as such, never as Otto's own words. */
function FromPage({ text }: { text: string }) {
  return (
    <span class="from-page" title="Text from the web page">
      <span class="from-page-label">page text:</span> <q>{text}</q>
    </span>
  );
}

function TargetFacts({ target }: { target: CallTarget }) {
  const { tab, element, url, localNetwork } = target;
  return (
    <ul class="approval-target" data-testid="approval-target">
      {tab && (
        <li data-testid="approval-tab">
          Tab: <strong>{tab.origin ?? tab.url ?? `tab ${tab.id}`}</strong>
          {tab.title ? (
            <>
              {' '}
              <FromPage text={tab.title} />
            </>
          ) : null}
          {!tab.isRunTab && <em class="approval-warn"> — another tab, not the one this conversation works in</em>}
        </li>
      )}
      {element && (
        <li data-testid="approval-element">
          Element: {element.role} <FromPage text={element.name || '(no name)'} />
          {element.href && (
            <>
              {' '}
              — a link to <strong>{element.href}</strong>
            </>
          )}
          {element.formAction && (
            <>
              {' '}
              — {element.submits ? 'submits' : 'in'} a form sending to <strong>{element.formAction}</strong>
              {element.formMethod ? ` (${element.formMethod})` : ''}
            </>
          )}
        </li>
      )}
      {url && (
        <li data-testid="approval-url">
          Goes to: <strong>{url}</strong>
        </li>
      )}
      {localNetwork && (
        <li class="approval-warn" data-testid="approval-local">
          {localNetwork.origin} is on your own network ({localNetwork.reason}): routers, printers and local apps live
          there.
        </li>
      )}
    </ul>
  );
}

export function ApprovalCard({ approval, actions }: { approval: PendingApproval; actions: ApprovalActions }) {
  if (isShareApproval(approval)) return <ShareCard approval={approval} actions={actions} />;
  if (approval.flow) return <FlowApproval approval={approval} actions={actions} />;
  if (approval.outOfScope) return <ScopeApproval approval={approval} actions={actions} />;
  const site = approval.origin;
  const dialog = acceptedQuestion(approval.name, approval.arguments);
  return (
    <section class="approval" role="group" aria-label={`Approve ${approval.name}?`} data-testid="approval">
      <p class="approval-title">
        Otto wants to run <CallAndSite approval={approval} />.
      </p>
      <WhatChanges approval={approval} />
      {approval.target && <TargetFacts target={approval.target} />}
      {dialog ? (
        <p class="approval-dialog" data-testid="approval-dialog">
          The page asks: “{truncate(dialog.question, 600).text}” — Otto will answer{' '}
          {dialog.text !== undefined ? `“${truncate(dialog.text, 200).text}”` : 'OK'} for you.
        </p>
      ) : (
        ''
      )}
      <Arguments approval={approval} />
      <p class="approval-hint">This action can change things. Allow it?</p>
      <Answers actions={actions}>
        <button
          type="button"
          data-testid="approval-always"
          disabled={!site}
          title={
            site ? `Always allow destructive tools acting on ${site}` : 'No site: this call does not act on a web page'
          }
          onClick={() => actions.approve('site')}
        >
          Always on this site
        </button>
      </Answers>
    </section>
  );
}
