import type Database from 'better-sqlite3';
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
import { CachedKeyFinder, type FoundKey } from '../key-cache.ts';
import { SqliteDirectory } from './directory.ts';
import { SqliteLedger } from './ledger.ts';
import { SqliteOutbox } from './outbox.ts';
import { WriteBatcher } from './write-batcher.ts';

/** The account store on one SQLite file: one connection, ledger writes group-committed. */
export class SqliteAccountStore implements AccountStore {
  /** A file in the data dir: one `serve` at a time (the data dir lock). */
  readonly sharedByServers = false;
  private readonly directory: SqliteDirectory;
  private readonly keys: CachedKeyFinder;
  private readonly ledgerStatements: SqliteLedger;
  private readonly outbox: SqliteOutbox;
  private readonly batcher: WriteBatcher;

  constructor(private readonly db: Database.Database) {
    this.directory = new SqliteDirectory(db);
    this.keys = new CachedKeyFinder(this.directory, () => this.directory.changeToken());
    this.outbox = new SqliteOutbox(db);
    this.ledgerStatements = new SqliteLedger(db, this.outbox);
    this.batcher = new WriteBatcher(db);
  }

  async createAccount(input: { email: string; plan: Plan; now: number }): Promise<Account> {
    return this.directory.createAccount(input);
  }
  async getAccount(id: string): Promise<Account | null> {
    return this.directory.getAccount(id);
  }
  async listAccounts(): Promise<Account[]> {
    return this.directory.listAccounts();
  }
  async setPlan(id: string, plan: Plan, anchor: number): Promise<Account | null> {
    return this.directory.setPlan(id, plan, anchor);
  }
  async findAccountByEmail(email: string): Promise<Account | null> {
    return this.directory.findAccountByEmail(email);
  }
  async createKey(input: NewKey): Promise<ApiKeyRecord> {
    return this.directory.createKey(input);
  }
  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.directory.listKeys(accountId);
  }
  async revokeKey(keyId: string, now: number): Promise<ApiKeyRecord | null> {
    return this.directory.revokeKey(keyId, now);
  }
  findKeyByHash(hash: string): Promise<FoundKey | null> {
    return this.keys.findKeyByHash(hash);
  }
  touchKeys(lastUsed: ReadonlyMap<string, number>): Promise<void> {
    return this.batcher.write(() => this.directory.touchKeys(lastUsed));
  }

  async getUsed(accountId: string, periodStart: number): Promise<number> {
    return this.ledgerStatements.getUsed(accountId, periodStart);
  }
  reserve(req: ReserveRequest): Promise<ReserveResult> {
    return this.batcher.write(() => this.ledgerStatements.reserve(req));
  }
  charge(req: Omit<ReserveRequest, 'partial'>): Promise<ReserveResult> {
    return this.batcher.write(() => this.ledgerStatements.charge(req));
  }
  commit(reservationId: string, now: number): Promise<void> {
    return this.batcher.write(() => this.ledgerStatements.commit(reservationId, now));
  }
  refund(reservationId: string, amount: number | null, now: number): Promise<number> {
    return this.batcher.write(() => this.ledgerStatements.refund(reservationId, amount, now));
  }
  async refundAbandoned(olderThan: number, now: number): Promise<number> {
    const ids = this.ledgerStatements.pendingBefore(olderThan);
    const given = await Promise.all(ids.map((id) => this.refund(id, null, now)));
    return given.reduce((a, b) => a + b, 0);
  }
  async ledger(accountId: string): Promise<LedgerRow[]> {
    return this.ledgerStatements.rows(accountId);
  }
  async usagePerDay(accountId: string, since: number): Promise<DailyUsage[]> {
    return this.ledgerStatements.usagePerDay(accountId, since);
  }

  async claimDue(owner: string, now: number, leaseMs: number, max: number): Promise<ClaimedMessage[]> {
    return this.outbox.claimDue(owner, now, leaseMs, max);
  }
  async markSent(id: string, owner: string, now: number): Promise<boolean> {
    return this.outbox.markSent(id, owner, now);
  }
  async markFailed(id: string, owner: string, nextAttemptAt: number, error: string): Promise<void> {
    this.outbox.markFailed(id, owner, nextAttemptAt, error);
  }
  async listOutbox(accountId: string): Promise<OutboxMessage[]> {
    return this.outbox.list(accountId);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }
  async close(): Promise<void> {
    this.batcher.flush();
    if (this.db.open) this.db.close();
  }
}
