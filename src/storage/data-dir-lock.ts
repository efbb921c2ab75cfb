import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface DataDirLock {
  readonly dataDir: string;
  /** ms since epoch: charges older than this are no live process's (see abandonedBefore). */
  readonly lockedAt: number;
  release(): void;
}

export type LockOutcome = { ok: true; lock: DataDirLock } | { ok: false; dataDir: string; holder: string };

/** Locks kept reachable for the process lifetime: a collected connection would let its lock go. */
const held = new Set<Database.Database>();

/**
 * One `serve` per data dir: an exclusive SQLite lock on `<dataDir>/serve.lock`, held for the
 * process lifetime. The operating system drops it when the process dies, even by kill -9, so a
 * restart after a crash takes it at once. Who holds it is written beside it, for the refusal.
 */
export function lockDataDir(dataDir: string): LockOutcome {
  fs.mkdirSync(dataDir, { recursive: true });
  const holderFile = path.join(dataDir, 'serve.holder');
  // timeout 0: a held lock refuses at once instead of waiting.
  const db = new Database(path.join(dataDir, 'serve.lock'), { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    return { ok: false, dataDir, holder: readHolder(holderFile) };
  }
  held.add(db);
  const lockedAt = Date.now();
  const holder = `pid ${process.pid} on ${os.hostname()}, since ${new Date(lockedAt).toISOString()}`;
  fs.writeFileSync(holderFile, `${holder}\n`);
  return {
    ok: true,
    lock: {
      dataDir,
      lockedAt,
      release() {
        if (!held.delete(db)) return;
        fs.rmSync(holderFile, { force: true });
        db.close();
      },
    },
  };
}

function readHolder(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim() || 'another process';
  } catch {
    return 'another process';
  }
}
