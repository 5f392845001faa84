/**
 * Page text reaching the model is untrusted data. `wrapUntrusted` delimits it with a boundary tag whose name carries
 * random hex chosen per call (`<external-content-3fa9c2d1>…</external-content-3fa9c2d1>`), so text inside cannot
 * close the boundary by guessing it; look-alike tags inside are defused as well. Pure: usable in the worker too.
 */

export const UNTRUSTED_TAG_PREFIX = 'external-content-';

function randomHex(bytes: number): string {
  const b = new Uint8Array(bytes);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** `tag` (from `untrustedTag`): a boundary kept across calls, for text that must stay byte-stable (tool definitions). */
export function wrapUntrusted(text: string, tag = newTag()): string {
  return `<${tag}>\n${defuse(text)}\n</${tag}>`;
}

const newTag = (): string => `${UNTRUSTED_TAG_PREFIX}${randomHex(4)}`;
/** A boundary tag made from a random hex string the caller keeps (never shown to the text's author). */
export const untrustedTag = (hex: string): string => `${UNTRUSTED_TAG_PREFIX}${hex}`;
/** Look-alike boundary tags inside page text lose their `<`. */
const defuse = (text: string): string => text.replace(/<(\/?)(external-content-)/gi, '&lt;$1$2');

/**
 * The same boundary on one line, for short page-controlled strings inside structured results (a tab's title): the
 * value stays a single line in JSON, and code-mode chains pass it on still marked.
 */
export function wrapUntrustedInline(text: string): string {
  const tag = newTag();
  return `<${tag}>${defuse(text.replace(/[\r\n]+/g, ' '))}</${tag}>`;
}
