/**
 * Links in an answer are sinks (issue #42 part 3). After the sanitised answer is in the DOM, each of its links is
 * matched to the worker's verdict (shared/answerLink.ts). A plain one stays a normal link. One that carries data —
 * or one the worker gave no verdict for (a URL it did not see in the text, a mailto:, an answer still streaming) —
 * loses its `href` (so no click, middle click, drag or "Open in new tab" can follow it), keeps the URL in
 * `data-ask-url`, and gets its destination written next to it; a click then asks (LinkAsk.tsx). The panel never
 * judges a link itself: it only applies the verdict, and without one it asks.
 */
import type { AnswerLink } from '../../shared/answerLink.ts';

/** What the panel asks before opening a guarded link. */
export interface LinkQuestion {
  url: string;
  to: string;
  sentence: string;
  values: readonly string[];
  /** Whether the worker judged it (it carries data), or gave no verdict for it. */
  checked: boolean;
}

const ASK_ATTR = 'data-ask-url';
const DEST_CLASS = 'link-dest';

function resolved(href: string): URL | undefined {
  try {
    return new URL(href);
  } catch {
    return undefined;
  }
}

/** The question for a link, or undefined when it is plain (opens with no question). */
export function questionFor(href: string, links: readonly AnswerLink[]): LinkQuestion | undefined {
  const url = resolved(href);
  const verdict = url && links.find((l) => l.url === url.href);
  if (verdict && !verdict.carries) return undefined;
  const to = url?.host || url?.protocol || href;
  if (verdict)
    return {
      url: href,
      to: verdict.to,
      sentence: verdict.sentence ?? `This link may carry data to ${verdict.to}. Open it?`,
      values: verdict.values,
      checked: true,
    };
  return {
    url: href,
    to,
    sentence: `Otto has not checked this link. It goes to ${to}. Open it?`,
    values: [],
    checked: false,
  };
}

/** The label written next to a guarded link: where it goes, and that it carries data. */
export function destinationLabel(q: LinkQuestion): string {
  return `→ ${q.to} · ${q.checked ? 'carries data' : 'not checked'}`;
}

function dropLabel(a: Element): void {
  const next = a.nextElementSibling;
  if (next?.classList.contains(DEST_CLASS)) next.remove();
}

/** Applies the verdicts to every link under `root` (again after they change: it undoes its own earlier marks). */
export function guardLinks(root: Element, links: readonly AnswerLink[]): void {
  for (const a of root.querySelectorAll(`a[href], a[${ASK_ATTR}]`)) {
    const href = a.getAttribute(ASK_ATTR) ?? a.getAttribute('href') ?? '';
    if (href.startsWith('#')) continue;
    dropLabel(a);
    const q = questionFor(href, links);
    if (!q) {
      if (a.hasAttribute(ASK_ATTR)) {
        a.removeAttribute(ASK_ATTR);
        a.removeAttribute('role');
        a.removeAttribute('tabindex');
        a.removeAttribute('data-testid');
        a.setAttribute('href', href);
        a.setAttribute('target', '_blank');
        a.setAttribute('rel', 'noopener noreferrer');
      }
      continue;
    }
    a.removeAttribute('href');
    a.removeAttribute('target');
    a.setAttribute(ASK_ATTR, href);
    a.setAttribute('role', 'link');
    a.setAttribute('tabindex', '0');
    a.setAttribute('data-testid', 'answer-link-guarded');
    const label = a.ownerDocument.createElement('span');
    label.className = DEST_CLASS;
    label.setAttribute('data-testid', 'link-destination');
    label.textContent = destinationLabel(q);
    a.after(label);
  }
}

/** The question for a click (or Enter) on a guarded link, or undefined when the event is not on one. */
export function questionAt(target: EventTarget | null, links: readonly AnswerLink[]): LinkQuestion | undefined {
  const node = target as Node | null;
  const el = node && node.nodeType === 1 ? (node as Element) : node?.parentElement;
  const a = el?.closest(`a[${ASK_ATTR}]`);
  const href = a?.getAttribute(ASK_ATTR);
  return href ? questionFor(href, links) : undefined;
}
