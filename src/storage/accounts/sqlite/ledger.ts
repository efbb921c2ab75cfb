import type Database from 'better-sqlite3';
import { generateId } from '../../../ids.ts';
import { assertChargeable, grantCredits, settleCharge, splitRefund, takeCeiling } from '../../../quota/ledger.ts';
import type { DailyUsage, LedgerRow, ReserveRequest, ReserveResult } from '../interface.ts';
import { type DailyUsageRow, type LedgerDbRow, toChargeState, toDailyUsage, toLedgerRow } from '../rows.ts';
import type { SqliteOutbox } from './outbox.ts';

type ChargeRequest = Omit<ReserveRequest, 'partial'>;

/**
 * Ledger statements in SQLite. The write methods are synchronous and run inside the write
 * batcher's transaction; the decisions are the ledger rules of src/quota/ledger.ts.
 */
export class SqliteLedger {
  private readonly stmt;

  constructor(
    db: Database.Database,
    private readonly outbox: SqliteOutbox,
  ) {
    this.stmt = {
      ensureCounter: db.prepare('INSERT OR IGNORE INTO usage_counters (account_id, period_start) VALUES (?, ?)'),
      getUsed: db.prepare('SELECT used FROM usage_counters WHERE account_id = ? AND period_start = ?').pluck(),
      addUsed: db.prepare('UPDATE usage_counters SET used = used + ? WHERE account_id = ? AND period_start = ?'),
      // The common reservation in one statement: the counter exists and holds enough credits.
      take: db.prepare(
        `UPDATE usage_counters SET used = used + @amount
           WHERE account_id = @accountId AND period_start = @periodStart AND used <= @ceiling RETURNING used`,
      ),
      // A charge whose result is already in hand: reserved and committed at once.
      takeAndCommit: db.prepare(
        `UPDATE usage_counters SET used = used + @amount, committed = committed + @amount
           WHERE account_id = @accountId AND period_start = @periodStart AND used <= @ceiling
           RETURNING used, committed`,
      ),
      addCommitted: db
        .prepare(
          'UPDATE usage_counters SET committed = committed + ? WHERE account_id = ? AND period_start = ? RETURNING committed',
        )
        .pluck(),
      insertCharge: db.prepare(
        `INSERT INTO ledger (id, account_id, period_start, kind, amount, status, quota_limit, plan, request_id, endpoint,
           created_at)
         VALUES (?, ?, ?, 'charge', ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertRefund: db.prepare(
        `INSERT INTO ledger (id, account_id, period_start, kind, amount, request_id, endpoint, ref_id, created_at)
         VALUES (?, ?, ?, 'refund', ?, ?, ?, ?, ?)`,
      ),
      getCharge: db.prepare("SELECT * FROM ledger WHERE id = ? AND kind = 'charge'"),
      setChargeState: db.prepare('UPDATE ledger SET status = ?, refunded = ? WHERE id = ?'),
      pendingBefore: db.prepare("SELECT id FROM ledger WHERE status = 'pending' AND created_at < ?").pluck(),
      ledger: db.prepare('SELECT * FROM ledger WHERE account_id = ? ORDER BY created_at, rowid'),
      usagePerDay: db.prepare(
        `SELECT (created_at / 86400000) * 86400000 AS day, endpoint, COUNT(*) AS requests, SUM(amount - refunded) AS credits
           FROM ledger WHERE account_id = ? AND created_at >= ? AND kind = 'charge' AND status <> 'refunded'
          GROUP BY day, endpoint ORDER BY day, endpoint`,
      ),
    };
  }

  getUsed(accountId: string, periodStart: number): number {
    return (this.stmt.getUsed.get(accountId, periodStart) as number | undefined) ?? 0;
  }

  reserve(req: ReserveRequest): ReserveResult {
    const { accountId, periodStart } = req;
    // Fast path, for a positive amount only: a counter at or under the ceiling grants all of it.
    if (req.amount > 0) {
      const ceiling = takeCeiling(req.limit, req.amount);
      const taken = this.stmt.take.get({ amount: req.amount, accountId, periodStart, ceiling }) as
        | { used: number }
        | undefined;
      if (taken) return this.recordCharge(req, req.amount, 'pending', taken.used);
    }
    // No counter for this period yet, or too few credits left for the whole amount.
    this.stmt.ensureCounter.run(accountId, periodStart);
    const used = this.getUsed(accountId, periodStart);
    const granted = grantCredits(used, req.limit, req.amount, req.partial);
    if (granted <= 0) return { ok: false, used };
    this.stmt.addUsed.run(granted, accountId, periodStart);
    return this.recordCharge(req, granted, 'pending', used + granted);
  }

  charge(req: ChargeRequest): ReserveResult {
    assertChargeable(req.amount);
    const { accountId, periodStart, amount } = req;
    const params = { amount, accountId, periodStart, ceiling: takeCeiling(req.limit, amount) };
    let taken = this.stmt.takeAndCommit.get(params) as { used: number; committed: number } | undefined;
    if (!taken) {
      // No counter for this period yet, or too few credits left.
      this.stmt.ensureCounter.run(accountId, periodStart);
      taken = this.stmt.takeAndCommit.get(params) as { used: number; committed: number } | undefined;
      if (!taken) return { ok: false, used: this.getUsed(accountId, periodStart) };
    }
    const result = this.recordCharge(req, amount, 'committed', taken.used);
    this.outbox.recordNotices(
      accountId,
      periodStart,
      taken.committed - amount,
      taken.committed,
      req.limit,
      req.now,
      req.plan,
    );
    return result;
  }

  private recordCharge(
    req: ChargeRequest,
    granted: number,
    status: 'pending' | 'committed',
    used: number,
  ): ReserveResult {
    const id = generateId('chg');
    const { accountId, periodStart, limit, requestId, endpoint, now } = req;
    const plan = req.plan ?? null;
    this.stmt.insertCharge.run(id, accountId, periodStart, granted, status, limit, plan, requestId, endpoint, now);
    return { ok: true, reservationId: id, granted, used };
  }

  commit(reservationId: string, now: number): void {
    const row = this.stmt.getCharge.get(reservationId) as LedgerDbRow | undefined;
    if (!row) return;
    const settled = settleCharge(toChargeState(row));
    if (!settled) return;
    this.stmt.setChargeState.run(settled.status, row.refunded, row.id);
    if (settled.committed <= 0) return;
    const after = this.stmt.addCommitted.get(settled.committed, row.account_id, row.period_start) as number;
    const limit = Number(row.quota_limit);
    const periodStart = Number(row.period_start);
    this.outbox.recordNotices(row.account_id, periodStart, after - settled.committed, after, limit, now, row.plan);
  }

  refund(reservationId: string, amount: number | null, now: number): number {
    const row = this.stmt.getCharge.get(reservationId) as LedgerDbRow | undefined;
    if (!row) return 0;
    const split = splitRefund(toChargeState(row), amount);
    if (!split) return 0;
    const { account_id, period_start } = row;
    const refundId = generateId('rfd');
    this.stmt.insertRefund.run(
      refundId,
      account_id,
      period_start,
      split.give,
      row.request_id,
      row.endpoint,
      row.id,
      now,
    );
    this.stmt.addUsed.run(-split.give, account_id, period_start);
    this.stmt.setChargeState.run(split.status, split.refunded, row.id);
    return split.give;
  }

  /** Ids of charges still pending since before `olderThan`. */
  pendingBefore(olderThan: number): string[] {
    return this.stmt.pendingBefore.all(olderThan) as string[];
  }

  rows(accountId: string): LedgerRow[] {
    return (this.stmt.ledger.all(accountId) as LedgerDbRow[]).map(toLedgerRow);
  }

  usagePerDay(accountId: string, since: number): DailyUsage[] {
    return (this.stmt.usagePerDay.all(accountId, since) as DailyUsageRow[]).map(toDailyUsage);
  }
}
