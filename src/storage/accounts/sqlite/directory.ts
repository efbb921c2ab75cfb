import type Database from 'better-sqlite3';
import { AddressTakenError } from '../../../errors.ts';
import { generateId } from '../../../ids.ts';
import type { Plan } from '../../../quota/plans.ts';
import type { Account, ApiKeyRecord, NewKey } from '../interface.ts';
import type { FoundKey, KeyFinder } from '../key-cache.ts';
import { type AccountRow, type KeyAccountRow, type KeyRow, toAccount, toKey, toKeyAndAccount } from '../rows.ts';

type NewAccount = { email: string; plan: Plan; now: number };

/** Accounts and API keys in SQLite. */
export class SqliteDirectory implements KeyFinder {
  private readonly stmt;
  /** Moves on every key or account change, this connection's or another's (see changeToken). */
  private generation = 0;
  private dataVersion: number;
  private readonly insertIfAddressFree: Database.Transaction<(input: NewAccount) => Account>;

  constructor(db: Database.Database) {
    this.stmt = {
      insertAccount: db.prepare('INSERT INTO accounts (id, email, plan, anchor, created_at) VALUES (?, ?, ?, ?, ?)'),
      getAccount: db.prepare('SELECT * FROM accounts WHERE id = ?'),
      listAccounts: db.prepare('SELECT * FROM accounts ORDER BY created_at, id'),
      setPlan: db.prepare('UPDATE accounts SET plan = ?, anchor = ? WHERE id = ?'),
      accountByEmail: db.prepare(
        'SELECT * FROM accounts WHERE lower(email) = lower(?) ORDER BY created_at, id LIMIT 1',
      ),
      insertKey: db.prepare(
        'INSERT INTO api_keys (id, account_id, prefix, hash, created_at, name) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      touchKey: db.prepare(
        'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      ),
      listKeys: db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id'),
      getKey: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      revokeKey: db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?'),
      keyByHash: db.prepare(
        `SELECT k.*, a.email, a.plan, a.anchor, a.created_at AS account_created_at
           FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?`,
      ),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    };
    this.dataVersion = this.stmt.dataVersion.get() as number;
    // IMMEDIATE: the check and the insert hold the write lock together, so another process (the
    // CLI beside a serve) cannot add the same address in between.
    const insert = db.transaction((input: NewAccount) => this.insertAccount(input));
    this.insertIfAddressFree = insert.immediate as typeof insert;
  }

  /**
   * Changes whenever a key or account may have changed: this connection's writes bump it, and
   * PRAGMA data_version moves when another connection (the CLI, another process) commits.
   */
  changeToken(): number {
    const version = this.stmt.dataVersion.get() as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.generation++;
    }
    return this.generation;
  }

  /** Throws AddressTakenError when an account already has this address (any case). */
  createAccount(input: NewAccount): Account {
    return this.insertIfAddressFree(input);
  }

  private insertAccount(input: NewAccount): Account {
    if (this.findAccountByEmail(input.email)) throw new AddressTakenError(input.email);
    const id = generateId('acc');
    this.stmt.insertAccount.run(id, input.email, input.plan, input.now, input.now);
    this.generation++;
    return { id, email: input.email, plan: input.plan, anchor: input.now, createdAt: input.now };
  }

  getAccount(id: string): Account | null {
    const row = this.stmt.getAccount.get(id) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  listAccounts(): Account[] {
    return (this.stmt.listAccounts.all() as AccountRow[]).map(toAccount);
  }

  setPlan(id: string, plan: Plan, anchor: number): Account | null {
    this.stmt.setPlan.run(plan, anchor, id);
    this.generation++;
    return this.getAccount(id);
  }

  findAccountByEmail(email: string): Account | null {
    const row = this.stmt.accountByEmail.get(email) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  createKey(input: NewKey): ApiKeyRecord {
    const id = generateId('key');
    const { accountId, prefix, hash, now } = input;
    const name = input.name ?? null;
    this.stmt.insertKey.run(id, accountId, prefix, hash, now, name);
    this.generation++;
    return { id, accountId, prefix, hash, createdAt: now, revokedAt: null, name, lastUsedAt: null };
  }

  /**
   * Runs inside the write batcher's transaction. Not a change the key cache tracks: a cached
   * key's lastUsedAt may lag, and nothing that authenticates reads it.
   */
  touchKeys(lastUsed: ReadonlyMap<string, number>): void {
    for (const [id, at] of lastUsed) this.stmt.touchKey.run(at, id, at);
  }

  listKeys(accountId: string): ApiKeyRecord[] {
    return (this.stmt.listKeys.all(accountId) as KeyRow[]).map(toKey);
  }

  revokeKey(keyId: string, now: number): ApiKeyRecord | null {
    this.stmt.revokeKey.run(now, keyId);
    this.generation++;
    const row = this.stmt.getKey.get(keyId) as KeyRow | undefined;
    return row ? toKey(row) : null;
  }

  async findKeyByHash(hash: string): Promise<FoundKey | null> {
    const row = this.stmt.keyByHash.get(hash) as KeyAccountRow | undefined;
    return row ? toKeyAndAccount(row) : null;
  }
}
