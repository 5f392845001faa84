/**
 * The number a text shows, as people write it on pages: "$39.99", "39,99 €", "1,299.00", "1.299,00", "1 299,00",
 * "CHF 1'299.–", "−5". The first number in the text wins. Locales differ only in which mark separates thousands
 * and which separates the decimals, so the marks are read from the number itself, not from a locale setting:
 *
 * - a run of groups of exactly three digits after the first one or three ("1,299", "12.345.678", "1 299") is thousands;
 *   a mark after them that differs from the grouping mark starts the decimals ("1.299,00", "1,299.00");
 * - any other single "." or "," is the decimal mark ("39,99", "39.99", "0.125").
 *
 * So "1.299" is one thousand two hundred ninety-nine (a European price), not 1.299: prices with three decimals are
 * rarer than prices over a thousand. Returns undefined when the text holds no number.
 */
const GROUPED = /(-?)([1-9]\d{0,2})([ ',.])(\d{3}(?:\3\d{3})*)(?:([.,])(\d+))?/;
const PLAIN = /(-?)(\d+)(?:[.,](\d+))?/;

export function readNumber(text: string): number | undefined {
  const s = text.replace(/[\u2212\u2012\u2013]/g, '-').replace(/[\u00a0\u202f\u2009\u2007]/g, ' ');
  const plain = PLAIN.exec(s);
  if (!plain) return undefined;
  const grouped = GROUPED.exec(s);
  if (grouped && grouped.index === plain.index) {
    const [, sign, head, mark, groups, decimalMark, decimals] = grouped;
    if (!decimalMark || decimalMark !== mark) {
      const digits = `${head}${groups!.split(mark!).join('')}${decimals ? `.${decimals}` : ''}`;
      return Number(`${sign}${digits}`);
    }
  }
  const [, sign, whole, fraction] = plain;
  return Number(`${sign}${whole}${fraction ? `.${fraction}` : ''}`);
}
