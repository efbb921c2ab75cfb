import type Database from 'better-sqlite3';
import { generateId } from '../../../ids.ts';
import type { ClaimedMessage } from '../../../notify/interface.ts';
import type { Plan } from '../../../quota/plans.ts';
import { noticesFor } from '../../../quota/ledger.ts';
import type { OutboxMessage } from '../interface.ts';
import { type ClaimedRow, type OutboxRow, toClaimed, toOutboxMessage } from '../rows.ts';

/** The mail outbox in SQLite: notices recorded in the charge's transaction, sent under a lease. */
export class SqliteOutbox {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        // The plan is the charge's (the account's when unknown) and the anchor the account's, as
        // the threshold is crossed: a plan changed before the mail goes out does not change it.
        `INSERT OR IGNORE INTO outbox (id, account_id, period_start, threshold, used, quota_limit, next_attempt_at,
           created_at, notice_plan, notice_anchor)
         SELECT ?, id, ?, ?, ?, ?, ?, ?, COALESCE(?, plan), anchor FROM accounts WHERE id = ?`,
      ),
      due: db.prepare(
        `SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ?
           AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY created_at LIMIT ?`,
      ),
      claim: db.prepare(
        `UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ? AND sent_at IS NULL
           AND (claimed_until IS NULL OR claimed_until < ?)`,
      ),
      getClaimed: db.prepare(
        'SELECT o.*, a.email, a.plan, a.anchor FROM outbox o JOIN accounts a ON a.id = o.account_id WHERE o.id = ?',
      ),
      markSent: db.prepare(
        'UPDATE outbox SET sent_at = ?, claimed_until = NULL WHERE id = ? AND claimed_by = ? AND sent_at IS NULL',
      ),
      markFailed: db.prepare(
        `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, claimed_until = NULL
           WHERE id = ? AND claimed_by = ?`,
      ),
      list: db.prepare('SELECT * FROM outbox WHERE account_id = ? ORDER BY period_start, threshold'),
    };
  }

  /** Records the notices a move of committed credits from `before` to `after` causes (in the caller's transaction). */
  recordNotices(
    accountId: string,
    periodStart: number,
    before: number,
    after: number,
    limit: number,
    now: number,
    plan?: Plan | null,
  ) {
    for (const threshold of noticesFor(before, after, limit)) {
      this.stmt.insert.run(generateId('msg'), periodStart, threshold, after, limit, now, now, plan ?? null, accountId);
    }
  }

  claimDue(owner: string, now: number, leaseMs: number, max: number): ClaimedMessage[] {
    return this.db
      .transaction((): ClaimedMessage[] => {
        const ids = (this.stmt.due.all(now, now, max) as { id: string }[]).map((r) => r.id);
        const out: ClaimedMessage[] = [];
        for (const id of ids) {
          if (this.stmt.claim.run(owner, now + leaseMs, id, now).changes !== 1) continue;
          out.push(toClaimed(this.stmt.getClaimed.get(id) as ClaimedRow));
        }
        return out;
      })
      .immediate();
  }

  markSent(id: string, owner: string, now: number): boolean {
    return this.stmt.markSent.run(now, id, owner).changes === 1;
  }

  markFailed(id: string, owner: string, nextAttemptAt: number, error: string): void {
    this.stmt.markFailed.run(nextAttemptAt, error.slice(0, 500), id, owner);
  }

  list(accountId: string): OutboxMessage[] {
    return (this.stmt.list.all(accountId) as OutboxRow[]).map(toOutboxMessage);
  }
}
