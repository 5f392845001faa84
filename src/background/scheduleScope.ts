/**
 * The scope a schedule agrees to when it is made (#46): all an unattended run may do. A task's is derived from its
 * words by the same rules as a typed task (agent/scopeRules.ts), with the start page's host; a snippet's is the sites
 * its recorded steps name (their `url=` arguments) and the effects of those steps, which the user recorded.
 */
import { scopeFromWords } from '../agent/scopeRules.ts';
import type { ScheduleEntry, ScheduleScope } from '../config/scheduleConfig.ts';
import { EFFECT_KINDS } from '../shared/taskScope.ts';

export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}

/** The scope for an entry; `snippetBody` is the snippet's text from `snippets:` (for a snippet entry). */
export function scheduleScope(
  entry: Pick<ScheduleEntry, 'task' | 'url' | 'snippet' | 'args'>,
  snippetBody = '',
): ScheduleScope {
  const start = hostOf(entry.url);
  if (entry.task) {
    const scope = scopeFromWords(entry.task, start);
    return { effects: scope.effects, sites: scope.sites };
  }
  // Only addresses count: a snippet's tool names (`tabs.navigate`) look like host names to the task rules.
  const text = `${snippetBody} ${Object.values(entry.args ?? {}).join(' ')}`;
  const named = [...text.matchAll(/\bhttps?:\/\/[^\s"'{}]+/gi)].map((m) => hostOf(m[0])).filter((h) => h !== undefined);
  const sites = [...new Set([...(start ? [start] : []), ...named])];
  return { effects: [...EFFECT_KINDS], sites };
}
