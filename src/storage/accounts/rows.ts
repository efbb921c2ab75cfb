// Rows as both dialects return them, mapped to the store's records. PostgreSQL returns BIGINT
// columns as strings, so every number goes through Number().
import type { ClaimedMessage } from '../../notify/interface.ts';
import type { Plan } from '../../quota/plans.ts';
import type { Account, ApiKeyRecord, DailyUsage, LedgerRow, OutboxMessage } from './interface.ts';

type Num = number | string;

export interface AccountRow {
  id: string;
  email: string;
  plan: Plan;
  anchor: Num;
  created_at: Num;
}

export interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  created_at: Num;
  revoked_at: Num | null;
  name: string | null;
  last_used_at: Num | null;
}

/** A key joined with its account. */
export interface KeyAccountRow extends KeyRow {
  email: string;
  plan: Plan;
  anchor: Num;
  account_created_at: Num;
}

export interface LedgerDbRow {
  id: string;
  account_id: string;
  period_start: Num;
  kind: 'charge' | 'refund';
  amount: Num;
  refunded: Num;
  status: 'pending' | 'committed' | 'refunded' | null;
  quota_limit: Num;
  /** The plan the charge was metered against; null on rows from before it was kept. */
  plan: Plan | null;
  request_id: string;
  endpoint: string;
  ref_id: string | null;
  created_at: Num;
}

export interface OutboxRow {
  id: string;
  account_id: string;
  period_start: Num;
  threshold: Num;
  used: Num;
  quota_limit: Num;
  attempts: Num;
  created_at: Num;
  sent_at: Num | null;
  /** The account's plan and anchor when the threshold was crossed; null on rows from before they were kept. */
  notice_plan: Plan | null;
  notice_anchor: Num | null;
}

/** An outbox row joined with its account. */
export interface ClaimedRow extends OutboxRow {
  email: string;
  plan: Plan;
  anchor: Num;
}

const numOrNull = (v: Num | null): number | null => (v === null ? null : Number(v));

export const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  email: r.email,
  plan: r.plan,
  anchor: Number(r.anchor),
  createdAt: Number(r.created_at),
});

export const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  prefix: r.prefix,
  hash: r.hash,
  createdAt: Number(r.created_at),
  revokedAt: numOrNull(r.revoked_at),
  name: r.name,
  lastUsedAt: numOrNull(r.last_used_at),
});

export const toKeyAndAccount = (r: KeyAccountRow): { key: ApiKeyRecord; account: Account } => ({
  key: toKey(r),
  account: toAccount({
    id: r.account_id,
    email: r.email,
    plan: r.plan,
    anchor: r.anchor,
    created_at: r.account_created_at,
  }),
});

export const toLedgerRow = (r: LedgerDbRow): LedgerRow => ({
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
});

/** The fields of a charge row the ledger rules read. */
export const toChargeState = (r: LedgerDbRow) => ({
  amount: Number(r.amount),
  refunded: Number(r.refunded),
  status: r.status,
});

export interface DailyUsageRow {
  day: Num;
  endpoint: string;
  requests: Num;
  credits: Num;
}

export const toDailyUsage = (r: DailyUsageRow): DailyUsage => ({
  day: Number(r.day),
  endpoint: r.endpoint,
  requests: Number(r.requests),
  credits: Number(r.credits),
});

export const toOutboxMessage = (r: OutboxRow): OutboxMessage => ({
  id: r.id,
  accountId: r.account_id,
  periodStart: Number(r.period_start),
  threshold: Number(r.threshold),
  attempts: Number(r.attempts),
  createdAt: Number(r.created_at),
  sentAt: numOrNull(r.sent_at),
});

export const toClaimed = (r: ClaimedRow): ClaimedMessage => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  // As when the threshold was crossed; the account's now only for rows recorded before that was kept.
  plan: r.notice_plan ?? r.plan,
  anchor: Number(r.notice_anchor ?? r.anchor),
  periodStart: Number(r.period_start),
  threshold: Number(r.threshold),
  used: Number(r.used),
  limit: Number(r.quota_limit),
  attempts: Number(r.attempts),
});
