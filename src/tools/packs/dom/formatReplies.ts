/**
 * How the reading tools' results read to the model: a line of facts in Otto's words, then everything that came
 * from the page inside an untrusted-content boundary (`wrapUntrusted`). Snapshots and action reports use the
 * router's own `formatSnapshot` / `formatAction`, which follow the same rule.
 */
import type { DialogsReply } from '../../../page/dialogs.ts';
import type {
  FindReply,
  PageDialog,
  QueryReply,
  ReadReply,
  TextReply,
  WaitReply,
} from '../../../shared/contentMessages.ts';
import { REF_RE } from '../../../shared/contentMessages.ts';
import { wrapUntrusted } from '../../../shared/untrusted.ts';

/** Refs are Otto's own tokens (validated), so they may stand outside the boundary. */
function refList(refs: (string | undefined)[]): string {
  const ok = [...new Set(refs.filter((r): r is string => !!r && REF_RE.test(r)))];
  return ok.length ? ok.join(', ') : 'none';
}

export function formatFind(
  r: {
    matches: FindReply['matches'];
    total: number;
    skipped?: string[];
    notes?: string[];
    hidden?: FindReply['hidden'];
  },
  what: string,
): string {
  // Partial-search notes quote page text (where the search stopped), so they stay inside the boundary.
  const partial = r.notes?.length ? `\n${wrapUntrusted(r.notes.join('\n'))}` : '';
  const hidden = r.hidden?.count
    ? `${r.hidden.count} more match${r.hidden.count === 1 ? '' : 'es'} in hidden elements (where and why: the hidden: lines) — open the tab, menu or section that holds them first.`
    : '';
  // Names of hidden containers come from the page: inside the boundary.
  const hiddenLines = (r.hidden?.where ?? []).map((w) => `- hidden: ${w}`);
  if (!r.matches.length) {
    const skipped = r.skipped?.length ? ` (${r.skipped.length} frame(s) could not be searched)` : '';
    const part = r.notes?.length ? ' in the part of the page searched (see the note)' : '';
    if (hidden)
      return `No visible match for ${what}${part}${skipped}. ${hidden}\n${wrapUntrusted(hiddenLines.join('\n'))}${partial}`;
    return `No match for ${what}${part}${skipped}. Try other words, a role (button, link, textbox), or take a snapshot (dom.snapshot).${partial}`;
  }
  // A search that stopped early (enough matches, or its budget) counted only the part it searched: a lower bound.
  const partialSearch = !!r.notes?.length;
  const count = partialSearch ? `At least ${r.total}` : String(r.total);
  const more =
    r.total > r.matches.length
      ? ` (showing ${r.matches.length} of ${count.toLowerCase()}; narrow the search or raise limit)`
      : '';
  const lines = r.matches.map((m) => {
    // Which element a text match belongs to, in Otto's words: its own ref, the control it is part of, the controls
    // of its row, or plainly none — never a neighbour that merely comes next in the page.
    // Text outside any control gets a ref for its own element (`e14 <p>`: a target for dom.select_text, dom.click,
    // dom.scroll), so no line is a dead end (#43).
    const holder = m.holder ? `its element: ${m.holder}` : '';
    const owner = m.ref
      ? ''
      : m.inside
        ? ` (part of ${m.inside})`
        : m.row?.length
          ? ` (${holder || 'no ref of its own'}; its row has: ${m.row.join(', ')})`
          : holder
            ? ` (${holder})`
            : ' (no ref of its own)';
    const ctx = m.context ? ` — ${m.context}` : '';
    return `- ${m.line}${owner}${ctx}`;
  });
  const skipped = r.skipped?.length ? `\nNot searched: ${r.skipped.length} frame(s) did not answer.` : '';
  return (
    `${count} match${r.total === 1 ? '' : 'es'} for ${what}${more}${partialSearch ? ' — PARTIAL search, see the note' : ''}. Refs: ${refList(r.matches.map((m) => m.ref ?? m.inside ?? m.holder?.split(' ')[0]))}.` +
    `${hidden ? ' ' + hidden : ''}${skipped}\n` +
    wrapUntrusted([...lines, ...hiddenLines].join('\n')) +
    partial
  );
}

/**
 * A search the element budget stopped before it held its matches (#24 few-match walks): how far it got, and that
 * the rest was not searched, so no count or absence is read as the whole page's.
 */
function searchedPart(r: QueryReply): string {
  const first = `the first ${(r.searched ?? 0).toLocaleString('en-US')} elements, up to the one named below`;
  return r.byId
    ? `${first}, with their shadow roots; past them the main document was matched by id, its shadow roots were not searched`
    : `${first}; the rest of the page was NOT searched`;
}

/** What reaches past the search budget: an id lookup, or the part itself in view. */
const PAST_BUDGET =
  'A selector whose last part has an #id is looked up in the whole page; or scroll to the part you mean and use dom.snapshot.';

/**
 * Where a budget stopped the walk names a page element (its role and name): the page's words, so the header says
 * "named below" and the name opens the boundary block.
 */
function stopLine(r: QueryReply): string[] {
  if (r.partial && r.countedUpTo) return [`counted up to: ${r.countedUpTo}`];
  return r.searchedUpTo ? [`searched up to: ${r.searchedUpTo}`] : [];
}

export function formatQuery(r: QueryReply, selector: string): string {
  const sel = JSON.stringify(selector);
  if (!r.matches.length) {
    const stop = r.searchedUpTo ? `\n${wrapUntrusted(stopLine(r).join('\n'))}` : '';
    if (r.searchedUpTo && r.byId)
      return `No element matches ${sel} in the page's main document, nor in the shadow roots of its first ${(r.searched ?? 0).toLocaleString('en-US')} elements (up to the one named below); shadow roots past them were not searched.${stop}`;
    if (r.searchedUpTo)
      return `No element matches ${sel} in the part of the page searched: ${searchedPart(r)}, so matches may exist there. ${PAST_BUDGET}${stop}`;
    if (r.partial)
      return `No element matches ${sel} in the part of the page searched before the time limit; the rest was NOT searched, so matches may exist there. ${PAST_BUDGET}`;
    return `No element matches ${sel}. Check the selector, or search by text with dom.find.`;
  }
  const more =
    r.total > r.matches.length
      ? ` (showing ${r.matches.length} of ${r.total}; raise limit or narrow the selector)`
      : '';
  const hidden = r.matches.filter((m) => !m.visible).length;
  const count = r.partial ? `At least ${r.total}` : String(r.total);
  const partial = !r.partial
    ? ''
    : r.countedUpTo
      ? ' (counted in the first part of the page only, up to the element named below; narrow the selector to count a part exactly)'
      : r.searchedUpTo
        ? ` (searched ${searchedPart(r)})`
        : ' (counted until the time limit: the page is too big to count them all)';
  return (
    `${count} element${r.total === 1 ? '' : 's'} match ${sel}${partial}${more}${hidden ? `; ${hidden} of them hidden` : ''}. Refs: ${refList(r.matches.map((m) => m.ref))}.\n` +
    wrapUntrusted(
      [
        ...stopLine(r),
        ...r.matches.map((m) => `- ${m.line}${m.hidden && !m.line.includes(m.hidden) ? ` (${m.hidden})` : ''}`),
      ].join('\n'),
    )
  );
}

export function formatText(r: TextReply, of: string): string {
  const facts = `Visible text of ${of}: ${r.chars} characters${r.truncated ? ', TRUNCATED to the budget (raise max_chars, or read a smaller part by ref/selector)' : ''}${r.note ? `; ${r.note}` : ''}.`;
  return `${facts}\n${wrapUntrusted(r.text || '(no visible text)')}`;
}

export function formatRead(r: ReadReply): string {
  const facts =
    `Article${r.readerable ? '' : ' (the page does not look like an article: the extraction may be poor; dom.text or dom.snapshot may serve better)'}: ` +
    `${r.chars} characters of Markdown${r.truncated ? ', TRUNCATED to the budget (raise max_chars)' : ''}${r.note ? `; ${r.note}` : ''}.`;
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
  const ref = r.ref && REF_RE.test(r.ref) ? ` (ref ${r.ref})` : '';
  const facts = r.met
    ? r.already
      ? `Already ${state === 'appear' ? 'present' : 'absent'} — nothing was waited for${ref}. If you expected a change, check that the match below is the element you meant (narrow with root).`
      : `Condition met after ${Math.round(r.elapsedMs)} ms${ref}.`
    : `Condition NOT met: waited ${Math.round(r.elapsedMs)} ms and it did not ${state}. Take a snapshot (dom.snapshot) to see the page, or wait longer (timeout_ms).`;
  return `${facts}\n${wrapUntrusted(r.summary)}`;
}

function dialogLine(d: PageDialog): string {
  const answer =
    d.type === 'alert'
      ? 'dismissed'
      : d.type === 'beforeunload'
        ? 'Chrome asks the user'
        : d.type === 'confirm'
          ? d.answer
            ? 'answered OK (as requested)'
            : 'answered Cancel'
          : d.answer === null || d.answer === undefined
            ? 'answered Cancel'
            : `answered ${JSON.stringify(d.answer)} (as requested)`;
  return `- ${new Date(d.at).toISOString()} ${d.type}(${JSON.stringify(d.message)}) → ${answer}`;
}

export function formatDialogs(r: DialogsReply, armed: boolean): string {
  const rule =
    'Outside Otto’s actions the page’s dialogs are the user’s; during an action confirm/prompt are answered Cancel and alert dismissed, unless the question was accepted.';
  const next = r.armed
    ? `${armed ? 'Armed' : 'Armed already'}: the next action on this tab answers OK to the question below${r.armed.text !== undefined && r.armed.text !== null ? ' (prompt text below)' : ''}, once.`
    : 'Nothing is accepted for the next action.';
  const facts = `${rule} ${next} ${r.total} dialog${r.total === 1 ? '' : 's'} logged${r.log.length < r.total ? ` (last ${r.log.length} shown)` : ''}.`;
  const parts: string[] = [];
  if (r.armed) {
    parts.push(`accept: ${JSON.stringify(r.armed.message)}`);
    if (r.armed.text !== undefined && r.armed.text !== null) parts.push(`text: ${JSON.stringify(r.armed.text)}`);
  }
  parts.push(...r.log.map(dialogLine));
  if (!parts.length) return facts;
  return `${facts}\n${wrapUntrusted(parts.join('\n'))}`;
}
