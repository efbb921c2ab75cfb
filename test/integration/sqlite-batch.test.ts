import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openSqliteStore } from '../../src/storage/accounts/sqlite/open.ts';
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
  accountId,
  periodStart: 0,
  limit: 60,
  amount: 1,
  partial: false,
  requestId: `r${i}`,
  endpoint: 'content',
  now: 1000 + i,
});

test('100 reservations in one batch against 60 credits: the first 60 in call order get one each', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const results = await Promise.all(Array.from({ length: 100 }, (_, i) => store.reserve(reserveOne(account.id, i))));
  assert.deepEqual(
    results.map((r) => r.ok),
    [...Array(60).fill(true), ...Array(40).fill(false)],
  );
  assert.deepEqual(
    results.slice(0, 60).map((r) => r.used),
    Array.from({ length: 60 }, (_, i) => i + 1),
  );
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
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /FOREIGN KEY/);
  const ledger = await store.ledger(account.id);
  assert.deepEqual(
    ledger.map((r) => r.status),
    ['committed', 'pending'],
  );
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
  const outcomes = await Promise.allSettled([
    store.reserve(reserveOne(account.id, 0)),
    store.reserve(reserveOne(account.id, 1)),
  ]);
  other.exec('ROLLBACK');
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['rejected', 'rejected'],
  );
  assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /busy|locked/i);
  assert.equal(await store.getUsed(account.id, 0), 0);
  assert.equal((await store.ledger(account.id)).length, 0);
});

test('reservations grant the same whether the counter exists or not; commits count what was not refunded', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const ask = (amount: number, partial: boolean, i: number) =>
    store.reserve({
      accountId: account.id,
      periodStart: 0,
      limit: 10,
      amount,
      partial,
      requestId: `r${i}`,
      endpoint: 'content',
      now: 1000 + i,
    });
  // No counter yet: the full path creates it.
  const a = await ask(4, false, 0);
  assert.deepEqual([a.ok, a.used, a.ok && a.granted], [true, 4, 4]);
  // Counter exists and holds enough: the one-statement path.
  const b = await ask(6, false, 1);
  assert.deepEqual([b.ok, b.used, b.ok && b.granted], [true, 10, 6]);
  // Nothing left: refused whole or partial, and nothing changes.
  assert.deepEqual(await ask(1, false, 2), { ok: false, used: 10 });
  assert.deepEqual(await ask(3, true, 3), { ok: false, used: 10 });
  assert.ok(a.ok && b.ok);
  assert.equal(await store.refund(b.reservationId, 5, 2000), 5);
  // 5 left: all-or-nothing refuses 6, partial grants 5.
  assert.deepEqual(await ask(6, false, 4), { ok: false, used: 5 });
  const c = await ask(6, true, 5);
  assert.deepEqual([c.ok, c.used, c.ok && c.granted], [true, 10, 5]);
  assert.ok(c.ok);
  assert.equal(await store.refund(c.reservationId, null, 2001), 5);
  await Promise.all([
    store.commit(a.reservationId, 3000),
    store.commit(b.reservationId, 3000),
    store.commit(c.reservationId, 3000),
  ]);
  // A second commit of the same charge changes nothing.
  await store.commit(a.reservationId, 3001);
  const charges = (await store.ledger(account.id)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => [r.amount, r.status]),
    [
      [4, 'committed'],
      [6, 'committed'],
      [5, 'refunded'],
    ],
  );
  assert.equal(await store.getUsed(account.id, 0), 5);
  // 4 + 1 committed credits of 10 crossed the 50 % threshold once, and no other.
  const outbox = await store.listOutbox(account.id);
  assert.deepEqual(
    outbox.map((m) => m.threshold),
    [50],
  );
});

test('charges (reserve and commit at once) in one batch against 60 credits: the first 60 in call order, committed, each threshold once', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const charge = (i: number) =>
    store.charge({
      accountId: account.id,
      periodStart: 0,
      limit: 60,
      amount: 1,
      requestId: `r${i}`,
      endpoint: 'content',
      now: 1000 + i,
    });
  // The first has no counter for the period yet, the rest of the batch does.
  const results = await Promise.all(Array.from({ length: 100 }, (_, i) => charge(i)));
  assert.deepEqual(
    results.map((r) => r.ok),
    [...Array(60).fill(true), ...Array(40).fill(false)],
  );
  assert.deepEqual(
    results.slice(0, 60).map((r) => r.used),
    Array.from({ length: 60 }, (_, i) => i + 1),
  );
  assert.ok(results.slice(60).every((r) => r.used === 60));
  const ledger = await store.ledger(account.id);
  assert.deepEqual(new Set(ledger.map((r) => `${r.kind}:${r.status}:${r.amount}`)), new Set(['charge:committed:1']));
  assert.deepEqual(
    ledger.map((r) => r.requestId),
    Array.from({ length: 60 }, (_, i) => `r${i}`),
  );
  assert.equal(await store.getUsed(account.id, 0), 60);
  assert.deepEqual(
    (await store.listOutbox(account.id)).map((m) => m.threshold),
    [50, 70, 90, 100],
  );
  // Nothing is left pending for the abandoned-charge sweep to refund.
  assert.equal(await store.refundAbandoned(Number.MAX_SAFE_INTEGER, 9000), 0);
  assert.equal(await store.getUsed(account.id, 0), 60);
});

test('a charge and a reservation of the same account share one counter', async (t) => {
  const store = openStore(t);
  const account = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
  const reserved = await store.reserve({ ...reserveOne(account.id, 0), limit: 3, amount: 2 });
  assert.ok(reserved.ok);
  const charged = await store.charge({
    accountId: account.id,
    periodStart: 0,
    limit: 3,
    amount: 2,
    requestId: 'c',
    endpoint: 'content',
    now: 1500,
  });
  assert.deepEqual(charged, { ok: false, used: 2 });
  assert.equal(await store.refund(reserved.reservationId, null, 2000), 2);
  const again = await store.charge({
    accountId: account.id,
    periodStart: 0,
    limit: 3,
    amount: 2,
    requestId: 'c2',
    endpoint: 'content',
    now: 2500,
  });
  assert.deepEqual([again.ok, again.used], [true, 2]);
});
