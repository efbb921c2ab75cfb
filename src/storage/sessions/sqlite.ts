import Database from 'better-sqlite3';
import type { Session, SessionStore } from '../../account/interface.ts';

// Its own tables, created idempotently after the account store's migrations (they refer to accounts).
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS sign_in_tokens (
    hash TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
  );
  CREATE INDEX IF NOT EXISTS sign_in_tokens_email ON sign_in_tokens(email);
  CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
  CREATE TABLE IF NOT EXISTS account_profiles (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    display_name TEXT
  );`;

interface SessionRow {
  id: string;
  account_id: string;
  created_at: number;
  expires_at: number;
}

/** A second connection to the account database file (WAL lets it read while the store writes). */
export function openSqliteSessionStore(url: string): SqliteSessionStore {
  const file = url.replace(/^sqlite:/, '');
  if (file === ':memory:') throw new Error('the account pages need a database file, not sqlite::memory:');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
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
