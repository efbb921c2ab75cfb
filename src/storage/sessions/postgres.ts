import pg from 'pg';
import type { Session, SessionStore } from '../../account/interface.ts';
import { PgClient, QUERY_TIMEOUT_MS } from '../accounts/postgres/client.ts';
import { parseUrl } from '../accounts/postgres/url.ts';

/** A pool of its own on the account store's schema, whose migrations made these tables. */
export async function openPostgresSessionStore(url: string): Promise<PostgresSessionStore> {
  const { connectionString, schema } = parseUrl(url);
  const pool = new pg.Pool({
    connectionString,
    options: `-c search_path=${schema}`,
    application_name: schema === 'public' ? 'postshot-sessions' : `postshot-sessions/${schema}`,
    max: 4,
    connectionTimeoutMillis: 3000,
    query_timeout: QUERY_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  return new PostgresSessionStore(new PgClient(pool));
}

export class PostgresSessionStore implements SessionStore {
  constructor(private readonly client: PgClient) {}

  private q(sql: string, params: unknown[]): Promise<pg.QueryResult> {
    return this.client.query(sql, params);
  }

  async insertSignInToken(input: { hash: string; email: string; now: number; expiresAt: number }): Promise<void> {
    await this.q('INSERT INTO sign_in_tokens (hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      input.hash,
      input.email,
      input.now,
      input.expiresAt,
    ]);
  }

  async consumeSignInToken(hash: string, now: number): Promise<{ email: string } | null> {
    // One statement: of two concurrent uses, the row lock lets exactly one see used_at still null.
    const { rows } = await this.q(
      'UPDATE sign_in_tokens SET used_at = $1 WHERE hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING email',
      [now, hash],
    );
    return rows[0] ? { email: String(rows[0].email) } : null;
  }

  async deleteSignInTokens(email: string): Promise<void> {
    await this.q('DELETE FROM sign_in_tokens WHERE email = $1 AND used_at IS NULL', [email]);
  }

  async insertSession(input: { id: string; hash: string; accountId: string; now: number; expiresAt: number }) {
    await this.q('INSERT INTO sessions (id, hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      input.id,
      input.hash,
      input.accountId,
      input.now,
      input.expiresAt,
    ]);
  }

  async findSession(hash: string, now: number): Promise<Session | null> {
    const { rows } = await this.q(
      'SELECT id, account_id, created_at, expires_at FROM sessions WHERE hash = $1 AND expires_at > $2',
      [hash, now],
    );
    const r = rows[0];
    return r
      ? { id: r.id, accountId: r.account_id, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at) }
      : null;
  }

  async deleteSession(hash: string): Promise<void> {
    await this.q('DELETE FROM sessions WHERE hash = $1', [hash]);
  }

  async deleteSessions(accountId: string): Promise<number> {
    return (await this.q('DELETE FROM sessions WHERE account_id = $1', [accountId])).rowCount ?? 0;
  }

  async getDisplayName(accountId: string): Promise<string | null> {
    const { rows } = await this.q('SELECT display_name FROM account_profiles WHERE account_id = $1', [accountId]);
    return rows[0]?.display_name ?? null;
  }

  async setDisplayName(accountId: string, name: string | null): Promise<void> {
    await this.q(
      `INSERT INTO account_profiles (account_id, display_name) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET display_name = excluded.display_name`,
      [accountId, name],
    );
  }

  async deleteExpired(now: number): Promise<void> {
    await this.q('DELETE FROM sign_in_tokens WHERE expires_at <= $1', [now]);
    await this.q('DELETE FROM sessions WHERE expires_at <= $1', [now]);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
