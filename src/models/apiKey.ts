/**
 * A key pasted with an invisible character (a zero-width space from a web page, a byte-order mark from a file) or a
 * letter no HTTP header can carry cannot be sent at all: fetch throws "String contains non ISO-8859-1 code point",
 * which reads like a network failure. The key is checked before anything is sent, and the message blames the key,
 * says where the character is and what to do — without showing the key.
 */

const NAMES: Record<number, string> = {
  0x00a0: 'no-break space',
  0x00ad: 'soft hyphen',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x2060: 'word joiner',
  0xfeff: 'byte-order mark',
};

// Controls, the no-break space and soft hyphen, and everything past Latin-1 (zero-width, bidi, any letter an HTTP
// header cannot carry). Leading/trailing spaces and line breaks are left alone: the header drops them.
// eslint-disable-next-line no-control-regex
const UNSENDABLE = /[\u0000-\u001F\u007F-\u00A0\u00AD]|[^\u0000-\u00FF]/u;

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why this key cannot be sent, in the user's words; undefined when it can. */
export function apiKeyProblem(key: string, setting = 'OPENAI_API_KEY'): string | undefined {
  const inner = key.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  const match = UNSENDABLE.exec(inner);
  if (!match) return undefined;
  const code = match[0].codePointAt(0) ?? 0;
  const position = [...inner.slice(0, match.index)].length + 1;
  const visible = code > 0xff && /\p{L}|\p{N}|\p{P}|\p{S}/u.test(match[0]);
  const what = visible
    ? `a character an API key cannot hold (${hex(code)})`
    : `an invisible character (${hex(code)}${NAMES[code] ? `, ${NAMES[code]}` : ''})`;
  return `Your API key contains ${what} at position ${position}, so it cannot be sent. Paste the key again in Settings (${setting}), without that character.`;
}
