/**
 * Sanitised markdown with a copy button on every code block. With `links` (a model's message), every link is
 * guarded by the worker's verdicts (lib/answerLinkGuard.ts): one carrying data, or one without a verdict, shows its
 * destination and asks before it opens (LinkAsk.tsx). Without `links` (Otto's own help text) links are plain.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AnswerLink } from '../../shared/answerLink.ts';
import { renderMarkdown } from '../lib/markdownToHtml.ts';
import { guardLinks, questionAt, type LinkQuestion } from '../lib/answerLinkGuard.ts';
import { openUrl } from '../lib/openTab.ts';
import { LinkAsk } from './LinkAsk.tsx';

function addCopyButtons(root: HTMLElement): void {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const wrap = document.createElement('div');
    wrap.className = 'code-block';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy code');
    pre.tabIndex = 0; // a wide code line scrolls sideways: the keyboard must reach it to scroll it
    pre.replaceWith(wrap);
    wrap.append(button, pre);
  }
}

function copyCode(target: EventTarget | null): void {
  const button = (target as HTMLElement).closest('button.copy');
  const code = button?.parentElement?.querySelector('pre')?.textContent;
  if (!button || code == null) return;
  void navigator.clipboard.writeText(code).then(
    () => {
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    },
    () => (button.textContent = 'Copy failed'),
  );
}

export function Markdown({
  text,
  class: cls = 'md',
  links,
}: {
  text: string;
  class?: string;
  links?: readonly AnswerLink[];
}) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  const ref = useRef<HTMLDivElement>(null);
  const [ask, setAsk] = useState<LinkQuestion | undefined>(undefined);

  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    addCopyButtons(root);
    if (links) guardLinks(root, links);
  }, [html, links]);

  const askAt = (e: Event): boolean => {
    const q = links && questionAt(e.target, links);
    if (!q) return false;
    e.preventDefault();
    setAsk(q);
    return true;
  };
  const onClick = (e: MouseEvent) => {
    if (!askAt(e)) copyCode(e.target);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') askAt(e);
  };

  return (
    <>
      <div ref={ref} class={cls} onClick={onClick} onKeyDown={onKeyDown} dangerouslySetInnerHTML={{ __html: html }} />
      {ask && (
        <LinkAsk
          ask={ask}
          onOpen={() => {
            setAsk(undefined);
            openUrl(ask.url);
          }}
          onCancel={() => setAsk(undefined)}
        />
      )}
    </>
  );
}
