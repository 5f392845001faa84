/** Identifiers shaped like the real API's (`resp_` + 50 hex, `call_` + 24 alphanumerics, ...). */
import { randomBytes } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function alnum(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALNUM[byte % ALNUM.length];
  return out;
}

const hexId = (prefix: string) => `${prefix}_${randomBytes(25).toString('hex')}`;

export const ids = {
  response: () => hexId('resp'),
  message: () => hexId('msg'),
  functionCall: () => hexId('fc'),
  reasoning: () => hexId('rs'),
  callId: () => `call_${alnum(24)}`,
  request: () => `req_${randomBytes(16).toString('hex')}`,
  /** The `obfuscation` padding real delta events carry (varying length, so sizes leak nothing). */
  obfuscation: (delta: string) => alnum(Math.max(3, 16 - (delta.length % 13))),
  /** Opaque stand-in for `encrypted_content` (real ones start with gAAAAA). */
  encrypted: () => `gAAAAAB${randomBytes(120).toString('base64url')}`,
};
