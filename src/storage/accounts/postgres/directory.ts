import { AddressTakenError } from '../../../errors.ts';
import { generateId } from '../../../ids.ts';
import type { Plan } from '../../../quota/plans.ts';
import type { Account, ApiKeyRecord, NewKey } from '../interface.ts';
import type { FoundKey, KeyFinder } from '../key-cache.ts';
import { type AccountRow, type KeyAccountRow, type KeyRow, toAccount, toKey, toKeyAndAccount } from '../rows.ts';
import type { PgClient } from './client.ts';

/** Accounts and API keys in PostgreSQL. */
export class PostgresDirectory implements KeyFinder {
  constructor(private readonly db: PgClient) {}

  /**
   * Throws AddressTakenError when an account already has this address (any case). The lock on the
   * lower-cased address makes check and insert one step for every instance; a unique index could
   * not be added to a database that already holds duplicates.
   */
  async createAccount(input: { email: string; plan: Plan; now: number }): Promise<Account> {
    const id = generateId('acc');
    const { email, plan, now } = input;
    return this.db.tx(async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('postshot:account-email:' || lower($1)))`, [email]);
      const taken = await c.query('SELECT 1 FROM accounts WHERE lower(email) = lower($1) LIMIT 1', [email]);
      if (taken.rowCount) throw new AddressTakenError(email);
      const sql = 'INSERT INTO accounts (id, email, plan, anchor, created_at) VALUES ($1, $2, $3, $4, $4)';
      await c.query(sql, [id, email, plan, now]);
      return { id, email, plan, anchor: now, createdAt: now };
    });
  }

  async getAccount(id: string): Promise<Account | null> {
    const { rows } = await this.db.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0] ? toAccount(rows[0] as AccountRow) : null;
  }

  async listAccounts(): Promise<Account[]> {
    const { rows } = await this.db.query('SELECT * FROM accounts ORDER BY created_at, id');
    return (rows as AccountRow[]).map(toAccount);
  }

  async setPlan(id: string, plan: Plan, anchor: number): Promise<Account | null> {
    const sql = 'UPDATE accounts SET plan = $1, anchor = $2 WHERE id = $3 RETURNING *';
    const { rows } = await this.db.query(sql, [plan, anchor, id]);
    return rows[0] ? toAccount(rows[0] as AccountRow) : null;
  }

  async findAccountByEmail(email: string): Promise<Account | null> {
    const sql = 'SELECT * FROM accounts WHERE lower(email) = lower($1) ORDER BY created_at, id LIMIT 1';
    const { rows } = await this.db.query(sql, [email]);
    return rows[0] ? toAccount(rows[0] as AccountRow) : null;
  }

  async createKey(input: NewKey): Promise<ApiKeyRecord> {
    const id = generateId('key');
    const { accountId, prefix, hash, now } = input;
    const name = input.name ?? null;
    await this.db.query(
      'INSERT INTO api_keys (id, account_id, prefix, hash, created_at, name) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, accountId, prefix, hash, now, name],
    );
    return { id, accountId, prefix, hash, createdAt: now, revokedAt: null, name, lastUsedAt: null };
  }

  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    if (lastUsed.size === 0) return;
    // One statement for the whole flush; GREATEST keeps another instance's later time.
    await this.db.query(
      `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), t.at)
         FROM unnest($1::text[], $2::bigint[]) AS t(id, at) WHERE k.id = t.id`,
      [[...lastUsed.keys()], [...lastUsed.values()]],
    );
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.query('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [
      accountId,
    ]);
    return (rows as KeyRow[]).map(toKey);
  }

  async revokeKey(keyId: string, now: number): Promise<ApiKeyRecord | null> {
    const sql = 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *';
    const { rows } = await this.db.query(sql, [now, keyId]);
    return rows[0] ? toKey(rows[0] as KeyRow) : null;
  }

  async findKeyByHash(hash: string): Promise<FoundKey | null> {
    const { rows } = await this.db.query(
      `SELECT k.*, a.email, a.plan, a.anchor, a.created_at AS account_created_at
         FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1`,
      [hash],
    );
    return rows[0] ? toKeyAndAccount(rows[0] as KeyAccountRow) : null;
  }
}
