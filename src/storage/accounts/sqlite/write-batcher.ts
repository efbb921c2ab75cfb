import type Database from 'better-sqlite3';

interface PendingWrite {
  run: () => unknown;
  resolve: (v: never) => void;
  reject: (e: unknown) => void;
  /** Set inside the batch; reported once the batch has committed. */
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

/** A call in a batch threw: the batch is rolled back and run again call by call. */
class CallFailed extends Error {
  constructor(readonly error: unknown) {
    super('a call in the batch failed');
  }
}

/**
 * Group commit: every write issued while the event loop handles one turn of I/O runs in one
 * IMMEDIATE transaction, in call order, so a busy server makes one WAL commit per batch instead
 * of one per call (docs/performance.md). Each call resolves only after its batch has committed,
 * and fails alone.
 */
export class WriteBatcher {
  private queue: PendingWrite[] = [];
  private readonly flushBatch: Database.Transaction<(ops: PendingWrite[]) => void>;
  private readonly flushIsolated: Database.Transaction<(ops: PendingWrite[]) => void>;
  private readonly savepoint: Database.Transaction<(run: () => unknown) => unknown>;

  constructor(private readonly db: Database.Database) {
    this.flushBatch = db.transaction((ops: PendingWrite[]) => runBatch(ops));
    this.flushIsolated = db.transaction((ops: PendingWrite[]) => this.runIsolated(ops));
    // Nested inside the batch, better-sqlite3 runs this as a savepoint: a call that throws
    // rolls back only its own writes.
    this.savepoint = db.transaction((run: () => unknown) => run());
  }

  /** Runs `run` (synchronous statements) in the next batch; resolves once that batch is committed. */
  write<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ run, resolve: resolve as (v: never) => void, reject });
    });
  }

  // Calls almost never throw, so a batch first runs them without savepoints (two statements
  // fewer per call); when one throws, the batch is rolled back and runs again with one savepoint
  // per call, so that only the failing call fails.
  private runIsolated(ops: PendingWrite[]): void {
    for (const op of ops) {
      try {
        op.outcome = { ok: true, value: this.savepoint(op.run) };
      } catch (error) {
        op.outcome = { ok: false, error };
      }
    }
  }

  /** Writes what is queued now (the store calls it before closing). */
  flush(): void {
    const ops = this.queue;
    this.queue = [];
    if (ops.length === 0) return;
    if (!this.db.open) {
      for (const op of ops) op.reject(new Error('account store is closed'));
      return;
    }
    try {
      try {
        this.flushBatch.immediate(ops);
      } catch (err) {
        if (!(err instanceof CallFailed)) throw err;
        for (const op of ops) op.outcome = undefined;
        this.flushIsolated.immediate(ops);
      }
    } catch (err) {
      // The batch itself failed (busy database, disk full): nothing in it was written.
      for (const op of ops) op.reject(err);
      return;
    }
    for (const op of ops) {
      if (op.outcome?.ok) op.resolve(op.outcome.value as never);
      else op.reject(op.outcome?.error);
    }
  }
}

function runBatch(ops: PendingWrite[]): void {
  for (const op of ops) {
    try {
      op.outcome = { ok: true, value: op.run() };
    } catch (error) {
      throw new CallFailed(error);
    }
  }
}
