import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-key.ts';
import type { Clock } from '../clock.ts';
import type { AccountStore, ApiKeyRecord } from '../storage/accounts/interface.ts';
import type { LastUsedRecorder } from './last-used.ts';
import { hasUnsafeCharacter } from './names.ts';

export const MAX_ACTIVE_KEYS = 20;
export const MAX_KEY_NAME = 60;

/** A key's name as kept: blanks folded to one space; null when empty, too long or holding a control. */
export function normalizeKeyName(raw: string): string | null {
  const name = raw.trim().replace(/\s+/g, ' ');
  return name.length === 0 || name.length > MAX_KEY_NAME || hasUnsafeCharacter(name) ? null : name;
}

export type CreateKeyResult =
  | { ok: true; key: ApiKeyRecord; apiKey: string }
  | { ok: false; reason: 'invalid_name' | 'too_many_keys' };

export type RevokeKeyResult = { ok: true; key: ApiKeyRecord } | { ok: false; reason: 'not_found' };

/** A customer's own keys: every operation is scoped to the signed-in account. */
export class KeyService {
  constructor(
    private readonly accounts: AccountStore,
    private readonly lastUsed: LastUsedRecorder,
    private readonly clock: Clock,
  ) {}

  /** Newest first; last use includes what this instance has not written yet. */
  async list(accountId: string): Promise<ApiKeyRecord[]> {
    const keys = await this.accounts.listKeys(accountId);
    return keys
      .map((k) => {
        const pending = this.lastUsed.pending(k.id);
        return pending !== undefined && pending > (k.lastUsedAt ?? 0) ? { ...k, lastUsedAt: pending } : k;
      })
      .reverse();
  }

  /** The plaintext key is returned this once; only its digest is stored. */
  async create(accountId: string, rawName: string): Promise<CreateKeyResult> {
    const name = normalizeKeyName(rawName);
    if (name === null) return { ok: false, reason: 'invalid_name' };
    const active = (await this.accounts.listKeys(accountId)).filter((k) => k.revokedAt === null);
    if (active.length >= MAX_ACTIVE_KEYS) return { ok: false, reason: 'too_many_keys' };
    const apiKey = generateApiKey();
    const key = await this.accounts.createKey({
      accountId,
      hash: hashApiKey(apiKey),
      prefix: displayPrefix(apiKey),
      now: this.clock(),
      name,
    });
    return { ok: true, key, apiKey };
  }

  /** Another account's key id is answered exactly like an unknown one, and left alone. */
  async revoke(accountId: string, keyId: string): Promise<RevokeKeyResult> {
    const owned = (await this.accounts.listKeys(accountId)).find((k) => k.id === keyId);
    if (!owned) return { ok: false, reason: 'not_found' };
    const key = await this.accounts.revokeKey(owned.id, this.clock());
    return key ? { ok: true, key } : { ok: false, reason: 'not_found' };
  }
}
