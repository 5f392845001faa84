/** Sanitised markdown with a copy button on every code block. */
import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown.ts';

export function Markdown({ text, class: cls = 'md' }: { text: string; class?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  const ref = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
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
  }, [html]);

  const onClick = (e: MouseEvent) => {
    const button = (e.target as HTMLElement).closest('button.copy');
    const code = button?.parentElement?.querySelector('pre')?.textContent;
    if (!button || code == null) return;
    void navigator.clipboard.writeText(code).then(
      () => {
        button.textContent = 'Copied';
        setTimeout(() => (button.textContent = 'Copy'), 1500);
      },
      () => (button.textContent = 'Copy failed'),
    );
  };

  return <div ref={ref} class={cls} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
