import type { OutboxStore } from '../../notify/interface.ts';
import type { Plan } from '../../quota/plans.ts';

export interface Account {
  id: string;
  email: string;
  plan: Plan;
  /** ms since epoch; the day of month that monthly periods start on, and the start of a one-time allowance. */
  anchor: number;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  prefix: string;
  hash: string;
  createdAt: number;
  revokedAt: number | null;
  /** Chosen by the customer on the account pages; null for keys made by the CLI. */
  name: string | null;
  /** Written in batches (coalesced), so it lags the last request by up to the flush interval. */
  lastUsedAt: number | null;
}

/** Requests of one endpoint on one UTC day: `credits` is what they cost after refunds. */
export interface DailyUsage {
  /** ms since epoch of 00:00 UTC of the day. */
  day: number;
  endpoint: string;
  requests: number;
  credits: number;
}

export interface NewKey {
  accountId: string;
  hash: string;
  prefix: string;
  now: number;
  /** Null (the default) for keys made by the CLI. */
  name?: string | null;
}

export interface ReserveRequest {
  accountId: string;
  periodStart: number;
  limit: number;
  /** The plan `limit` is of, kept on the charge for the quota e-mail it may cause; the account's when absent. */
  plan?: Plan;
  /** How many credits are wanted. */
  amount: number;
  /** With `partial`, grant as many as are left (possibly 0) instead of all-or-nothing. */
  partial: boolean;
  requestId: string;
  endpoint: string;
  now: number;
}

export type ReserveResult =
  | { ok: true; reservationId: string; granted: number; used: number }
  | { ok: false; used: number };

export interface LedgerRow {
  id: string;
  accountId: string;
  periodStart: number;
  kind: 'charge' | 'refund';
  amount: number;
  status: 'pending' | 'committed' | 'refunded' | null;
  requestId: string;
  endpoint: string;
  refId: string | null;
  createdAt: number;
}

/** A notification waiting in the outbox, recorded in the same transaction as the charge that caused it. */
export interface OutboxMessage {
  id: string;
  accountId: string;
  periodStart: number;
  threshold: number;
  attempts: number;
  createdAt: number;
  sentAt: number | null;
}

/**
 * Persistence for accounts, keys, the quota ledger and the mail outbox. Every quota operation is
 * atomic; committing a charge records the threshold notifications it causes in the same transaction.
 */
export interface AccountStore extends OutboxStore {
  /**
   * Whether several server processes may use this store at once (a database server), or only
   * one (a file in the data dir, which `serve` locks).
   */
  readonly sharedByServers: boolean;
  /**
   * Throws AddressTakenError when an account already has this address, compared case-insensitively
   * (one address, one account): checked and inserted atomically, across processes and instances.
   */
  createAccount(input: { email: string; plan: Plan; now: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  setPlan(id: string, plan: Plan, anchor: number): Promise<Account | null>;

  /** The oldest account with this address, compared case-insensitively. */
  findAccountByEmail(email: string): Promise<Account | null>;

  createKey(input: NewKey): Promise<ApiKeyRecord>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  revokeKey(keyId: string, now: number): Promise<ApiKeyRecord | null>;
  /**
   * The key with this digest and its account, revoked or not; what it returns is not to be altered.
   * A revocation or plan change shows at once; the key's lastUsedAt may lag.
   */
  findKeyByHash(hash: string): Promise<Readonly<{ key: Readonly<ApiKeyRecord>; account: Readonly<Account> }> | null>;
  /** Moves each key's last use forward to the given time (never back): one write per key per flush. */
  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void>;

  /** Credits used (charged minus refunded) in the period. */
  getUsed(accountId: string, periodStart: number): Promise<number>;
  /** Atomically checks `used + amount <= limit` and records a pending charge. */
  reserve(req: ReserveRequest): Promise<ReserveResult>;
  /**
   * Reserve and commit in one atomic step, all-or-nothing: for a request whose result is already
   * in hand, so nothing can fail between the two. Records the threshold notifications it causes.
   */
  charge(req: Omit<ReserveRequest, 'partial'>): Promise<ReserveResult>;
  /** Marks a pending charge as earned. Idempotent. */
  commit(reservationId: string, now: number): Promise<void>;
  /** Returns `amount` credits of a reservation (all of it by default). Idempotent per reservation when whole. */
  refund(reservationId: string, amount: number | null, now: number): Promise<number>;
  /** Refunds charges still pending since before `olderThan` (see abandonedBefore in src/quota/ledger.ts). */
  refundAbandoned(olderThan: number, now: number): Promise<number>;
  ledger(accountId: string): Promise<LedgerRow[]>;
  /**
   * Charges since `since` grouped by UTC day and endpoint: `requests` counts charge rows (one per
   * request, except a bulk request that reserved twice); fully refunded charges are left out.
   */
  usagePerDay(accountId: string, since: number): Promise<DailyUsage[]>;
  listOutbox(accountId: string): Promise<OutboxMessage[]>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
