import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadMigrations, NOT_MADE } from '../migrations.ts';
import { SqliteAccountStore } from './store.ts';

/** How long a statement waits for another connection's write lock before failing busy. */
export const BUSY_TIMEOUT_MS = 5000;

export function openSqliteStore(url: string, create = true): SqliteAccountStore {
  const file = url.replace(/^sqlite:/, '');
  if (!create && file !== ':memory:' && !fs.existsSync(file)) throw new Error(NOT_MADE);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // The busy timeout is set at open: processes opening a fresh file together wait for each other.
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    enterWalMode(db);
    // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Fewer, larger checkpoints: each syncs on the committing thread (docs/performance.md).
    db.pragma('wal_autocheckpoint = 10000');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return new SqliteAccountStore(db);
}

/**
 * Switching a fresh file to WAL needs its exclusive lock. Two connections that both read the
 * rollback-mode header and then ask for it would deadlock, so SQLite answers one of them busy at
 * once, without waiting: that one tries again, a bounded number of times.
 */
function enterWalMode(db: Database.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 1; ; attempt++) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || attempt * 10 >= BUSY_TIMEOUT_MS) throw err;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/**
 * Applies what is missing under the database's write lock (BEGIN IMMEDIATE), reading what was
 * applied inside it: processes opening a fresh file together apply each migration once.
 */
function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    const record = db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
    for (const m of loadMigrations('sqlite')) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      record.run(m.version, Date.now());
    }
  }).immediate();
}
