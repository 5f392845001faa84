/**
 * Links in an answer `otto run` prints (issue #42 part 3). The panel asks before a link that carries data opens; a
 * terminal has no such question, and many make URLs clickable. So a link the worker judged as carrying data read
 * from another site (its verdict is on the message's record, shared/answerLink.ts) is left out of the printed
 * answer, and a warning line names the flow — the sites, the values, where it goes — with the address defanged
 * (`https[:]//collector.test/…`: no terminal makes that a link), for a user who does mean to open it.
 */
import { parseAnswerLinks, type AnswerLink } from '../../shared/answerLink.ts';

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;

/** The URL with its scheme broken, so that no terminal makes it clickable. */
export function defanged(url: string): string {
  return url.replace(/^(https?):\/\//i, '$1[:]//');
}

function sameLink(raw: string, link: AnswerLink): boolean {
  try {
    return new URL(raw.replace(/[.,;:!?*_~]+$/, '')).href === link.url;
  } catch {
    return false;
  }
}

function warning(link: AnswerLink): string {
  const values = link.values.length ? ` (${link.values.join(', ')})` : '';
  const verb = link.values.length ? 'carries data read from' : 'may carry data read from';
  return `warning: the answer's link to ${link.to} ${verb} ${link.from.join(', ')}${values}; it was left out of the answer: ${defanged(link.url)}`;
}

/** The answer with each link that carries data left out, and one warning line per such link. */
export function withheldLinks(answer: string, verdicts: unknown): { text: string; warnings: string[] } {
  const carrying = parseAnswerLinks(verdicts).filter((l) => l.carries);
  if (!carrying.length) return { text: answer, warnings: [] };
  const text = answer.replace(URL_IN_TEXT, (raw) => {
    const link = carrying.find((l) => sameLink(raw, l));
    return link ? `[link to ${link.to} left out: it carries data]` : raw;
  });
  return { text, warnings: carrying.map(warning) };
}
