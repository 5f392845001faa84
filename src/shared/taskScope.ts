/**
 * A task's scope (issue #42): what the user's own words ask Otto to do — the kinds of effect and the sites they name.
 * Plain data: derived from the user's messages only (src/agent/scopeRules.ts), persisted with the run, shown in the
 * panel, and compared with each state-changing call's effects (src/tools/guard/effect.ts) before it runs.
 */

/** The kinds of effect a call can have, in the words the card and the panel use. */
export const EFFECT_KINDS = ['read', 'fill', 'send', 'buy', 'delete', 'settings', 'download'] as const;
export type EffectKind = (typeof EFFECT_KINDS)[number];

/** Kinds that commit something: the scope gate asks about these when the task's words did not ask for them. */
export const GATED_EFFECTS: readonly EffectKind[] = ['send', 'buy', 'delete', 'settings', 'download'];

export interface TaskScope {
  /** Kinds the user's words ask for (`read` is always in). */
  effects: EffectKind[];
  /** Hosts the user named (`mail.test`): shown in the panel; they never narrow what the task may read. */
  sites: string[];
  /** The user's request in a few words (the first message), for the card's "You asked to …". */
  asked: string;
  /** Set when the "request" is an outside agent's call over the MCP bridge (its name), not the user's words. */
  caller?: string;
}

/** How the card and the panel say each kind (`Otto wants to …`). */
export const EFFECT_WORDS: Record<EffectKind, string> = {
  read: 'read',
  fill: 'fill in a form',
  send: 'send or post',
  buy: 'buy or pay',
  delete: 'delete',
  settings: 'change settings',
  download: 'download',
};

/** Kinds in `wanted` that `scope` does not cover. */
export function outsideScope(scope: TaskScope | undefined, wanted: readonly EffectKind[]): EffectKind[] {
  if (!scope) return [];
  return wanted.filter((k) => !scope.effects.includes(k));
}

/** The union of two scopes (a later message widens the task; it never narrows it). */
export function widenScope(a: TaskScope | undefined, b: TaskScope): TaskScope {
  if (!a) return b;
  const effects = EFFECT_KINDS.filter((k) => a.effects.includes(k) || b.effects.includes(k));
  const sites = [...new Set([...a.sites, ...b.sites])];
  const caller = a.caller ?? b.caller;
  return { effects, sites, asked: a.asked || b.asked, ...(caller ? { caller } : {}) };
}

/** `Task: read, send · mail.test` — the panel's line. */
export function scopeLine(scope: TaskScope): string {
  const sites = scope.sites.length ? ` · ${scope.sites.join(', ')}` : '';
  // `fill` is in every task (typing commits nothing): the line names what the words added to reading.
  return `Task: ${scope.effects.filter((k) => k !== 'fill').join(', ')}${sites}`;
}
