import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openSqliteStore } from '../../src/storage/accounts/sqlite.ts';
import { makeTempDir } from '../helper.ts';

// The SQLite store writes every call issued in one event-loop turn in one transaction. These
// tests issue calls in the same turn, so they land in one batch, and check that each still
// behaves as if it ran alone, in call order.

function openStore(t: import('node:test').TestContext) {
  const dir = makeTempDir();
  const store = openSqliteStore(`sqlite:${path.join(dir, 'db.sqlite')}`);
  t.after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

const reserveOne = (accountId: string, i: number) => ({
  accountId, periodStart: 0, limit: 60, amount: 1, partial: false, requestId: `r${i}`, endpoint: 'content', now: 1000 + i,
});

test('100 reservations in one batch against 60 credits: the first 60 in call order get one each', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const results = await Promise.all(Array.from({ length: 100 }, (_, i) => store.reserve(reserveOne(account.id, i))));
  assert.deepEqual(results.map((r) => r.ok), [...Array(60).fill(true), ...Array(40).fill(false)]);
  assert.deepEqual(results.slice(0, 60).map((r) => r.used), Array.from({ length: 60 }, (_, i) => i + 1));
  assert.ok(results.slice(60).every((r) => r.used === 60));
  assert.equal(await store.getUsed(account.id, 0), 60);
  assert.equal((await store.ledger(account.id)).length, 60);
});

test('a call that fails inside a batch fails alone; the rest of the batch is written', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const first = await store.reserve(reserveOne(account.id, 0));
  assert.ok(first.ok);
  const outcomes = await Promise.allSettled([
    store.commit(first.reservationId, 2000),
    // No such account: the foreign key refuses the usage counter, inside the same batch.
    store.reserve(reserveOne('acc_missing', 1)),
    store.reserve(reserveOne(account.id, 2)),
  ]);
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /FOREIGN KEY/);
  const ledger = await store.ledger(account.id);
  assert.deepEqual(ledger.map((r) => r.status), ['committed', 'pending']);
  assert.equal(await store.getUsed(account.id, 0), 2);
});

test('closing the store writes what is queued', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const pending = store.reserve(reserveOne(account.id, 0));
  await store.close();
  const r = await pending;
  assert.ok(r.ok);
  const reopened = openSqliteStore(`sqlite:${(store as unknown as { db: { name: string } }).db.name}`);
  t.after(() => reopened.close());
  assert.equal(await reopened.getUsed(account.id, 0), 1);
});

test('a batch that cannot be written rejects every call in it and leaves nothing behind', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const file = (store as unknown as { db: { name: string } }).db.name;
  // Another writer holds the database past the store's busy timeout.
  const { default: Database } = await import('better-sqlite3');
  const other = new Database(file);
  t.after(() => other.close());
  other.exec('BEGIN IMMEDIATE');
  const outcomes = await Promise.allSettled([store.reserve(reserveOne(account.id, 0)), store.reserve(reserveOne(account.id, 1))]);
  other.exec('ROLLBACK');
  assert.deepEqual(outcomes.map((o) => o.status), ['rejected', 'rejected']);
  assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /busy|locked/i);
  assert.equal(await store.getUsed(account.id, 0), 0);
  assert.equal((await store.ledger(account.id)).length, 0);
});
