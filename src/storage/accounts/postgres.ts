import pg from 'pg';
import { DependencyDownError } from '../../errors.ts';
import { generateId } from '../../ids.ts';
import type { ClaimedMessage } from '../../notify/interface.ts';
import type { Plan } from '../../quota/plans.ts';
import { thresholdsCrossed } from '../../quota/thresholds.ts';
import type {
  Account,
  AccountStore,
  ApiKeyRecord,
  DailyUsage,
  LedgerRow,
  OutboxMessage,
  ReserveRequest,
  ReserveResult,
} from './interface.ts';

// Times are BIGINT milliseconds, as in the SQLite store, so both stores share one model.
const MIGRATIONS: string[] = [
  `CREATE TABLE accounts (
     id TEXT PRIMARY KEY, email TEXT NOT NULL, plan TEXT NOT NULL, anchor BIGINT NOT NULL, created_at BIGINT NOT NULL);
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), prefix TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL, revoked_at BIGINT);
   CREATE INDEX api_keys_account ON api_keys(account_id);
   CREATE TABLE usage_counters (
     account_id TEXT NOT NULL REFERENCES accounts(id), period_start BIGINT NOT NULL,
     used INTEGER NOT NULL DEFAULT 0, committed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (account_id, period_start));
   CREATE TABLE ledger (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), period_start BIGINT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('charge', 'refund')), amount INTEGER NOT NULL CHECK (amount > 0),
     refunded INTEGER NOT NULL DEFAULT 0, status TEXT CHECK (status IN ('pending', 'committed', 'refunded')),
     quota_limit INTEGER, request_id TEXT NOT NULL, endpoint TEXT NOT NULL, ref_id TEXT, created_at BIGINT NOT NULL,
     seq BIGSERIAL);
   CREATE INDEX ledger_account ON ledger(account_id, created_at);
   CREATE INDEX ledger_pending ON ledger(created_at) WHERE status = 'pending';
   CREATE TABLE outbox (
     id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id), period_start BIGINT NOT NULL,
     threshold INTEGER NOT NULL, used INTEGER NOT NULL, quota_limit INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at BIGINT NOT NULL, claimed_by TEXT, claimed_until BIGINT,
     last_error TEXT, created_at BIGINT NOT NULL, sent_at BIGINT, UNIQUE (account_id, period_start, threshold));
   CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE sent_at IS NULL;`,
  `ALTER TABLE api_keys ADD COLUMN name TEXT, ADD COLUMN last_used_at BIGINT;
   CREATE INDEX accounts_email ON accounts(lower(email));`,
];

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

function toAccount(r: Record<string, unknown>): Account {
  return {
    id: String(r.id),
    email: String(r.email),
    plan: r.plan as Plan,
    anchor: Number(r.anchor),
    createdAt: Number(r.created_at),
  };
}

function toKey(r: Record<string, unknown>): ApiKeyRecord {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    prefix: String(r.prefix),
    hash: String(r.hash),
    createdAt: Number(r.created_at),
    revokedAt: num(r.revoked_at as string | null),
    name: (r.name as string | null) ?? null,
    lastUsedAt: num((r.last_used_at as string | null) ?? null),
  };
}

/** `postgres://…?schema=name` keeps all tables in that schema (created if missing). */
export function parseUrl(url: string): { connectionString: string; schema: string } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), schema };
}

export async function openPostgresStore(url: string): Promise<PostgresAccountStore> {
  const { connectionString, schema } = parseUrl(url);
  const pool = new pg.Pool({
    connectionString,
    options: `-c search_path=${schema}`,
    max: 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  // A dropped connection is reported per query; the pool replaces it. Without a listener an idle
  // client's error would crash the process.
  pool.on('error', () => {});
  const store = new PostgresAccountStore(pool);
  await store.migrate(schema);
  return store;
}

type Client = pg.PoolClient;

const ENSURE_COUNTER = 'INSERT INTO usage_counters (account_id, period_start) VALUES ($1, $2) ON CONFLICT DO NOTHING';
/** A charge row: pending for a reservation, committed for a result already in hand. */
const INSERT_CHARGE = `INSERT INTO ledger (id, account_id, period_start, kind, amount, status, quota_limit, request_id, endpoint, created_at)
  VALUES ($1, $2, $3, 'charge', $4, $5, $6, $7, $8, $9)`;
const SELECT_USED = 'SELECT used FROM usage_counters WHERE account_id = $1 AND period_start = $2';
const usedOf = (r: pg.QueryResult): number => (r.rows[0] ? Number(r.rows[0].used) : 0);

/** The threshold e-mails a move of committed credits from `before` to `after` causes, in the caller's transaction. */
async function recordNotices(
  c: Client,
  accountId: string,
  periodStart: number,
  before: number,
  after: number,
  limit: number,
  now: number,
): Promise<void> {
  for (const threshold of thresholdsCrossed(before, after, limit)) {
    await c.query(
      `INSERT INTO outbox (id, account_id, period_start, threshold, used, quota_limit, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT DO NOTHING`,
      [generateId('msg'), accountId, periodStart, threshold, after, limit, now],
    );
  }
}

export class PostgresAccountStore implements AccountStore {
  readonly kind = 'postgres' as const;

  constructor(private readonly pool: pg.Pool) {}

  async migrate(schema: string): Promise<void> {
    await this.tx(async (c) => {
      // One migrator at a time across instances.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`postshot-migrate-${schema}`]);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await c.query(`SET LOCAL search_path TO ${schema}`);
      await c.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      const { rows } = await c.query('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => Number(r.version)));
      for (const [i, sql] of MIGRATIONS.entries()) {
        if (applied.has(i + 1)) continue;
        await c.query(sql);
        await c.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [i + 1, Date.now()]);
      }
    });
  }

  private async q(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(sql, params);
    } catch (err) {
      throw wrap(err);
    }
  }

  private async tx<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    let client: Client;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw new DependencyDownError('database', err);
    }
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw wrap(err);
    } finally {
      client.release();
    }
  }

  async createAccount(input: { email: string; plan: Plan; now: number }): Promise<Account> {
    const id = generateId('acc');
    await this.q('INSERT INTO accounts (id, email, plan, anchor, created_at) VALUES ($1, $2, $3, $4, $4)', [
      id,
      input.email,
      input.plan,
      input.now,
    ]);
    return { id, email: input.email, plan: input.plan, anchor: input.now, createdAt: input.now };
  }

  async getAccount(id: string): Promise<Account | null> {
    const { rows } = await this.q('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.q('SELECT * FROM accounts ORDER BY created_at, id')).rows.map(toAccount);
  }

  async setPlan(id: string, plan: Plan, anchor: number): Promise<Account | null> {
    const { rows } = await this.q('UPDATE accounts SET plan = $1, anchor = $2 WHERE id = $3 RETURNING *', [
      plan,
      anchor,
      id,
    ]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async findAccountByEmail(email: string): Promise<Account | null> {
    const { rows } = await this.q(
      'SELECT * FROM accounts WHERE lower(email) = lower($1) ORDER BY created_at, id LIMIT 1',
      [email],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async createKey(input: {
    accountId: string;
    hash: string;
    prefix: string;
    now: number;
    name?: string | null;
  }): Promise<ApiKeyRecord> {
    const id = generateId('key');
    const name = input.name ?? null;
    await this.q(
      'INSERT INTO api_keys (id, account_id, prefix, hash, created_at, name) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, input.accountId, input.prefix, input.hash, input.now, name],
    );
    return {
      id,
      accountId: input.accountId,
      prefix: input.prefix,
      hash: input.hash,
      createdAt: input.now,
      revokedAt: null,
      name,
      lastUsedAt: null,
    };
  }

  async touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    if (lastUsed.size === 0) return;
    // One statement for the whole flush; GREATEST keeps another instance's later time.
    await this.q(
      `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), t.at)
         FROM unnest($1::text[], $2::bigint[]) AS t(id, at) WHERE k.id = t.id`,
      [[...lastUsed.keys()], [...lastUsed.values()]],
    );
  }

  async usagePerDay(accountId: string, since: number): Promise<DailyUsage[]> {
    const { rows } = await this.q(
      `SELECT (created_at / 86400000) * 86400000 AS day, endpoint, COUNT(*) AS requests, SUM(amount - refunded) AS credits
         FROM ledger WHERE account_id = $1 AND created_at >= $2 AND kind = 'charge' AND status <> 'refunded'
        GROUP BY day, endpoint ORDER BY day, endpoint`,
      [accountId, since],
    );
    return rows.map((r) => ({
      day: Number(r.day),
      endpoint: String(r.endpoint),
      requests: Number(r.requests),
      credits: Number(r.credits),
    }));
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return (await this.q('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId])).rows.map(
      toKey,
    );
  }

  async revokeKey(keyId: string, now: number): Promise<ApiKeyRecord | null> {
    const { rows } = await this.q(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING *',
      [now, keyId],
    );
    return rows[0] ? toKey(rows[0]) : null;
  }

  async findKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; account: Account } | null> {
    const { rows } = await this.q(
      `SELECT k.*, a.email, a.plan, a.anchor, a.created_at AS account_created_at
         FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1`,
      [hash],
    );
    const r = rows[0];
    if (!r) return null;
    return { key: toKey(r), account: toAccount({ ...r, id: r.account_id, created_at: r.account_created_at }) };
  }

  async getUsed(accountId: string, periodStart: number): Promise<number> {
    return usedOf(await this.q(SELECT_USED, [accountId, periodStart]));
  }

  async reserve(req: ReserveRequest): Promise<ReserveResult> {
    return this.tx(async (c) => {
      await c.query(ENSURE_COUNTER, [req.accountId, req.periodStart]);
      // The row lock serializes concurrent reservations of one account across every instance.
      const { rows } = await c.query(
        'SELECT used FROM usage_counters WHERE account_id = $1 AND period_start = $2 FOR UPDATE',
        [req.accountId, req.periodStart],
      );
      const used = Number(rows[0].used);
      const available = Math.max(0, req.limit - used);
      const granted = req.partial ? Math.min(available, req.amount) : available >= req.amount ? req.amount : 0;
      if (granted <= 0) return { ok: false, used };
      const id = generateId('chg');
      await c.query('UPDATE usage_counters SET used = used + $1 WHERE account_id = $2 AND period_start = $3', [
        granted,
        req.accountId,
        req.periodStart,
      ]);
      await c.query(INSERT_CHARGE, [
        id,
        req.accountId,
        req.periodStart,
        granted,
        'pending',
        req.limit,
        req.requestId,
        req.endpoint,
        req.now,
      ]);
      return { ok: true, reservationId: id, granted, used: used + granted };
    });
  }

  async charge(req: Omit<ReserveRequest, 'partial'>): Promise<ReserveResult> {
    if (!(req.amount > 0)) throw new RangeError(`a charge must be positive, got ${req.amount}`);
    return this.tx(async (c) => {
      // The conditional update takes the counter's row lock: concurrent charges of one account
      // queue on it across every instance, and none overspends.
      const take = () =>
        c.query(
          `UPDATE usage_counters SET used = used + $1, committed = committed + $1
             WHERE account_id = $2 AND period_start = $3 AND used + $1 <= $4 RETURNING used, committed`,
          [req.amount, req.accountId, req.periodStart, req.limit],
        );
      let taken = await take();
      if (taken.rows.length === 0) {
        // No counter for this period yet, or too few credits left.
        await c.query(ENSURE_COUNTER, [req.accountId, req.periodStart]);
        taken = await take();
        if (taken.rows.length === 0)
          return { ok: false, used: usedOf(await c.query(SELECT_USED, [req.accountId, req.periodStart])) };
      }
      const id = generateId('chg');
      await c.query(INSERT_CHARGE, [
        id,
        req.accountId,
        req.periodStart,
        req.amount,
        'committed',
        req.limit,
        req.requestId,
        req.endpoint,
        req.now,
      ]);
      const committed = Number(taken.rows[0].committed);
      await recordNotices(c, req.accountId, req.periodStart, committed - req.amount, committed, req.limit, req.now);
      return { ok: true, reservationId: id, granted: req.amount, used: Number(taken.rows[0].used) };
    });
  }

  async commit(reservationId: string, now: number): Promise<void> {
    await this.tx(async (c) => {
      const { rows } = await c.query("SELECT * FROM ledger WHERE id = $1 AND kind = 'charge' FOR UPDATE", [
        reservationId,
      ]);
      const ch = rows[0];
      if (ch?.status !== 'pending') return;
      const net = Number(ch.amount) - Number(ch.refunded);
      await c.query('UPDATE ledger SET status = $1 WHERE id = $2', [net > 0 ? 'committed' : 'refunded', reservationId]);
      if (net <= 0) return;
      const counter = await c.query(
        'UPDATE usage_counters SET committed = committed + $1 WHERE account_id = $2 AND period_start = $3 RETURNING committed',
        [net, ch.account_id, ch.period_start],
      );
      const committed = Number(counter.rows[0].committed);
      await recordNotices(
        c,
        ch.account_id,
        Number(ch.period_start),
        committed - net,
        committed,
        Number(ch.quota_limit),
        now,
      );
    });
  }

  async refund(reservationId: string, amount: number | null, now: number): Promise<number> {
    return this.tx(async (c) => {
      const { rows } = await c.query("SELECT * FROM ledger WHERE id = $1 AND kind = 'charge' FOR UPDATE", [
        reservationId,
      ]);
      const ch = rows[0];
      if (ch?.status !== 'pending') return 0;
      const left = Number(ch.amount) - Number(ch.refunded);
      const give = amount === null ? left : Math.min(left, amount);
      if (give <= 0) return 0;
      await c.query(
        `INSERT INTO ledger (id, account_id, period_start, kind, amount, request_id, endpoint, ref_id, created_at)
         VALUES ($1, $2, $3, 'refund', $4, $5, $6, $7, $8)`,
        [generateId('rfd'), ch.account_id, ch.period_start, give, ch.request_id, ch.endpoint, ch.id, now],
      );
      await c.query('UPDATE usage_counters SET used = used - $1 WHERE account_id = $2 AND period_start = $3', [
        give,
        ch.account_id,
        ch.period_start,
      ]);
      const refunded = Number(ch.refunded) + give;
      await c.query('UPDATE ledger SET status = $1, refunded = $2 WHERE id = $3', [
        refunded === Number(ch.amount) ? 'refunded' : 'pending',
        refunded,
        ch.id,
      ]);
      return give;
    });
  }

  async refundAbandoned(olderThan: number, now: number): Promise<number> {
    const { rows } = await this.q("SELECT id FROM ledger WHERE status = 'pending' AND created_at < $1", [olderThan]);
    let total = 0;
    for (const r of rows) total += await this.refund(String(r.id), null, now);
    return total;
  }

  async ledger(accountId: string): Promise<LedgerRow[]> {
    const { rows } = await this.q('SELECT * FROM ledger WHERE account_id = $1 ORDER BY created_at, seq', [accountId]);
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      periodStart: Number(r.period_start),
      kind: r.kind,
      amount: Number(r.amount),
      status: r.status,
      requestId: r.request_id,
      endpoint: r.endpoint,
      refId: r.ref_id,
      createdAt: Number(r.created_at),
    }));
  }

  async claimDue(owner: string, now: number, leaseMs: number, max: number): Promise<ClaimedMessage[]> {
    // SKIP LOCKED: two instances claiming at once take disjoint rows.
    const { rows } = await this.q(
      `WITH due AS (
         SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $3
            AND (claimed_until IS NULL OR claimed_until < $3)
          ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE outbox o SET claimed_by = $1, claimed_until = $2 FROM due, accounts a
        WHERE o.id = due.id AND a.id = o.account_id
       RETURNING o.*, a.email, a.plan, a.anchor`,
      [owner, now + leaseMs, now, max],
    );
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      email: r.email,
      plan: r.plan,
      anchor: Number(r.anchor),
      periodStart: Number(r.period_start),
      threshold: Number(r.threshold),
      used: Number(r.used),
      limit: Number(r.quota_limit),
      attempts: Number(r.attempts),
    }));
  }

  async markSent(id: string, owner: string, now: number): Promise<boolean> {
    const r = await this.q(
      'UPDATE outbox SET sent_at = $1, claimed_until = NULL WHERE id = $2 AND claimed_by = $3 AND sent_at IS NULL',
      [now, id, owner],
    );
    return r.rowCount === 1;
  }

  async markFailed(id: string, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    await this.q(
      'UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, claimed_until = NULL WHERE id = $3 AND claimed_by = $4',
      [nextAttemptAt, error.slice(0, 500), id, owner],
    );
  }

  async listOutbox(accountId: string): Promise<OutboxMessage[]> {
    const { rows } = await this.q('SELECT * FROM outbox WHERE account_id = $1 ORDER BY threshold, period_start', [
      accountId,
    ]);
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      periodStart: Number(r.period_start),
      threshold: Number(r.threshold),
      attempts: Number(r.attempts),
      createdAt: Number(r.created_at),
      sentAt: num(r.sent_at),
    }));
  }

  async ping(): Promise<void> {
    await this.q('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}

/** Connection-level failures become 503s; anything else (a bug, a constraint) stays an error. */
function wrap(err: unknown): unknown {
  if (err instanceof DependencyDownError) return err;
  const e = err as { code?: string; message?: string };
  const connection =
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P01|57P02|57P03|08\d{3})$/.test(e.code ?? '') ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
      e.message ?? '',
    );
  return connection ? new DependencyDownError('database', err) : err;
}
