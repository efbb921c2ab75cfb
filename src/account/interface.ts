/** A signed-in browser: the cookie holds a random token, the database only its digest. */
export interface Session {
  id: string;
  accountId: string;
  createdAt: number;
  expiresAt: number;
}

/**
 * Persistence of the account pages: one-time sign-in tokens, sessions and profile fields. Tokens
 * are stored only as digests; every lookup goes by digest.
 */
export interface SessionStore {
  insertSignInToken(input: { hash: string; email: string; now: number; expiresAt: number }): Promise<void>;
  /** Marks the token used and returns its address, atomically: one caller at most, and only before it expires. */
  consumeSignInToken(hash: string, now: number): Promise<{ email: string } | null>;
  /** Forgets the unused tokens of an address (lower-cased), so a link already mailed stops working. */
  deleteSignInTokens(email: string): Promise<void>;

  insertSession(input: { id: string; hash: string; accountId: string; now: number; expiresAt: number }): Promise<void>;
  /** The session with this digest, unless it has expired. */
  findSession(hash: string, now: number): Promise<Session | null>;
  deleteSession(hash: string): Promise<void>;
  /** Ends every session of the account; returns how many there were. */
  deleteSessions(accountId: string): Promise<number>;

  getDisplayName(accountId: string): Promise<string | null>;
  setDisplayName(accountId: string, name: string | null): Promise<void>;

  /** Drops expired tokens and sessions. */
  deleteExpired(now: number): Promise<void>;
  close(): Promise<void>;
}
