import { createHash } from 'node:crypto';
import { generateBase62 } from '../ids.ts';

// Sign-in links and session cookies carry 40 base62 characters (238 bits) from the CSPRNG.
// The prefixes let the log redaction recognise them: `psl_` for links, `pss_` for sessions.
export type TokenKind = 'psl' | 'pss';

export function generateSecretToken(kind: TokenKind): string {
  return `${kind}_${generateBase62(40)}`;
}

const TOKEN = /^ps[ls]_[0-9A-Za-z]{40}$/;

export function isWellFormedToken(kind: TokenKind, token: unknown): token is string {
  return typeof token === 'string' && TOKEN.test(token) && token.startsWith(`${kind}_`);
}

/** Only this digest is stored; a database dump gives no usable link or session. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
