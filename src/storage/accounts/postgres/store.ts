import type { ClaimedMessage } from '../../../notify/interface.ts';
import type { Plan } from '../../../quota/plans.ts';
import type {
  Account,
  AccountStore,
  ApiKeyRecord,
  DailyUsage,
  LedgerRow,
  NewKey,
  OutboxMessage,
  ReserveRequest,
  ReserveResult,
} from '../interface.ts';
import type { FoundKey } from '../key-cache.ts';
import type { PgClient } from './client.ts';
import { PostgresDirectory } from './directory.ts';
import { PostgresLedger } from './ledger.ts';
import { PostgresOutbox } from './outbox.ts';

/** The account store on PostgreSQL, shared by every instance of a scaled-out service. */
export class PostgresAccountStore implements AccountStore {
  readonly sharedByServers = true;
  private readonly directory: PostgresDirectory;
  private readonly ledgerStatements: PostgresLedger;
  private readonly outbox: PostgresOutbox;

  constructor(private readonly client: PgClient) {
    this.directory = new PostgresDirectory(client);
    this.ledgerStatements = new PostgresLedger(client);
    this.outbox = new PostgresOutbox(client);
  }

  createAccount(input: { email: string; plan: Plan; now: number }): Promise<Account> {
    return this.directory.createAccount(input);
  }
  getAccount(id: string): Promise<Account | null> {
    return this.directory.getAccount(id);
  }
  listAccounts(): Promise<Account[]> {
    return this.directory.listAccounts();
  }
  setPlan(id: string, plan: Plan, anchor: number): Promise<Account | null> {
    return this.directory.setPlan(id, plan, anchor);
  }
  findAccountByEmail(email: string): Promise<Account | null> {
    return this.directory.findAccountByEmail(email);
  }
  createKey(input: NewKey): Promise<ApiKeyRecord> {
    return this.directory.createKey(input);
  }
  listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.directory.listKeys(accountId);
  }
  revokeKey(keyId: string, now: number): Promise<ApiKeyRecord | null> {
    return this.directory.revokeKey(keyId, now);
  }
  findKeyByHash(hash: string): Promise<FoundKey | null> {
    return this.directory.findKeyByHash(hash);
  }
  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    return this.directory.touchKeys(lastUsed);
  }

  getUsed(accountId: string, periodStart: number): Promise<number> {
    return this.ledgerStatements.getUsed(accountId, periodStart);
  }
  reserve(req: ReserveRequest): Promise<ReserveResult> {
    return this.ledgerStatements.reserve(req);
  }
  charge(req: Omit<ReserveRequest, 'partial'>): Promise<ReserveResult> {
    return this.ledgerStatements.charge(req);
  }
  commit(reservationId: string, now: number): Promise<void> {
    return this.ledgerStatements.commit(reservationId, now);
  }
  refund(reservationId: string, amount: number | null, now: number): Promise<number> {
    return this.ledgerStatements.refund(reservationId, amount, now);
  }
  async refundAbandoned(olderThan: number, now: number): Promise<number> {
    let total = 0;
    for (const id of await this.ledgerStatements.pendingBefore(olderThan)) total += await this.refund(id, null, now);
    return total;
  }
  ledger(accountId: string): Promise<LedgerRow[]> {
    return this.ledgerStatements.rows(accountId);
  }
  usagePerDay(accountId: string, since: number): Promise<DailyUsage[]> {
    return this.ledgerStatements.usagePerDay(accountId, since);
  }

  claimDue(owner: string, now: number, leaseMs: number, max: number): Promise<ClaimedMessage[]> {
    return this.outbox.claimDue(owner, now, leaseMs, max);
  }
  markSent(id: string, owner: string, now: number): Promise<boolean> {
    return this.outbox.markSent(id, owner, now);
  }
  markFailed(id: string, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    return this.outbox.markFailed(id, owner, nextAttemptAt, error);
  }
  listOutbox(accountId: string): Promise<OutboxMessage[]> {
    return this.outbox.list(accountId);
  }

  async ping(): Promise<void> {
    await this.client.query('SELECT 1');
  }
  close(): Promise<void> {
    return this.client.end();
  }
}
