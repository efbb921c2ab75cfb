import { timingSafeEqual } from 'node:crypto';
import type { Account, AccountStore, ApiKeyRecord } from '../storage/accounts/interface.ts';
import { hashApiKey, isWellFormedApiKey } from './api-key.ts';

export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'revoked';

export type AuthResult = { ok: true; account: Account; key: ApiKeyRecord } | { ok: false; reason: AuthFailure };

/** Resolves the X-API-KEY header value to an account. Refusals are values, not exceptions. */
export async function authenticate(store: AccountStore, header: string | string[] | undefined): Promise<AuthResult> {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  // Several X-API-KEY headers are ambiguous: refuse rather than pick one.
  if (Array.isArray(header) || !isWellFormedApiKey(header)) return { ok: false, reason: 'malformed' };
  const hash = hashApiKey(header);
  const found = await store.findKeyByHash(hash);
  if (!found || !timingSafeEqual(Buffer.from(found.key.hash), Buffer.from(hash))) {
    return { ok: false, reason: 'unknown' };
  }
  if (found.key.revokedAt !== null) return { ok: false, reason: 'revoked' };
  return { ok: true, account: found.account, key: found.key };
}
