import type { Account, ApiKeyRecord } from './interface.ts';

export type FoundKey = Readonly<{ key: Readonly<ApiKeyRecord>; account: Readonly<Account> }>;

export interface KeyFinder {
  findKeyByHash(hash: string): Promise<FoundKey | null>;
}

/** Keeps at most this many found keys; past it the cache starts over. */
const MAX_KEPT = 10_000;

/**
 * Every request looks its key up; keys and accounts change a few times a day. A decorator for any
 * backend that can tell, cheaply, whether a key or account could have changed: `changeToken`
 * returns the same value until then, and a new value empties the cache. Unknown keys are never
 * kept, so guessing keys costs no memory; what it hands out is frozen, so no caller alters it.
 */
export class CachedKeyFinder implements KeyFinder {
  private readonly found = new Map<string, FoundKey>();
  private token: unknown;

  constructor(
    private readonly inner: KeyFinder,
    private readonly changeToken: () => unknown,
  ) {
    this.token = changeToken();
  }

  async findKeyByHash(hash: string): Promise<FoundKey | null> {
    const token = this.changeToken();
    if (token !== this.token) {
      this.found.clear();
      this.token = token;
    }
    const kept = this.found.get(hash);
    if (kept) return kept;
    const row = await this.inner.findKeyByHash(hash);
    if (!row) return null;
    const frozen: FoundKey = Object.freeze({
      key: Object.freeze({ ...row.key }),
      account: Object.freeze({ ...row.account }),
    });
    // A change made while the lookup ran must not be kept under the new token.
    if (this.changeToken() !== token) return frozen;
    if (this.found.size >= MAX_KEPT) this.found.clear();
    this.found.set(hash, frozen);
    return frozen;
  }
}
