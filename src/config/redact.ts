/**
 * Secret redaction for anything leaving the secrets entry: errors, logs, stats, stored results, exports.
 * Known secret values are replaced wherever they occur, and anything shaped like an OpenAI key (`sk-…`) too.
 */
const KEY_SHAPE = /sk-[A-Za-z0-9_-]{6,}/g;
export const REDACTED = '[redacted]';

export function redactSecrets(text: string, secretValues: Iterable<string>): string {
  let out = text;
  for (const value of secretValues) {
    if (value.length >= 4) out = out.split(value).join(REDACTED);
  }
  return out.replace(KEY_SHAPE, REDACTED);
}
