import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateId } from '../../ids.ts';
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
import type { ClaimedMessage } from '../../notify/interface.ts';

const MIGRATIONS: string[] = [
  `CREATE TABLE accounts (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     plan TEXT NOT NULL,
     anchor INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     prefix TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE,
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   );
   CREATE INDEX api_keys_account ON api_keys(account_id);
   CREATE TABLE usage_counters (
     account_id TEXT NOT NULL REFERENCES accounts(id),
     period_start INTEGER NOT NULL,
     used INTEGER NOT NULL DEFAULT 0,
     committed INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (account_id, period_start)
   );
   CREATE TABLE ledger (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     period_start INTEGER NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('charge', 'refund')),
     amount INTEGER NOT NULL CHECK (amount > 0),
     refunded INTEGER NOT NULL DEFAULT 0,
     status TEXT CHECK (status IN ('pending', 'committed', 'refunded')),
     quota_limit INTEGER,
     request_id TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     ref_id TEXT,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX ledger_account ON ledger(account_id, created_at);
   CREATE INDEX ledger_pending ON ledger(status, created_at) WHERE status = 'pending';
   CREATE TABLE outbox (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     period_start INTEGER NOT NULL,
     threshold INTEGER NOT NULL,
     used INTEGER NOT NULL,
     quota_limit INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     claimed_by TEXT,
     claimed_until INTEGER,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     sent_at INTEGER,
     UNIQUE (account_id, period_start, threshold)
   );
   CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE sent_at IS NULL;`,
  `ALTER TABLE api_keys ADD COLUMN name TEXT;
   ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;
   CREATE INDEX accounts_email ON accounts(lower(email));`,
];

interface AccountRow {
  id: string;
  email: string;
  plan: Plan;
  anchor: number;
  created_at: number;
}
interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  created_at: number;
  revoked_at: number | null;
  name: string | null;
  last_used_at: number | null;
}

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  email: r.email,
  plan: r.plan,
  anchor: r.anchor,
  createdAt: r.created_at,
});
const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  prefix: r.prefix,
  hash: r.hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  name: r.name,
  lastUsedAt: r.last_used_at,
});

export function openSqliteStore(url: string): SqliteAccountStore {
  const file = url.replace(/^sqlite:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A checkpoint copies the WAL into the database file and syncs both, on this thread, after the
  // commit that crosses the limit. Every request appends ~6 pages, and the same few pages over
  // and over, so 10 times fewer checkpoints copy little more and sync 10 times less: the store's
  // wall time per metered request went from ~135 to ~105 µs (scratch store bench, batches of 4).
  // The WAL file stays under ~40 MB.
  db.pragma('wal_autocheckpoint = 10000');
  migrate(db);
  return new SqliteAccountStore(db);
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  MIGRATIONS.forEach((sql, i) => {
    const version = i + 1;
    if (applied.has(version)) return;
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
    }).immediate();
  });
}

interface PendingWrite {
  run: () => unknown;
  resolve: (v: never) => void;
  reject: (e: unknown) => void;
  /** Set inside the batch; reported once the batch has committed. */
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

/** A call in a batch threw: the batch is rolled back and run again call by call. */
class CallFailed extends Error {
  constructor(readonly error: unknown) {
    super('a call in the batch failed');
  }
}

export class SqliteAccountStore implements AccountStore {
  readonly kind = 'sqlite' as const;
  private readonly stmt;
  private readonly flushBatch: Database.Transaction<(ops: PendingWrite[]) => void>;
  private readonly flushIsolated: Database.Transaction<(ops: PendingWrite[]) => void>;
  private readonly savepoint: Database.Transaction<(run: () => unknown) => unknown>;

  constructor(private readonly db: Database.Database) {
    this.flushBatch = db.transaction((ops: PendingWrite[]) => this.runBatch(ops));
    this.flushIsolated = db.transaction((ops: PendingWrite[]) => this.runIsolated(ops));
    // Nested inside the batch, better-sqlite3 runs this as a savepoint: a call that throws
    // rolls back only its own writes.
    this.savepoint = db.transaction((run: () => unknown) => run());
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
      usagePerDay: db.prepare(
        `SELECT (created_at / 86400000) * 86400000 AS day, endpoint, COUNT(*) AS requests, SUM(amount - refunded) AS credits
           FROM ledger WHERE account_id = ? AND created_at >= ? AND kind = 'charge' AND status <> 'refunded'
          GROUP BY day, endpoint ORDER BY day, endpoint`,
      ),
      listKeys: db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id'),
      getKey: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      revokeKey: db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?'),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      keyByHash: db.prepare(
        `SELECT k.*, a.email, a.plan, a.anchor, a.created_at AS account_created_at
           FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?`,
      ),
      ensureCounter: db.prepare('INSERT OR IGNORE INTO usage_counters (account_id, period_start) VALUES (?, ?)'),
      getCounter: db.prepare('SELECT used, committed FROM usage_counters WHERE account_id = ? AND period_start = ?'),
      addUsed: db.prepare('UPDATE usage_counters SET used = used + ? WHERE account_id = ? AND period_start = ?'),
      // The common reservation in one statement: the counter exists and holds enough credits.
      takeCredits: db.prepare(
        `UPDATE usage_counters SET used = used + @amount
           WHERE account_id = @accountId AND period_start = @periodStart AND used + @amount <= @limit RETURNING used`,
      ),
      // A charge whose result is already in hand: reserved and committed at once.
      takeAndCommit: db.prepare(
        `UPDATE usage_counters SET used = used + @amount, committed = committed + @amount
           WHERE account_id = @accountId AND period_start = @periodStart AND used + @amount <= @limit RETURNING used, committed`,
      ),
      addCommitted: db.prepare(
        'UPDATE usage_counters SET committed = committed + ? WHERE account_id = ? AND period_start = ? RETURNING committed',
      ),
      settleCharge: db.prepare(
        `UPDATE ledger SET status = CASE WHEN amount > refunded THEN 'committed' ELSE 'refunded' END
           WHERE id = ? AND kind = 'charge' AND status = 'pending'
           RETURNING account_id, period_start, amount, refunded, quota_limit`,
      ),
      insertCharge: db.prepare(
        `INSERT INTO ledger (id, account_id, period_start, kind, amount, status, quota_limit, request_id, endpoint, created_at)
         VALUES (?, ?, ?, 'charge', ?, ?, ?, ?, ?, ?)`,
      ),
      insertRefund: db.prepare(
        `INSERT INTO ledger (id, account_id, period_start, kind, amount, request_id, endpoint, ref_id, created_at)
         VALUES (?, ?, ?, 'refund', ?, ?, ?, ?, ?)`,
      ),
      getCharge: db.prepare("SELECT * FROM ledger WHERE id = ? AND kind = 'charge'"),
      setChargeState: db.prepare('UPDATE ledger SET status = ?, refunded = ? WHERE id = ?'),
      pendingBefore: db.prepare("SELECT id FROM ledger WHERE status = 'pending' AND created_at < ?"),
      ledger: db.prepare('SELECT * FROM ledger WHERE account_id = ? ORDER BY created_at, rowid'),
      insertOutbox: db.prepare(
        `INSERT OR IGNORE INTO outbox (id, account_id, period_start, threshold, used, quota_limit, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      dueOutbox: db.prepare(
        `SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ?
           AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY created_at LIMIT ?`,
      ),
      claimOutbox: db.prepare(
        `UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ? AND sent_at IS NULL
           AND (claimed_until IS NULL OR claimed_until < ?)`,
      ),
      getOutbox: db.prepare(
        `SELECT o.*, a.email, a.plan, a.anchor FROM outbox o JOIN accounts a ON a.id = o.account_id WHERE o.id = ?`,
      ),
      markSent: db.prepare('UPDATE outbox SET sent_at = ?, claimed_until = NULL WHERE id = ? AND claimed_by = ?'),
      markFailed: db.prepare(
        `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, claimed_until = NULL
           WHERE id = ? AND claimed_by = ?`,
      ),
      listOutbox: db.prepare('SELECT * FROM outbox WHERE account_id = ? ORDER BY threshold'),
    };
  }

  async createAccount(input: { email: string; plan: Plan; now: number }): Promise<Account> {
    const id = generateId('acc');
    this.stmt.insertAccount.run(id, input.email, input.plan, input.now, input.now);
    this.foundKeys.clear();
    return { id, email: input.email, plan: input.plan, anchor: input.now, createdAt: input.now };
  }

  async getAccount(id: string): Promise<Account | null> {
    const row = this.stmt.getAccount.get(id) as AccountRow | undefined;
    return row ? toAccount(row) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (this.stmt.listAccounts.all() as AccountRow[]).map(toAccount);
  }

  async setPlan(id: string, plan: Plan, anchor: number): Promise<Account | null> {
    this.stmt.setPlan.run(plan, anchor, id);
    this.foundKeys.clear();
    return this.getAccount(id);
  }

  async findAccountByEmail(email: string): Promise<Account | null> {
    const row = this.stmt.accountByEmail.get(email) as AccountRow | undefined;
    return row ? toAccount(row) : null;
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
    this.stmt.insertKey.run(id, input.accountId, input.prefix, input.hash, input.now, name);
    this.foundKeys.clear();
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

  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    return this.write(() => {
      for (const [id, at] of lastUsed) this.stmt.touchKey.run(at, id, at);
    });
  }

  async usagePerDay(accountId: string, since: number): Promise<DailyUsage[]> {
    return this.stmt.usagePerDay.all(accountId, since) as DailyUsage[];
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return (this.stmt.listKeys.all(accountId) as KeyRow[]).map(toKey);
  }

  async revokeKey(keyId: string, now: number): Promise<ApiKeyRecord | null> {
    this.stmt.revokeKey.run(now, keyId);
    this.foundKeys.clear();
    const row = this.stmt.getKey.get(keyId) as KeyRow | undefined;
    return row ? toKey(row) : null;
  }

  // Every request looks its key up; keys and accounts change a few times a day. Found keys are
  // kept until anything could have changed them: this store's own key and account writes clear
  // them, and PRAGMA data_version, which moves when another connection (the CLI, another
  // process) commits, clears them too. That one pragma replaces a join: the lookup was 9 % of
  // the service's CPU under Markdown load. Unknown keys are not kept, so guessing costs memory nothing.
  private readonly foundKeys = new Map<string, Readonly<{ key: ApiKeyRecord; account: Account }>>();
  private foundKeysVersion = -1;

  async findKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; account: Account } | null> {
    const version = this.stmt.dataVersion.get() as number;
    if (version !== this.foundKeysVersion) {
      this.foundKeys.clear();
      this.foundKeysVersion = version;
    }
    const kept = this.foundKeys.get(hash);
    if (kept) return kept;
    const row = this.stmt.keyByHash.get(hash) as
      | (KeyRow & { email: string; plan: Plan; anchor: number; account_created_at: number })
      | undefined;
    if (!row) return null;
    const found = Object.freeze({
      key: Object.freeze(toKey(row)),
      account: Object.freeze({
        id: row.account_id,
        email: row.email,
        plan: row.plan,
        anchor: row.anchor,
        createdAt: row.account_created_at,
      }),
    });
    if (this.foundKeys.size >= 10_000) this.foundKeys.clear();
    this.foundKeys.set(hash, found);
    return found;
  }

  async getUsed(accountId: string, periodStart: number): Promise<number> {
    const row = this.stmt.getCounter.get(accountId, periodStart) as { used: number } | undefined;
    return row?.used ?? 0;
  }

  // Group commit: every charge, commit and refund issued while the event loop handles one batch of
  // I/O is written in one IMMEDIATE transaction, in call order (runBatch below). Under
  // load this turns two WAL commits per request into one per batch: Markdown throughput was bound
  // by these commits. Each call still resolves only after its batch is committed, so callers see
  // no difference.
  private queue: PendingWrite[] = [];

  // Calls almost never throw, so a batch first runs them without savepoints (two statements fewer
  // per call). When one does throw, the whole transaction is rolled back and the batch runs again
  // with a savepoint around each call, so that only the failing call fails.
  private runBatch(ops: PendingWrite[]): void {
    for (const op of ops) {
      try {
        op.outcome = { ok: true, value: op.run() };
      } catch (error) {
        throw new CallFailed(error);
      }
    }
  }

  private runIsolated(ops: PendingWrite[]): void {
    for (const op of ops) {
      try {
        op.outcome = { ok: true, value: this.savepoint(op.run) };
      } catch (error) {
        op.outcome = { ok: false, error };
      }
    }
  }

  private write<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ run, resolve: resolve as (v: never) => void, reject });
    });
  }

  private flush(): void {
    const ops = this.queue;
    this.queue = [];
    if (ops.length === 0 || !this.db.open) {
      for (const op of ops) op.reject(new Error('account store is closed'));
      return;
    }
    try {
      try {
        this.flushBatch.immediate(ops);
      } catch (err) {
        if (!(err instanceof CallFailed)) throw err;
        for (const op of ops) op.outcome = undefined;
        this.flushIsolated.immediate(ops);
      }
    } catch (err) {
      // The batch itself failed (busy database, disk full): nothing in it was written.
      for (const op of ops) op.reject(err);
      return;
    }
    for (const op of ops) {
      if (op.outcome?.ok) op.resolve(op.outcome.value as never);
      else op.reject(op.outcome?.error);
    }
  }

  private reserveNow(req: ReserveRequest): ReserveResult {
    if (req.amount > 0) {
      const taken = this.stmt.takeCredits.get({
        amount: req.amount,
        accountId: req.accountId,
        periodStart: req.periodStart,
        limit: req.limit,
      }) as { used: number } | undefined;
      if (taken) return this.recordCharge(req, req.amount, taken.used);
    }
    // No counter for this period yet, or too few credits left for the whole amount.
    this.stmt.ensureCounter.run(req.accountId, req.periodStart);
    const { used } = this.stmt.getCounter.get(req.accountId, req.periodStart) as { used: number };
    const available = Math.max(0, req.limit - used);
    const granted = req.partial ? Math.min(available, req.amount) : available >= req.amount ? req.amount : 0;
    if (granted <= 0) return { ok: false, used };
    this.stmt.addUsed.run(granted, req.accountId, req.periodStart);
    return this.recordCharge(req, granted, used + granted);
  }

  private recordCharge(req: ReserveRequest, granted: number, used: number): ReserveResult {
    const id = generateId('chg');
    this.stmt.insertCharge.run(
      id,
      req.accountId,
      req.periodStart,
      granted,
      'pending',
      req.limit,
      req.requestId,
      req.endpoint,
      req.now,
    );
    return { ok: true, reservationId: id, granted, used };
  }

  private chargeNow(req: Omit<ReserveRequest, 'partial'>): ReserveResult {
    if (!(req.amount > 0)) throw new RangeError(`a charge must be positive, got ${req.amount}`);
    const params = { amount: req.amount, accountId: req.accountId, periodStart: req.periodStart, limit: req.limit };
    let taken = this.stmt.takeAndCommit.get(params) as { used: number; committed: number } | undefined;
    if (!taken) {
      // No counter for this period yet, or too few credits left.
      this.stmt.ensureCounter.run(req.accountId, req.periodStart);
      taken = this.stmt.takeAndCommit.get(params) as { used: number; committed: number } | undefined;
      if (!taken)
        return { ok: false, used: (this.stmt.getCounter.get(req.accountId, req.periodStart) as { used: number }).used };
    }
    const id = generateId('chg');
    this.stmt.insertCharge.run(
      id,
      req.accountId,
      req.periodStart,
      req.amount,
      'committed',
      req.limit,
      req.requestId,
      req.endpoint,
      req.now,
    );
    this.recordNotices(
      req.accountId,
      req.periodStart,
      taken.committed - req.amount,
      taken.committed,
      req.limit,
      req.now,
    );
    return { ok: true, reservationId: id, granted: req.amount, used: taken.used };
  }

  /** The threshold e-mails a move of committed credits from `before` to `after` causes, in the same transaction. */
  private recordNotices(
    accountId: string,
    periodStart: number,
    before: number,
    after: number,
    limit: number,
    now: number,
  ): void {
    for (const threshold of thresholdsCrossed(before, after, limit)) {
      this.stmt.insertOutbox.run(generateId('msg'), accountId, periodStart, threshold, after, limit, now, now);
    }
  }

  private commitNow(reservationId: string, now: number): void {
    const c = this.stmt.settleCharge.get(reservationId) as ChargeRow | undefined;
    if (!c) return;
    const net = c.amount - c.refunded;
    if (net <= 0) return;
    const { committed } = this.stmt.addCommitted.get(net, c.account_id, c.period_start) as { committed: number };
    this.recordNotices(c.account_id, c.period_start, committed - net, committed, c.quota_limit, now);
  }

  private refundNow(reservationId: string, amount: number | null, now: number): number {
    const c = this.stmt.getCharge.get(reservationId) as ChargeRow | undefined;
    if (c?.status !== 'pending') return 0;
    const left = c.amount - c.refunded;
    const give = amount === null ? left : Math.min(left, amount);
    if (give <= 0) return 0;
    this.stmt.insertRefund.run(
      generateId('rfd'),
      c.account_id,
      c.period_start,
      give,
      c.request_id,
      c.endpoint,
      c.id,
      now,
    );
    this.stmt.addUsed.run(-give, c.account_id, c.period_start);
    const refunded = c.refunded + give;
    this.stmt.setChargeState.run(refunded === c.amount ? 'refunded' : 'pending', refunded, c.id);
    return give;
  }

  reserve(req: ReserveRequest): Promise<ReserveResult> {
    return this.write(() => this.reserveNow(req));
  }

  charge(req: Omit<ReserveRequest, 'partial'>): Promise<ReserveResult> {
    return this.write(() => this.chargeNow(req));
  }

  commit(reservationId: string, now: number): Promise<void> {
    return this.write(() => this.commitNow(reservationId, now));
  }

  refund(reservationId: string, amount: number | null, now: number): Promise<number> {
    return this.write(() => this.refundNow(reservationId, amount, now));
  }

  async refundAbandoned(olderThan: number, now: number): Promise<number> {
    const ids = (this.stmt.pendingBefore.all(olderThan) as { id: string }[]).map((r) => r.id);
    let total = 0;
    for (const id of ids) total += await this.refund(id, null, now);
    return total;
  }

  async ledger(accountId: string): Promise<LedgerRow[]> {
    return (this.stmt.ledger.all(accountId) as ChargeRow[]).map((r) => ({
      id: r.id,
      accountId: r.account_id,
      periodStart: r.period_start,
      kind: r.kind,
      amount: r.amount,
      status: r.status,
      requestId: r.request_id,
      endpoint: r.endpoint,
      refId: r.ref_id,
      createdAt: r.created_at,
    }));
  }

  // --- outbox -------------------------------------------------------------------------------

  async claimDue(owner: string, now: number, leaseMs: number, max: number): Promise<ClaimedMessage[]> {
    return this.db
      .transaction((): ClaimedMessage[] => {
        const ids = (this.stmt.dueOutbox.all(now, now, max) as { id: string }[]).map((r) => r.id);
        const out: ClaimedMessage[] = [];
        for (const id of ids) {
          if (this.stmt.claimOutbox.run(owner, now + leaseMs, id, now).changes !== 1) continue;
          out.push(toClaimed(this.stmt.getOutbox.get(id) as OutboxRow));
        }
        return out;
      })
      .immediate();
  }

  async markSent(id: string, owner: string, now: number): Promise<boolean> {
    return this.stmt.markSent.run(now, id, owner).changes === 1;
  }

  async markFailed(id: string, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    this.stmt.markFailed.run(nextAttemptAt, error.slice(0, 500), id, owner);
  }

  async listOutbox(accountId: string): Promise<OutboxMessage[]> {
    return (this.stmt.listOutbox.all(accountId) as OutboxRow[]).map((r) => ({
      id: r.id,
      accountId: r.account_id,
      periodStart: r.period_start,
      threshold: r.threshold,
      attempts: r.attempts,
      createdAt: r.created_at,
      sentAt: r.sent_at,
    }));
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.flush();
    if (this.db.open) this.db.close();
  }
}

interface ChargeRow {
  id: string;
  account_id: string;
  period_start: number;
  kind: 'charge' | 'refund';
  amount: number;
  refunded: number;
  status: 'pending' | 'committed' | 'refunded' | null;
  quota_limit: number;
  request_id: string;
  endpoint: string;
  ref_id: string | null;
  created_at: number;
}

interface OutboxRow {
  id: string;
  account_id: string;
  period_start: number;
  threshold: number;
  used: number;
  quota_limit: number;
  attempts: number;
  created_at: number;
  sent_at: number | null;
  email: string;
  plan: Plan;
  anchor: number;
}

function toClaimed(r: OutboxRow): ClaimedMessage {
  return {
    id: r.id,
    accountId: r.account_id,
    email: r.email,
    plan: r.plan,
    anchor: r.anchor,
    periodStart: r.period_start,
    threshold: r.threshold,
    used: r.used,
    limit: r.quota_limit,
    attempts: r.attempts,
  };
}
