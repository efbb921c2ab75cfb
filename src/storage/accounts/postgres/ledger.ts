import { generateId } from '../../../ids.ts';
import { assertChargeable, grantCredits, settleCharge, splitRefund, takeCeiling } from '../../../quota/ledger.ts';
import type { DailyUsage, LedgerRow, ReserveRequest, ReserveResult } from '../interface.ts';
import { type DailyUsageRow, type LedgerDbRow, toChargeState, toDailyUsage, toLedgerRow } from '../rows.ts';
import type { PgClient, Queryable } from './client.ts';
import { recordNotices } from './outbox.ts';

type ChargeRequest = Omit<ReserveRequest, 'partial'>;

const ENSURE_COUNTER = 'INSERT INTO usage_counters (account_id, period_start) VALUES ($1, $2) ON CONFLICT DO NOTHING';
const SELECT_USED = 'SELECT used FROM usage_counters WHERE account_id = $1 AND period_start = $2';
/** A charge row: pending for a reservation, committed for a result already in hand. */
const INSERT_CHARGE = `INSERT INTO ledger (id, account_id, period_start, kind, amount, status, quota_limit, plan, request_id,
    endpoint, created_at)
  VALUES ($1, $2, $3, 'charge', $4, $5, $6, $7, $8, $9, $10)`;
const usedOf = (rows: { used: string | number }[]): number => (rows[0] ? Number(rows[0].used) : 0);

async function insertCharge(c: Queryable, req: ChargeRequest, granted: number, status: string): Promise<string> {
  const id = generateId('chg');
  const { accountId, periodStart, limit, requestId, endpoint, now } = req;
  const plan = req.plan ?? null;
  await c.query(INSERT_CHARGE, [id, accountId, periodStart, granted, status, limit, plan, requestId, endpoint, now]);
  return id;
}

/**
 * Ledger statements in PostgreSQL, one transaction per call; the decisions are the ledger rules
 * of src/quota/ledger.ts. Row locks serialize the calls of one account across every instance.
 */
export class PostgresLedger {
  constructor(private readonly db: PgClient) {}

  async getUsed(accountId: string, periodStart: number): Promise<number> {
    return usedOf((await this.db.query(SELECT_USED, [accountId, periodStart])).rows);
  }

  reserve(req: ReserveRequest): Promise<ReserveResult> {
    return this.db.tx(async (c) => {
      await c.query(ENSURE_COUNTER, [req.accountId, req.periodStart]);
      const { rows } = await c.query(`${SELECT_USED} FOR UPDATE`, [req.accountId, req.periodStart]);
      const used = usedOf(rows);
      const granted = grantCredits(used, req.limit, req.amount, req.partial);
      if (granted <= 0) return { ok: false, used };
      await c.query('UPDATE usage_counters SET used = used + $1 WHERE account_id = $2 AND period_start = $3', [
        granted,
        req.accountId,
        req.periodStart,
      ]);
      const id = await insertCharge(c, req, granted, 'pending');
      return { ok: true, reservationId: id, granted, used: used + granted };
    });
  }

  async charge(req: ChargeRequest): Promise<ReserveResult> {
    assertChargeable(req.amount);
    const { accountId, periodStart, amount } = req;
    return this.db.tx(async (c) => {
      // The conditional update takes the counter's row lock: concurrent charges of one account
      // queue on it across every instance, and none overspends.
      const take = () =>
        c.query(
          `UPDATE usage_counters SET used = used + $1, committed = committed + $1
             WHERE account_id = $2 AND period_start = $3 AND used <= $4 RETURNING used, committed`,
          [amount, accountId, periodStart, takeCeiling(req.limit, amount)],
        );
      let taken = await take();
      if (taken.rows.length === 0) {
        // No counter for this period yet, or too few credits left.
        await c.query(ENSURE_COUNTER, [accountId, periodStart]);
        taken = await take();
        if (taken.rows.length === 0)
          return { ok: false, used: usedOf((await c.query(SELECT_USED, [accountId, periodStart])).rows) };
      }
      const id = await insertCharge(c, req, amount, 'committed');
      const after = Number(taken.rows[0].committed);
      const notice = { accountId, periodStart, before: after - amount, after, limit: req.limit, now: req.now };
      await recordNotices(c, { ...notice, plan: req.plan });
      return { ok: true, reservationId: id, granted: amount, used: Number(taken.rows[0].used) };
    });
  }

  async commit(reservationId: string, now: number): Promise<void> {
    await this.db.tx(async (c) => {
      const row = await lockCharge(c, reservationId);
      const settled = row && settleCharge(toChargeState(row));
      if (!row || !settled) return;
      await c.query('UPDATE ledger SET status = $1 WHERE id = $2', [settled.status, reservationId]);
      if (settled.committed <= 0) return;
      const counter = await c.query(
        'UPDATE usage_counters SET committed = committed + $1 WHERE account_id = $2 AND period_start = $3 RETURNING committed',
        [settled.committed, row.account_id, row.period_start],
      );
      const after = Number(counter.rows[0].committed);
      await recordNotices(c, {
        accountId: row.account_id,
        periodStart: Number(row.period_start),
        before: after - settled.committed,
        after,
        limit: Number(row.quota_limit),
        now,
        plan: row.plan,
      });
    });
  }

  refund(reservationId: string, amount: number | null, now: number): Promise<number> {
    return this.db.tx(async (c) => {
      const row = await lockCharge(c, reservationId);
      const split = row && splitRefund(toChargeState(row), amount);
      if (!row || !split) return 0;
      await c.query(
        `INSERT INTO ledger (id, account_id, period_start, kind, amount, request_id, endpoint, ref_id, created_at)
         VALUES ($1, $2, $3, 'refund', $4, $5, $6, $7, $8)`,
        [generateId('rfd'), row.account_id, row.period_start, split.give, row.request_id, row.endpoint, row.id, now],
      );
      await c.query('UPDATE usage_counters SET used = used - $1 WHERE account_id = $2 AND period_start = $3', [
        split.give,
        row.account_id,
        row.period_start,
      ]);
      await c.query('UPDATE ledger SET status = $1, refunded = $2 WHERE id = $3', [
        split.status,
        split.refunded,
        row.id,
      ]);
      return split.give;
    });
  }

  /** Ids of charges still pending since before `olderThan`. */
  async pendingBefore(olderThan: number): Promise<string[]> {
    const sql = "SELECT id FROM ledger WHERE status = 'pending' AND created_at < $1";
    return (await this.db.query(sql, [olderThan])).rows.map((r) => String(r.id));
  }

  async rows(accountId: string): Promise<LedgerRow[]> {
    const sql = 'SELECT * FROM ledger WHERE account_id = $1 ORDER BY created_at, seq';
    return ((await this.db.query(sql, [accountId])).rows as LedgerDbRow[]).map(toLedgerRow);
  }

  async usagePerDay(accountId: string, since: number): Promise<DailyUsage[]> {
    const sql = `SELECT (created_at / 86400000) * 86400000 AS day, endpoint, COUNT(*) AS requests, SUM(amount - refunded) AS credits
        FROM ledger WHERE account_id = $1 AND created_at >= $2 AND kind = 'charge' AND status <> 'refunded'
       GROUP BY day, endpoint ORDER BY day, endpoint`;
    return ((await this.db.query(sql, [accountId, since])).rows as DailyUsageRow[]).map(toDailyUsage);
  }
}

async function lockCharge(c: Queryable, id: string): Promise<LedgerDbRow | undefined> {
  const { rows } = await c.query("SELECT * FROM ledger WHERE id = $1 AND kind = 'charge' FOR UPDATE", [id]);
  return rows[0] as LedgerDbRow | undefined;
}
