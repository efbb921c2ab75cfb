import Database from 'better-sqlite3';
import type { Session, SessionStore } from '../../account/interface.ts';
import { BUSY_TIMEOUT_MS } from '../accounts/sqlite/open.ts';

interface SessionRow {
  id: string;
  account_id: string;
  created_at: number;
  expires_at: number;
}

/**
 * A second connection to the account database file, opened after the account store: its
 * migrations made these tables and put the file in WAL mode, so this one reads while it writes.
 */
export function openSqliteSessionStore(url: string): SqliteSessionStore {
  const file = url.replace(/^sqlite:/, '');
  if (file === ':memory:') throw new Error('the account pages need a database file, not sqlite::memory:');
  const db = new Database(file, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  // Per connection, as the account store's (the journal mode belongs to the file).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return new SqliteSessionStore(db);
}

export class SqliteSessionStore implements SessionStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      insertToken: db.prepare('INSERT INTO sign_in_tokens (hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)'),
      consumeToken: db.prepare(
        'UPDATE sign_in_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING email',
      ),
      deleteTokens: db.prepare('DELETE FROM sign_in_tokens WHERE email = ? AND used_at IS NULL'),
      insertSession: db.prepare(
        'INSERT INTO sessions (id, hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      ),
      findSession: db.prepare(
        'SELECT id, account_id, created_at, expires_at FROM sessions WHERE hash = ? AND expires_at > ?',
      ),
      deleteSession: db.prepare('DELETE FROM sessions WHERE hash = ?'),
      deleteSessions: db.prepare('DELETE FROM sessions WHERE account_id = ?'),
      getName: db.prepare('SELECT display_name FROM account_profiles WHERE account_id = ?').pluck(),
      setName: db.prepare(
        `INSERT INTO account_profiles (account_id, display_name) VALUES (?, ?)
           ON CONFLICT (account_id) DO UPDATE SET display_name = excluded.display_name`,
      ),
      expireTokens: db.prepare('DELETE FROM sign_in_tokens WHERE expires_at <= ?'),
      expireSessions: db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
    };
  }

  async insertSignInToken(input: { hash: string; email: string; now: number; expiresAt: number }): Promise<void> {
    this.stmt.insertToken.run(input.hash, input.email, input.now, input.expiresAt);
  }

  async consumeSignInToken(hash: string, now: number): Promise<{ email: string } | null> {
    const row = this.stmt.consumeToken.get(now, hash, now) as { email: string } | undefined;
    return row ? { email: row.email } : null;
  }

  async deleteSignInTokens(email: string): Promise<void> {
    this.stmt.deleteTokens.run(email);
  }

  async insertSession(input: { id: string; hash: string; accountId: string; now: number; expiresAt: number }) {
    this.stmt.insertSession.run(input.id, input.hash, input.accountId, input.now, input.expiresAt);
  }

  async findSession(hash: string, now: number): Promise<Session | null> {
    const r = this.stmt.findSession.get(hash, now) as SessionRow | undefined;
    return r ? { id: r.id, accountId: r.account_id, createdAt: r.created_at, expiresAt: r.expires_at } : null;
  }

  async deleteSession(hash: string): Promise<void> {
    this.stmt.deleteSession.run(hash);
  }

  async deleteSessions(accountId: string): Promise<number> {
    return this.stmt.deleteSessions.run(accountId).changes;
  }

  async getDisplayName(accountId: string): Promise<string | null> {
    return (this.stmt.getName.get(accountId) as string | null | undefined) ?? null;
  }

  async setDisplayName(accountId: string, name: string | null): Promise<void> {
    this.stmt.setName.run(accountId, name);
  }

  async deleteExpired(now: number): Promise<void> {
    this.stmt.expireTokens.run(now);
    this.stmt.expireSessions.run(now);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
