/**
 * How the reading tools' results read to the model: a line of facts in Otto's words, then everything that came
 * from the page inside an untrusted-content boundary (`wrapUntrusted`). Snapshots and action reports use the
 * router's own `formatSnapshot` / `formatAction`, which follow the same rule.
 */
import type {
  DialogsReply,
  FindReply,
  PageDialog,
  QueryReply,
  ReadReply,
  TextReply,
  WaitReply,
} from '../../../shared/contentMessages.ts';
import { REF_RE } from '../../../shared/contentMessages.ts';
import { wrapUntrusted } from '../../../content/untrusted.ts';

/** Refs are Otto's own tokens (validated), so they may stand outside the boundary. */
function refList(refs: (string | undefined)[]): string {
  const ok = [...new Set(refs.filter((r): r is string => !!r && REF_RE.test(r)))];
  return ok.length ? ok.join(', ') : 'none';
}

export function formatFind(
  r: { matches: FindReply['matches']; total: number; skipped?: string[] },
  what: string,
): string {
  if (!r.matches.length) {
    const skipped = r.skipped?.length ? ` (${r.skipped.length} frame(s) could not be searched)` : '';
    return `No match for ${what}${skipped}. Try other words, a role (button, link, textbox), or take a snapshot (dom.snapshot).`;
  }
  const more =
    r.total > r.matches.length ? ` (showing ${r.matches.length} of ${r.total}; narrow the search or raise limit)` : '';
  const lines = r.matches.map((m) => {
    const near = m.near ? ` (nearest ref: ${m.near})` : '';
    const ctx = m.context ? ` — ${m.context}` : '';
    return `- ${m.line}${near}${ctx}`;
  });
  const skipped = r.skipped?.length ? `\nNot searched: ${r.skipped.length} frame(s) did not answer.` : '';
  return (
    `${r.total} match${r.total === 1 ? '' : 'es'} for ${what}${more}. Refs: ${refList(r.matches.map((m) => m.ref ?? m.near))}.${skipped}\n` +
    wrapUntrusted(lines.join('\n'))
  );
}

export function formatQuery(r: QueryReply, selector: string): string {
  if (!r.matches.length)
    return `No element matches ${JSON.stringify(selector)}. Check the selector, or search by text with dom.find.`;
  const more =
    r.total > r.matches.length
      ? ` (showing ${r.matches.length} of ${r.total}; raise limit or narrow the selector)`
      : '';
  const hidden = r.matches.filter((m) => !m.visible).length;
  return (
    `${r.total} element${r.total === 1 ? '' : 's'} match ${JSON.stringify(selector)}${more}${hidden ? `; ${hidden} of them hidden` : ''}. Refs: ${refList(r.matches.map((m) => m.ref))}.\n` +
    wrapUntrusted(
      r.matches.map((m) => `- ${m.line}${m.hidden && !m.line.includes(m.hidden) ? ` (${m.hidden})` : ''}`).join('\n'),
    )
  );
}

export function formatText(r: TextReply, of: string): string {
  const facts = `Visible text of ${of}: ${r.chars} characters${r.truncated ? ', TRUNCATED to the budget (raise max_chars, or read a smaller part by ref/selector)' : ''}.`;
  return `${facts}\n${wrapUntrusted(r.text || '(no visible text)')}`;
}

export function formatRead(r: ReadReply): string {
  const facts =
    `Article${r.readerable ? '' : ' (the page does not look like an article: the extraction may be poor; dom.text or dom.snapshot may serve better)'}: ` +
    `${r.chars} characters of Markdown${r.truncated ? ', TRUNCATED to the budget (raise max_chars)' : ''}.`;
  const head = [
    r.title && `# ${r.title}`,
    r.byline && `by ${r.byline}`,
    r.siteName && `site: ${r.siteName}`,
    r.lang && `lang: ${r.lang}`,
    r.excerpt && `excerpt: ${r.excerpt}`,
  ].filter(Boolean);
  return `${facts}\n${wrapUntrusted([...head, '', r.markdown].join('\n'))}`;
}

export function formatWait(r: WaitReply, state: 'appear' | 'disappear'): string {
  const facts = r.met
    ? `Condition met after ${Math.round(r.elapsedMs)} ms${r.ref && REF_RE.test(r.ref) ? ` (ref ${r.ref})` : ''}.`
    : `Condition NOT met: waited ${Math.round(r.elapsedMs)} ms and it did not ${state}. Take a snapshot (dom.snapshot) to see the page, or wait longer (timeout_ms).`;
  return `${facts}\n${wrapUntrusted(r.summary)}`;
}

function dialogLine(d: PageDialog): string {
  const answer =
    d.type === 'alert' || d.type === 'beforeunload'
      ? 'dismissed'
      : d.type === 'confirm'
        ? d.answer
          ? 'answered OK'
          : 'answered Cancel'
        : d.answer === null || d.answer === undefined
          ? 'cancelled'
          : `answered ${JSON.stringify(d.answer)}`;
  return `- ${new Date(d.at).toISOString()} ${d.type}(${JSON.stringify(d.message)}) → ${answer}`;
}

export function formatDialogs(r: DialogsReply, changed: boolean): string {
  const policy = `confirm() → ${r.policy.confirm ? 'OK' : 'Cancel'}, prompt() → ${r.policy.prompt === null ? 'Cancel' : JSON.stringify(r.policy.prompt)}`;
  const facts =
    `${changed ? 'Policy set' : 'Policy'}: ${policy}. alert() is always dismissed; dialogs never block the page.` +
    `${r.ready ? '' : ' (The dialog guard is not active in this page yet: reload it for dialogs to be caught.)'}` +
    ` ${r.total} dialog${r.total === 1 ? '' : 's'} logged${r.log.length < r.total ? ` (last ${r.log.length} shown)` : ''}.`;
  if (!r.log.length) return facts;
  return `${facts}\n${wrapUntrusted(r.log.map(dialogLine).join('\n'))}`;
}
