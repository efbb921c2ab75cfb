import type { AccountStore } from './interface.ts';

type Args<K extends keyof AccountStore> = AccountStore[K] extends (...args: infer P) => unknown ? P : never;

/**
 * An account store that may open after the service started (its database was not there yet).
 * `current` returns the open store or throws DependencyDownError (503); every call is async, so
 * that refusal is always a rejected promise.
 */
export class DeferredAccountStore implements AccountStore {
  constructor(
    readonly sharedByServers: boolean,
    private readonly current: () => AccountStore,
    private readonly closeAll: () => Promise<void>,
  ) {}

  async createAccount(...a: Args<'createAccount'>) {
    return this.current().createAccount(...a);
  }
  async getAccount(...a: Args<'getAccount'>) {
    return this.current().getAccount(...a);
  }
  async listAccounts() {
    return this.current().listAccounts();
  }
  async setPlan(...a: Args<'setPlan'>) {
    return this.current().setPlan(...a);
  }
  async findAccountByEmail(...a: Args<'findAccountByEmail'>) {
    return this.current().findAccountByEmail(...a);
  }
  async createKey(...a: Args<'createKey'>) {
    return this.current().createKey(...a);
  }
  async listKeys(...a: Args<'listKeys'>) {
    return this.current().listKeys(...a);
  }
  async revokeKey(...a: Args<'revokeKey'>) {
    return this.current().revokeKey(...a);
  }
  async findKeyByHash(...a: Args<'findKeyByHash'>) {
    return this.current().findKeyByHash(...a);
  }
  async touchKeys(...a: Args<'touchKeys'>) {
    return this.current().touchKeys(...a);
  }
  async getUsed(...a: Args<'getUsed'>) {
    return this.current().getUsed(...a);
  }
  async reserve(...a: Args<'reserve'>) {
    return this.current().reserve(...a);
  }
  async charge(...a: Args<'charge'>) {
    return this.current().charge(...a);
  }
  async commit(...a: Args<'commit'>) {
    return this.current().commit(...a);
  }
  async refund(...a: Args<'refund'>) {
    return this.current().refund(...a);
  }
  async refundAbandoned(...a: Args<'refundAbandoned'>) {
    return this.current().refundAbandoned(...a);
  }
  async ledger(...a: Args<'ledger'>) {
    return this.current().ledger(...a);
  }
  async usagePerDay(...a: Args<'usagePerDay'>) {
    return this.current().usagePerDay(...a);
  }
  async listOutbox(...a: Args<'listOutbox'>) {
    return this.current().listOutbox(...a);
  }
  async claimDue(...a: Args<'claimDue'>) {
    return this.current().claimDue(...a);
  }
  async markSent(...a: Args<'markSent'>) {
    return this.current().markSent(...a);
  }
  async markFailed(...a: Args<'markFailed'>) {
    return this.current().markFailed(...a);
  }
  async ping() {
    return this.current().ping();
  }
  /** Stops opening (if it still is) and closes what was opened. */
  close() {
    return this.closeAll();
  }
}
