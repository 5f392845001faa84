/**
 * Size limits on what the panel and the settings send to the worker, and how they are said (issue 34). The panel
 * checks them before sending (so nothing waits, and the text stays where it was typed); the port's schemas enforce
 * the same numbers, and a request over one is answered in these words, never with the schema's own message.
 */

/** One chat message or command: about 50 pages of text. */
export const MESSAGE_MAX_CHARS = 200_000;
/** The config YAML: room for thousands of snippets (a 10,000-snippet config is about 1.5 MB). */
export const CONFIG_MAX_CHARS = 5_000_000;
/** The secrets YAML. */
export const SECRETS_MAX_CHARS = 100_000;

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1.2 MB" / "850 kB" for a number of characters (one byte each, near enough for text). */
export function sizeInWords(chars: number): string {
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} MB`;
  if (chars >= 10_000) return `${Math.round(chars / 1000)} kB`;
  return `${count(chars)} characters`;
}

/** The composer's refusal: said before anything is sent. */
export function messageTooLong(chars: number): string {
  return `This message is ${count(chars)} characters long; Otto takes at most ${count(MESSAGE_MAX_CHARS)} (about 50 pages) in one message. Shorten it, or send it in parts.`;
}

/** The settings editor's refusal. */
export function configTooLarge(chars: number): string {
  return `This configuration is ${sizeInWords(chars)}; Otto saves settings up to ${sizeInWords(CONFIG_MAX_CHARS)}. Remove what you do not use (long snippet bodies, old servers), then save.`;
}

/** Any other text over its limit (what the port answers when a request is too large). */
export function textTooLong(chars: number, max: number): string {
  return `This text is ${count(chars)} characters long; Otto takes at most ${count(max)} here. Shorten it and try again.`;
}
