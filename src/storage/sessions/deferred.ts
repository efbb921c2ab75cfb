import type { SessionStore } from '../../account/interface.ts';

type Args<K extends keyof SessionStore> = SessionStore[K] extends (...args: infer P) => unknown ? P : never;

/**
 * A session store that may open after the service started, with the account store whose
 * migrations make its tables. `current` returns the open store or throws DependencyDownError.
 */
export class DeferredSessionStore implements SessionStore {
  constructor(
    private readonly current: () => SessionStore,
    private readonly closeAll: () => Promise<void>,
  ) {}

  async insertSignInToken(...a: Args<'insertSignInToken'>) {
    return this.current().insertSignInToken(...a);
  }
  async consumeSignInToken(...a: Args<'consumeSignInToken'>) {
    return this.current().consumeSignInToken(...a);
  }
  async deleteSignInTokens(...a: Args<'deleteSignInTokens'>) {
    return this.current().deleteSignInTokens(...a);
  }
  async insertSession(...a: Args<'insertSession'>) {
    return this.current().insertSession(...a);
  }
  async findSession(...a: Args<'findSession'>) {
    return this.current().findSession(...a);
  }
  async deleteSession(...a: Args<'deleteSession'>) {
    return this.current().deleteSession(...a);
  }
  async deleteSessions(...a: Args<'deleteSessions'>) {
    return this.current().deleteSessions(...a);
  }
  async getDisplayName(...a: Args<'getDisplayName'>) {
    return this.current().getDisplayName(...a);
  }
  async setDisplayName(...a: Args<'setDisplayName'>) {
    return this.current().setDisplayName(...a);
  }
  async deleteExpired(...a: Args<'deleteExpired'>) {
    return this.current().deleteExpired(...a);
  }
  /** Stops opening (if it still is) and closes what was opened. */
  close() {
    return this.closeAll();
  }
}
