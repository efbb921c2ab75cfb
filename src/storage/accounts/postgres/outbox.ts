import { generateId } from '../../../ids.ts';
import type { ClaimedMessage } from '../../../notify/interface.ts';
import type { Plan } from '../../../quota/plans.ts';
import { noticesFor } from '../../../quota/ledger.ts';
import type { OutboxMessage } from '../interface.ts';
import { type ClaimedRow, type OutboxRow, toClaimed, toOutboxMessage } from '../rows.ts';
import type { Queryable } from './client.ts';

/** Records the notices a move of committed credits from `before` to `after` causes, in the caller's transaction. */
export async function recordNotices(
  c: Queryable,
  n: {
    accountId: string;
    periodStart: number;
    before: number;
    after: number;
    limit: number;
    now: number;
    /** The charge's plan; the account's when unknown. */
    plan?: Plan | null;
  },
): Promise<void> {
  for (const threshold of noticesFor(n.before, n.after, n.limit)) {
    await c.query(
      // The plan is the charge's (the account's when unknown) and the anchor the account's, as
      // the threshold is crossed: a plan changed before the mail goes out does not change it.
      `INSERT INTO outbox (id, account_id, period_start, threshold, used, quota_limit, next_attempt_at, created_at,
         notice_plan, notice_anchor)
       SELECT $1, id, $3, $4, $5, $6, $7, $7, COALESCE($8, plan), anchor FROM accounts WHERE id = $2
       ON CONFLICT DO NOTHING`,
      [generateId('msg'), n.accountId, n.periodStart, threshold, n.after, n.limit, n.now, n.plan ?? null],
    );
  }
}

/** The mail outbox in PostgreSQL, sent under a lease. */
export class PostgresOutbox {
  constructor(private readonly db: Queryable) {}

  async claimDue(owner: string, now: number, leaseMs: number, max: number): Promise<ClaimedMessage[]> {
    // SKIP LOCKED: two instances claiming at once take disjoint rows.
    const { rows } = await this.db.query(
      `WITH due AS (
         SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $3
            AND (claimed_until IS NULL OR claimed_until < $3)
          ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE outbox o SET claimed_by = $1, claimed_until = $2 FROM due, accounts a
        WHERE o.id = due.id AND a.id = o.account_id
       RETURNING o.*, a.email, a.plan, a.anchor`,
      [owner, now + leaseMs, now, max],
    );
    return (rows as ClaimedRow[]).map(toClaimed);
  }

  async markSent(id: string, owner: string, now: number): Promise<boolean> {
    const r = await this.db.query(
      'UPDATE outbox SET sent_at = $1, claimed_until = NULL WHERE id = $2 AND claimed_by = $3 AND sent_at IS NULL',
      [now, id, owner],
    );
    return r.rowCount === 1;
  }

  async markFailed(id: string, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    await this.db.query(
      `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, claimed_until = NULL
        WHERE id = $3 AND claimed_by = $4`,
      [nextAttemptAt, error.slice(0, 500), id, owner],
    );
  }

  async list(accountId: string): Promise<OutboxMessage[]> {
    const sql = 'SELECT * FROM outbox WHERE account_id = $1 ORDER BY period_start, threshold';
    return ((await this.db.query(sql, [accountId])).rows as OutboxRow[]).map(toOutboxMessage);
  }
}
