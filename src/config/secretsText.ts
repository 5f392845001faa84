/**
 * Writing secret values into the stored secrets YAML so that any value round-trips (issue 34), and refusing values
 * that hold characters nobody means to put in a key.
 *
 * Every value is written as a double-quoted scalar: YAML escapes anything there (`:`, `#`, line breaks, leading
 * spaces, control characters), where a plain or block scalar loses or misreads some of them, and where setting a key
 * that already exists would otherwise keep its old style (a `|-` block drops a lone space). A flow map (`{}`) is
 * turned into a block map first, so one value per line stays readable.
 */
import { isMap, isScalar, parseDocument, Scalar } from 'yaml';

/** The stored secrets text with `set` merged in and `remove` dropped; comments kept. Throws when it does not parse. */
export function mergeSecretsText(
  text: string,
  set: Readonly<Record<string, string>>,
  remove: readonly string[] = [],
): string {
  const doc = parseDocument(text || '');
  if (doc.errors.length) throw new Error('The stored secrets do not parse; replace them all with secrets.save.');
  if (!doc.contents) doc.contents = doc.createNode({}) as never;
  if (isMap(doc.contents)) doc.contents.flow = false;
  for (const name of remove) doc.deleteIn([name]);
  for (const [name, value] of Object.entries(set)) {
    const existing = doc.getIn([name], true);
    // Replacing in place keeps the line's comment; the style is always double-quoted.
    const node = isScalar(existing) ? existing : new Scalar(value);
    node.value = value;
    node.type = Scalar.QUOTE_DOUBLE;
    if (node !== existing) doc.setIn([name], node);
  }
  return doc.toString({ lineWidth: 0 });
}

/** Names of the invisible characters people paste along with a key by accident. */
const INVISIBLE: Readonly<Record<number, string>> = {
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x061c: 'Arabic letter mark',
  0x115f: 'Hangul filler',
  0x1160: 'Hangul filler',
  0x17b4: 'Khmer vowel',
  0x17b5: 'Khmer vowel',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x2060: 'word joiner',
  0x3164: 'Hangul filler',
  0xfeff: 'zero-width no-break space (BOM)',
  0xffa0: 'Hangul filler',
};

function invisibleName(code: number): string | undefined {
  const named = INVISIBLE[code];
  if (named) return named;
  if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return 'control character';
  if (code >= 0x7f && code <= 0x9f) return 'control character';
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return 'text-direction mark';
  if (code >= 0x2061 && code <= 0x206f) return 'invisible format character';
  if (code >= 0xfe00 && code <= 0xfe0f) return 'variation selector';
  if (code >= 0xfff9 && code <= 0xfffb) return 'interlinear annotation mark';
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag character';
  if (code >= 0xd800 && code <= 0xdfff) return 'broken character (half of a surrogate pair)';
  return undefined;
}

/**
 * Why a secret value cannot be right, or undefined. Line breaks, tabs and spaces are allowed (a certificate or a
 * multi-line token round-trips); zero-width, direction and control characters are not: they come from a paste,
 * and a server would only answer "unauthorized" (or the browser refuse to send the header at all).
 */
export function secretValueProblem(name: string, value: string): string | undefined {
  let index = 0;
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    // A lone surrogate iterates as itself.
    const what = invisibleName(ch.length === 1 ? ch.charCodeAt(0) : code);
    if (what) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      return `${name} holds an invisible character (${what}, U+${hex}) at position ${index + 1}: it probably came along with a paste. Copy the value again from its source, or type it, then save.`;
    }
    index++;
  }
  return undefined;
}
