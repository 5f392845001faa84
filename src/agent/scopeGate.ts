/**
 * The scope gate (issue #42): a state-changing call whose effects the task's scope does not cover — kinds of effect
 * the user's words did not ask for, or a site they did not name — asks, whatever else would let it through ("Always
 * on this site", approvals.allowed_origins). The card says it in plain words; the model, if the user denies it, gets
 * only Otto's words (the kinds and the site), never the page's.
 */
import type { CallTarget } from '../shared/callTarget.ts';
import { EFFECT_WORDS, GATED_EFFECTS, type EffectKind, type TaskScope } from '../shared/taskScope.ts';
import type { PendingApproval } from '../storage/runRecords.ts';
import { siteHost } from '../shared/origin.ts';

export type OutOfScope = NonNullable<PendingApproval['outOfScope']>;

/** Whether `host` is one of `sites` or a subdomain of one. */
function siteNamed(host: string, sites: readonly string[]): boolean {
  return sites.some((s) => host === s || host.endsWith(`.${s}`));
}

/** "summarise my inbox" → "summarise your inbox": the card speaks to the user. */
export function toYou(asked: string): string {
  return asked
    .replace(/\bmy\b/gi, 'your')
    .replace(/\bme\b/gi, 'you')
    .replace(/\bI\b/g, 'you');
}

/** `attacker@evil.test` when what the action would send names an address. */
function recipientOf(target: CallTarget | undefined): string | undefined {
  for (const line of target?.element?.context ?? []) {
    const m = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(line);
    if (m) return m[0];
  }
  return undefined;
}

export function wantWords(kinds: readonly EffectKind[]): string {
  return kinds.map((k) => EFFECT_WORDS[k]).join(' and ');
}

/**
 * The question the scope asks about a call with `effects` on `target`, or undefined when the scope covers it (or the
 * run has no scope: one started before #42).
 */
export function scopeQuestion(
  scope: TaskScope | undefined,
  effects: readonly EffectKind[] | undefined,
  target: CallTarget | undefined,
): OutOfScope | undefined {
  if (!scope || !effects?.length) return undefined;
  const gated = effects.filter((k) => GATED_EFFECTS.includes(k));
  if (!gated.length) return undefined;
  const host = siteHost(target?.origin);
  const kinds = gated.filter((k) => !scope.effects.includes(k));
  const offSite = !!host && scope.sites.length > 0 && !siteNamed(host, scope.sites);
  if (!kinds.length && !offSite) return undefined;
  const shown = kinds.length ? kinds : gated;
  const to = shown.includes('send') ? recipientOf(target) : undefined;
  const where = host ? ` on ${host}` : '';
  const drop = target?.element?.dropOnto?.name;
  const onto = drop ? ` onto “${drop.slice(0, 40)}”` : '';
  const what = target?.element?.name ? ` (“${target.element.name.slice(0, 60)}”${onto})` : '';
  const action = `${wantWords(shown)}${to ? ` to ${to}` : ''}${where}${what}`;
  return {
    effects: shown,
    ...(host ? { site: host } : {}),
    sentence: questionSentence(scope, action, kinds.length > 0),
  };
}

/**
 * The card's sentence. A panel or `otto run` task quotes the user's request; a bridge session's "request" is an
 * outside agent's call, not the user's words, so the card names that agent instead.
 */
function questionSentence(scope: TaskScope, action: string, kindOutside: boolean): string {
  if (scope.caller) {
    const allowed = kindOutside ? 'this' : 'this site';
    return `${scope.caller}, an agent connected over MCP, wants Otto to ${action} — you have not allowed ${allowed} for its session; a page it or Otto read may have asked for it.`;
  }
  const why = kindOutside
    ? 'your request did not ask for this; a page Otto read may have asked for it'
    : 'your request did not name this site; a page Otto read may have asked for it';
  return `You asked to ${toYou(scope.asked) || 'do a task'}. Otto wants to ${action} — ${why}.`;
}

/** The scope widened with what the user allowed "for this task" on a card. */
export function widenedBy(scope: TaskScope | undefined, asked: OutOfScope): TaskScope | undefined {
  if (!scope) return undefined;
  const effects = [...new Set([...scope.effects, ...asked.effects])];
  const sites = asked.site && !scope.sites.includes(asked.site) ? [...scope.sites, asked.site] : scope.sites;
  return { ...scope, effects, sites };
}

/** What the model gets when the user denied a call outside the task (Otto's words only: kinds and the site). */
export function deniedScopeOutput(name: string, asked: OutOfScope): string {
  const where = asked.site ? ` on ${asked.site}` : '';
  return `Error: the user denied ${name}: it would ${wantWords(asked.effects)}${where}, which the user's request did not ask for. Nothing was done. Do not try to do this another way; finish the task the user asked for.`;
}
