/**
 * `dom.read`'s answer when it gives the page's visible text instead of an article: pages without one, and pages too
 * large for the article reader. Kept apart from read.ts (and Readability) so the always-injected content script can
 * answer a big page itself, reading its text in slices (#24).
 */
import type { ReadReply } from '../shared/contentMessages.ts';
import type { VisibleText } from './text.ts';

/**
 * Readability clones and scores the whole document in one go (no way to slice it): past this many elements that
 * would hold the page's main thread for seconds, so such pages get their visible text instead, with a note.
 */
export const READER_MAX_ELEMENTS = 25_000;

/** Where the visible text is read from: the page's main region, else its body. */
export function textRoot(): Node {
  return document.querySelector('main, [role="main"]') ?? document.body ?? document;
}

export function textArticle(text: VisibleText, tooBig: boolean): ReadReply {
  const out: ReadReply = {
    title: document.title,
    byline: '',
    siteName: '',
    excerpt: '',
    lang: document.documentElement.lang ?? '',
    markdown: text.text,
    readerable: false,
    truncated: text.truncated,
    chars: text.chars,
  };
  const notes: string[] = [];
  if (tooBig)
    notes.push(
      `the page has more than ${READER_MAX_ELEMENTS.toLocaleString('en-US')} elements, too many for the article reader without freezing it, so this is its visible text`,
    );
  if (text.note) notes.push(text.note);
  if (notes.length) out.note = notes.join('; ');
  return out;
}
