import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPostgresStore } from '../../src/storage/accounts/postgres/open.ts';
import { loadMigrations } from '../../src/storage/accounts/migrations.ts';
import { REPO_DIR } from '../fixtures.ts';
import { makeTempDir } from '../helper.ts';
import { PG_URL } from '../scaled.ts';

// Migrations run under an exclusive lock and are idempotent: processes opening a fresh data dir
// or schema together all succeed, and each migration is applied once.

function runCli(
  env: Record<string, string>,
  ...argv: string[]
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

test('both dialects have the same migration versions', () => {
  const versions = (d: 'sqlite' | 'postgres') => loadMigrations(d).map((m) => [m.version, m.name]);
  assert.deepEqual(versions('sqlite'), versions('postgres'));
  assert.ok(versions('sqlite').length >= 1);
});

/** Opens one fresh SQLite file from `n` threads at the same instant; returns what each answered. */
async function openTogether(file: string, n: number, module = SQLITE_OPEN): Promise<string[]> {
  const barrier = new SharedArrayBuffer(8);
  const flags = new Int32Array(barrier);
  const workers = Array.from(
    { length: n },
    () =>
      new Worker(new URL('./workers/open-sqlite.mjs', import.meta.url), {
        workerData: { url: `sqlite:${file}`, barrier, module },
      }),
  );
  const answers = workers.map(
    (w) =>
      new Promise<string>((resolve) => {
        w.once('message', resolve);
        w.once('error', (err) => resolve(`worker failed: ${err.message}`));
      }),
  );
  // Every thread waits at the barrier (bounded: a thread that fails to start answers through 'error').
  for (let i = 0; i < 2000 && Atomics.load(flags, 1) < n; i++) await new Promise((r) => setTimeout(r, 5));
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
  const out = await Promise.all(answers);
  await Promise.all(workers.map((w) => w.terminate()));
  return out;
}

const SQLITE_OPEN = new URL('../../src/storage/accounts/sqlite/open.ts', import.meta.url).href;

test('SQLite: threads opening a fresh database at the same instant all succeed', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (let round = 0; round < 5; round++) {
    const file = path.join(dir, `race-${round}.db`);
    assert.deepEqual(await openTogether(file, 6), Array(6).fill('ok'), `round ${round}`);
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.prepare('SELECT COUNT(*) FROM accounts').pluck().get(), 6);
      assert.deepEqual(
        db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all(),
        loadMigrations('sqlite').map((m) => m.version),
      );
    } finally {
      db.close();
    }
  }
});

test('SQLite: CLI commands opening a fresh data dir together all succeed', async (t) => {
  for (let round = 0; round < 3; round++) {
    const dir = makeTempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const env = { POSTSHOT_DATA_DIR: dir };
    const runs = await Promise.all(
      Array.from({ length: 4 }, (_, i) => runCli(env, 'accounts', 'create', '--email', `m${i}@example.com`, '--json')),
    );
    for (const r of runs) assert.equal(r.code, 0, r.err);
    const db = new Database(path.join(dir, 'postshot.db'), { readonly: true });
    try {
      assert.equal(db.prepare('SELECT COUNT(*) FROM accounts').pluck().get(), 4);
      assert.deepEqual(
        db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all(),
        loadMigrations('sqlite').map((m) => m.version),
      );
    } finally {
      db.close();
    }
  }
});

test('PostgreSQL: stores opening a fresh schema together all succeed', async (t) => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  t.after(async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });
  const stores = await Promise.all(Array.from({ length: 5 }, () => openPostgresStore(`${PG_URL}?schema=${schema}`)));
  try {
    await Promise.all(stores.map((s, i) => s.createAccount({ email: `m${i}@example.com`, plan: 'free', now: i })));
    assert.equal((await stores[0].listAccounts()).length, 5);
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
    assert.deepEqual(
      rows.map((r) => r.version),
      loadMigrations('postgres').map((m) => m.version),
    );
  } finally {
    await c.end();
  }
});
