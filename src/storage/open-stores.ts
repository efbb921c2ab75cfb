import type { Logger } from 'pino';
import type { SessionStore } from '../account/interface.ts';
import type { Config } from '../config.ts';
import { describeCause } from '../errors.ts';
import { redactUrl } from '../util/redact-url.ts';
import type { AccountStore } from './accounts/interface.ts';
import { RetryingOpen } from './retrying-open.ts';

/** The stores on the configured database, for `serve`. */
export interface Stores {
  accounts: AccountStore;
  sessions: SessionStore;
  isOpen(): boolean;
  /** Settles once both stores are open: at once on SQLite, when the server answers on PostgreSQL. */
  opened: Promise<void>;
}

/**
 * SQLite opens at once (a file: failing to open it is a configuration error). PostgreSQL may be
 * out of reach when the service starts; the stores then open in the background and answer 503
 * until they do. Only a refusal that lasts (credentials, no such database) stops the start.
 */
export async function openStores(config: Readonly<Config>, logger: Logger): Promise<Stores> {
  if (config.databaseUrl.startsWith('sqlite:')) {
    const { openSqliteStore } = await import('./accounts/sqlite/open.ts');
    const { openSqliteSessionStore } = await import('./sessions/sqlite.ts');
    const accounts = openSqliteStore(config.databaseUrl);
    const sessions = openSqliteSessionStore(config.databaseUrl);
    return { accounts, sessions, isOpen: () => true, opened: Promise.resolve() };
  }
  return openPostgresStores(config.databaseUrl, logger);
}

async function openPostgresStores(url: string, logger: Logger): Promise<Stores> {
  const { openPostgresStore } = await import('./accounts/postgres/open.ts');
  const { isLastingOpenFailure } = await import('./accounts/postgres/client.ts');
  const { openPostgresSessionStore } = await import('./sessions/postgres.ts');
  const { DeferredAccountStore } = await import('./accounts/deferred.ts');
  const { DeferredSessionStore } = await import('./sessions/deferred.ts');
  const database = redactUrl(url);
  // The start-up warning (container.start) already said "unreachable"; a change of reason is news.
  let told = 'unreachable';
  const opening = new RetryingOpen(
    async () => {
      const accounts = await openPostgresStore(url);
      // Its own pool on the tables that the account store's migrations have just made.
      return { accounts, sessions: await openPostgresSessionStore(url) };
    },
    async ({ accounts, sessions }) => {
      await sessions.close();
      await accounts.close();
    },
    {
      dependency: 'database',
      isLasting: isLastingOpenFailure,
      onFailure(err, attempt, retryInMs) {
        const reason = isLastingOpenFailure(err) ? describeCause(err) : 'unreachable';
        const fields = { part: 'database', database, attempt, retryInMs, reason: describeCause(err) };
        if (reason === told) logger.debug(fields, 'database still not open; retrying');
        else
          logger.warn(fields, `database ${reason === 'unreachable' ? 'unreachable' : `refuses: ${reason}`}; retrying`);
        told = reason;
      },
      onOpen(attempts) {
        if (attempts > 1) logger.info({ part: 'database', database, attempts }, 'database reachable; stores open');
      },
    },
  );
  try {
    await opening.start();
  } catch (err) {
    throw new Error(`database ${database}: ${describeCause(err)} (check POSTSHOT_DATABASE_URL)`);
  }
  const closeAll = () => opening.close();
  return {
    accounts: new DeferredAccountStore(true, () => opening.get().accounts, closeAll),
    sessions: new DeferredSessionStore(() => opening.get().sessions, closeAll),
    isOpen: () => opening.isOpen,
    opened: opening.opened.then(() => {}),
  };
}
