import type { Clock } from '../clock.ts';
import { generateId } from '../ids.ts';
import type { Account, AccountStore } from '../storage/accounts/interface.ts';
import type { Session, SessionStore } from './interface.ts';
import { generateSecretToken, hashSecretToken, isWellFormedToken } from './secret-token.ts';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;

/** Server-side sessions: the cookie is a bearer token; revoking deletes the row. */
export class SessionService {
  constructor(
    private readonly store: SessionStore,
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string): Promise<{ token: string; expiresAt: number }> {
    const token = generateSecretToken('pss');
    const now = this.clock();
    const expiresAt = now + SESSION_TTL_MS;
    await this.store.insertSession({ id: generateId('ses'), hash: hashSecretToken(token), accountId, now, expiresAt });
    return { token, expiresAt };
  }

  /** The session and its account, or null for a missing, malformed, expired or revoked token. */
  async resolve(token: unknown): Promise<{ session: Session; account: Account } | null> {
    if (!isWellFormedToken('pss', token)) return null;
    const session = await this.store.findSession(hashSecretToken(token), this.clock());
    if (!session) return null;
    const account = await this.accounts.getAccount(session.accountId);
    return account ? { session, account } : null;
  }

  async signOut(token: unknown): Promise<void> {
    if (isWellFormedToken('pss', token)) await this.store.deleteSession(hashSecretToken(token));
  }

  /** Ends every session of the account and voids the sign-in links already mailed to it. */
  async signOutEverywhere(account: Account): Promise<number> {
    await this.store.deleteSignInTokens(account.email.toLowerCase());
    return this.store.deleteSessions(account.id);
  }
}
