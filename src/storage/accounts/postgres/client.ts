import type pg from 'pg';
import { CommitOutcomeUnknownError, DependencyDownError } from '../../../errors.ts';

/**
 * The longest one statement may wait for its answer. Without it a database that stops answering
 * without closing the connection (a partition, a hung proxy) held requests for as long as that
 * lasted; past it the statement fails as DependencyDownError (503) and its connection is dropped.
 */
export const QUERY_TIMEOUT_MS = 10_000;

/** What a statement runs on: the pool, or the client of one transaction. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
}

/**
 * A pool whose failures are values the HTTP layer maps: connection-level errors become
 * DependencyDownError (503), anything else (a bug, a constraint) stays itself. A connection
 * cut at any moment, idle or inside a transaction, ends that call and never the process.
 */
export class PgClient implements Queryable {
  constructor(readonly pool: pg.Pool) {
    // An idle client's connection dropped: the pool replaces it. Without a listener this crashes.
    pool.on('error', () => {});
    // Every client always has a listener: pool.query releases a client inside its socket's parse
    // loop and the pool hands it to a waiter at once, so a FATAL message later in the same chunk
    // (pg_terminate_backend) reaches a client whose new holder has not attached one yet. The
    // failed query or the next checkout reports the error; the pool drops the dead client.
    pool.on('connect', (client) => client.on('error', () => {}));
  }

  async query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    try {
      return await this.pool.query(sql, params);
    } catch (err) {
      throw toStoreError(err);
    }
  }

  /** Runs `fn` in one transaction; a client whose connection broke is dropped, not pooled again. */
  async tx<T>(fn: (c: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw new DependencyDownError('database', err);
    }
    // A checked-out client emits 'error' when its connection dies (pg_terminate_backend, a
    // restart, a cut network); unheard, that event would end the process.
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    let committing = false;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      committing = true;
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection that failed or stalled gets no ROLLBACK (it would only wait out its own
      // timeout): it is dropped, and the server rolls back what it had.
      if (toStoreError(err) instanceof DependencyDownError) broken ??= err as Error;
      else
        await client.query('ROLLBACK').catch((e: Error) => {
          broken ??= e;
        });
      const failure = toStoreError(broken ?? err);
      // Cut after COMMIT was sent, the server may have committed: say so rather than "failed".
      if (committing && failure instanceof DependencyDownError)
        throw new CommitOutcomeUnknownError('database', failure.cause);
      throw failure;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async end(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}

/** Connection-level failures become 503s; anything else (a bug, a constraint) stays an error. */
export function toStoreError(err: unknown): unknown {
  if (err instanceof DependencyDownError) return err;
  const e = err as { code?: string; message?: string };
  const connection =
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|57P01|57P02|57P03|08\d{3})$/.test(
      e.code ?? '',
    ) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|Query read timeout/i.test(
      e.message ?? '',
    );
  return connection ? new DependencyDownError('database', err) : err;
}

/**
 * Whether a failure to open the store lasts until an operator acts: the server answered but
 * refused the credentials (class 28) or has no such database (3D000), or the failure is not a
 * connection's at all (a migration that cannot apply). A server not there (yet) is not lasting.
 */
export function isLastingOpenFailure(err: unknown): boolean {
  if (!(err instanceof DependencyDownError)) return true;
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^(28[0-9A-Z]{3}|3D000)$/.test(code);
}
