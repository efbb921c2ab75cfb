import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import pg from 'pg';
import { AddressTakenError } from '../../src/errors.ts';
import { loadConfig } from '../../src/config.ts';
import { openAccountStore } from '../../src/container.ts';
import type { AccountStore, ReserveRequest } from '../../src/storage/accounts/interface.ts';
import { makeTempDir } from '../helper.ts';
import { PG_URL } from '../scaled.ts';

// The AccountStore contract: the same assertions on every backend, so that a store is correct
// when it passes this file, whatever its dialect.

interface Backend {
  name: string;
  /** A fresh, empty store; `url` names it so that a second store can open the same data. */
  fresh(t: TestContext): Promise<{ store: AccountStore; reopen(): Promise<AccountStore> }>;
}

async function openUrl(url: string, dataDir: string): Promise<AccountStore> {
  return openAccountStore(loadConfig({ POSTSHOT_DATABASE_URL: url, POSTSHOT_DATA_DIR: dataDir }));
}

const BACKENDS: Backend[] = [
  {
    name: 'sqlite',
    async fresh(t) {
      const dir = makeTempDir();
      const url = `sqlite:${path.join(dir, 'db.sqlite')}`;
      const opened: AccountStore[] = [];
      const open = async () => {
        const s = await openUrl(url, dir);
        opened.push(s);
        return s;
      };
      t.after(async () => {
        for (const s of opened) await s.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return { store: await open(), reopen: open };
    },
  },
  {
    name: 'postgres',
    async fresh(t) {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const dir = makeTempDir();
      const url = `${PG_URL}?schema=${schema}`;
      const opened: AccountStore[] = [];
      const open = async () => {
        const s = await openUrl(url, dir);
        opened.push(s);
        return s;
      };
      t.after(async () => {
        for (const s of opened) await s.close();
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return { store: await open(), reopen: open };
    },
  },
];

const ask = (accountId: string, i: number, over: Partial<ReserveRequest> = {}): ReserveRequest => ({
  accountId,
  periodStart: 0,
  limit: 10,
  amount: 1,
  partial: false,
  requestId: `r${i}`,
  endpoint: 'content',
  now: 1000 + i,
  ...over,
});

for (const backend of BACKENDS) {
  describe(`AccountStore contract: ${backend.name}`, () => {
    test('accounts: create, get, list in creation order, change plan', async (t) => {
      const { store } = await backend.fresh(t);
      const a = await store.createAccount({ email: 'a@example.com', plan: 'free', now: 1000 });
      const b = await store.createAccount({ email: 'b@example.com', plan: 'pro', now: 2000 });
      assert.deepEqual(a, { id: a.id, email: 'a@example.com', plan: 'free', anchor: 1000, createdAt: 1000 });
      assert.match(a.id, /^acc_/);
      assert.deepEqual(await store.getAccount(a.id), a);
      assert.equal(await store.getAccount('acc_missing'), null);
      assert.deepEqual(await store.listAccounts(), [a, b]);
      assert.deepEqual(await store.setPlan(a.id, 'business', 5000), { ...a, plan: 'business', anchor: 5000 });
      assert.deepEqual(await store.getAccount(a.id), { ...a, plan: 'business', anchor: 5000 });
      assert.equal(await store.setPlan('acc_missing', 'pro', 1), null);
    });

    test('keys: create, list, find by hash, revoke once', async (t) => {
      const { store } = await backend.fresh(t);
      const a = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 1000 });
      const k1 = await store.createKey({ accountId: a.id, hash: 'h1', prefix: 'psk_aaaa', now: 1100 });
      const k2 = await store.createKey({ accountId: a.id, hash: 'h2', prefix: 'psk_bbbb', now: 1200 });
      assert.deepEqual(k1, {
        id: k1.id,
        accountId: a.id,
        prefix: 'psk_aaaa',
        hash: 'h1',
        createdAt: 1100,
        revokedAt: null,
        name: null,
        lastUsedAt: null,
      });
      assert.deepEqual(await store.listKeys(a.id), [k1, k2]);
      assert.deepEqual(await store.listKeys('acc_missing'), []);
      assert.deepEqual(await store.findKeyByHash('h2'), { key: k2, account: a });
      assert.equal(await store.findKeyByHash('nope'), null);
      await assert.rejects(store.createKey({ accountId: a.id, hash: 'h1', prefix: 'psk_cccc', now: 1300 }));
      assert.deepEqual(await store.revokeKey(k1.id, 2000), { ...k1, revokedAt: 2000 });
      // Revoking again keeps the first revocation time.
      assert.deepEqual(await store.revokeKey(k1.id, 3000), { ...k1, revokedAt: 2000 });
      assert.deepEqual(await store.findKeyByHash('h1'), { key: { ...k1, revokedAt: 2000 }, account: a });
      assert.equal(await store.revokeKey('key_missing', 1), null);
      await store.setPlan(a.id, 'business', 4000);
      assert.equal((await store.findKeyByHash('h2'))?.account.plan, 'business', 'a plan change shows at once');
    });

    test('accounts by e-mail: compared case-insensitively, one account per address', async (t) => {
      const { store } = await backend.fresh(t);
      const a = await store.createAccount({ email: 'Mixed.Case@Example.com', plan: 'pro', now: 5 });
      await assert.rejects(
        store.createAccount({ email: 'mixed.case@example.com', plan: 'free', now: 6 }),
        AddressTakenError,
      );
      const other = await store.createAccount({ email: 'other@example.com', plan: 'free', now: 7 });
      assert.deepEqual(await store.findAccountByEmail('MIXED.case@example.COM'), a);
      assert.deepEqual(await store.findAccountByEmail('other@example.com'), other);
      assert.equal(await store.findAccountByEmail('nobody@example.com'), null);
      assert.equal(await store.findAccountByEmail('%@example.com'), null, 'no pattern matching');
    });

    test('accounts: two stores creating the same address at once make one account', async (t) => {
      const { store, reopen } = await backend.fresh(t);
      const second = await reopen();
      const results = await Promise.allSettled(
        [store, second, store, second].map((s, i) =>
          s.createAccount({ email: i % 2 ? 'Race@Example.com' : 'race@example.com', plan: 'free', now: i }),
        ),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof AddressTakenError);
      assert.equal((await store.listAccounts()).length, 1);
    });

    test('keys: a name when given, last use moved forward only, by any store on the data', async (t) => {
      const { store, reopen } = await backend.fresh(t);
      const a = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 1 });
      const named = await store.createKey({ accountId: a.id, hash: 'h1', prefix: 'psk_a', now: 7, name: 'ci' });
      const cli = await store.createKey({ accountId: a.id, hash: 'h2', prefix: 'psk_b', now: 8 });
      assert.deepEqual([named.name, named.lastUsedAt, cli.name], ['ci', null, null]);
      assert.deepEqual(await store.listKeys(a.id), [named, cli]);

      await store.touchKeys(new Map());
      await store.touchKeys(new Map([[named.id, 500]]));
      await store.touchKeys(new Map([[named.id, 300]]));
      // Another instance (or the CLI) flushing an older time for one key and a newer for another.
      const other = await reopen();
      await other.touchKeys(
        new Map([
          [named.id, 400],
          [cli.id, 900],
          ['key_missing', 1000],
        ]),
      );
      // Two flushes at once, in either order: the later time stays.
      await Promise.all([store.touchKeys(new Map([[cli.id, 950]])), other.touchKeys(new Map([[cli.id, 940]]))]);
      const listed = await store.listKeys(a.id);
      assert.deepEqual(
        listed.map((k) => [k.name, k.lastUsedAt]),
        [
          ['ci', 500],
          [null, 950],
        ],
      );
      assert.deepEqual((await other.findKeyByHash('h1'))?.key, { ...named, lastUsedAt: 500 });
      // Last use is no change to a key: a revocation afterwards still shows at once.
      await store.revokeKey(cli.id, 2000);
      assert.equal((await store.findKeyByHash('h2'))?.key.revokedAt, 2000);
    });

    test('usage per day: charges by UTC day and endpoint, after refunds, from `since` on', async (t) => {
      const { store } = await backend.fresh(t);
      const a = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const b = await store.createAccount({ email: 'b@example.com', plan: 'pro', now: 0 });
      const day = 86_400_000;
      const base = 20 * day;
      const charge = (endpoint: string, at: number, amount = 1, accountId = a.id) =>
        store.charge({ accountId, periodStart: 0, limit: 1000, amount, requestId: 'r', endpoint, now: at });
      await charge('content', base + 10);
      await charge('content', base + 20);
      await charge('content_bulk', base + 30, 4);
      await charge('screenshot', base + day - 1);
      await charge('screenshot', base + day + 5);
      await charge('content', base - 5, 1);
      await charge('content', base + 40, 7, b.id);
      const held = await store.reserve(
        ask(a.id, 0, { limit: 1000, amount: 2, endpoint: 'screenshot', now: base + day + 6 }),
      );
      assert.ok(held.ok);
      await store.refund(held.reservationId, null, base + day + 7);
      const part = await store.reserve(
        ask(a.id, 1, { limit: 1000, amount: 5, endpoint: 'content_bulk', now: base + day + 8 }),
      );
      assert.ok(part.ok);
      await store.refund(part.reservationId, 3, base + day + 9);
      assert.deepEqual(await store.usagePerDay(a.id, base), [
        { day: base, endpoint: 'content', requests: 2, credits: 2 },
        { day: base, endpoint: 'content_bulk', requests: 1, credits: 4 },
        { day: base, endpoint: 'screenshot', requests: 1, credits: 1 },
        { day: base + day, endpoint: 'content_bulk', requests: 1, credits: 2 },
        { day: base + day, endpoint: 'screenshot', requests: 1, credits: 1 },
      ]);
      assert.deepEqual(await store.usagePerDay(a.id, base + day), [
        { day: base + day, endpoint: 'content_bulk', requests: 1, credits: 2 },
        { day: base + day, endpoint: 'screenshot', requests: 1, credits: 1 },
      ]);
      assert.deepEqual(await store.usagePerDay('acc_missing', 0), []);
    });

    test('reserve: all-or-nothing or partial, refusals change nothing', async (t) => {
      const { store } = await backend.fresh(t);
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      assert.equal(await store.getUsed(id, 0), 0);
      const a = await store.reserve(ask(id, 0, { amount: 4 }));
      assert.ok(a.ok);
      assert.deepEqual([a.granted, a.used], [4, 4]);
      assert.match(a.reservationId, /^chg_/);
      const b = await store.reserve(ask(id, 1, { amount: 6 }));
      assert.deepEqual(b.ok && [b.granted, b.used], [6, 10]);
      assert.deepEqual(await store.reserve(ask(id, 2)), { ok: false, used: 10 });
      assert.deepEqual(await store.reserve(ask(id, 3, { amount: 3, partial: true })), { ok: false, used: 10 });
      assert.ok(b.ok);
      assert.equal(await store.refund(b.reservationId, 5, 1003), 5);
      assert.deepEqual(await store.reserve(ask(id, 4, { amount: 6 })), { ok: false, used: 5 });
      const c = await store.reserve(ask(id, 5, { amount: 6, partial: true }));
      assert.deepEqual(c.ok && [c.granted, c.used], [5, 10]);
      assert.equal(await store.getUsed(id, 0), 10);
      const ledger = await store.ledger(id);
      assert.deepEqual(
        ledger.map((r) => [r.kind, r.amount, r.status, r.requestId, r.refId]),
        [
          ['charge', 4, 'pending', 'r0', null],
          ['charge', 6, 'pending', 'r1', null],
          ['refund', 5, null, 'r1', b.reservationId],
          ['charge', 5, 'pending', 'r5', null],
        ],
      );
      assert.deepEqual(
        ledger.map((r) => [r.accountId, r.periodStart, r.endpoint]),
        Array(4).fill([id, 0, 'content']),
      );
    });

    test('commit: idempotent, counts what was not refunded, records the thresholds it crosses', async (t) => {
      const { store } = await backend.fresh(t);
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const a = await store.reserve(ask(id, 0, { amount: 4 }));
      const b = await store.reserve(ask(id, 1, { amount: 6 }));
      assert.ok(a.ok && b.ok);
      assert.equal(await store.refund(b.reservationId, 5, 1500), 5);
      await store.commit(a.reservationId, 2000);
      assert.deepEqual(await store.listOutbox(id), [], '4 of 10 committed: no threshold yet');
      await store.commit(b.reservationId, 2001);
      await store.commit(b.reservationId, 2002);
      await store.commit('chg_missing', 2003);
      const outbox = await store.listOutbox(id);
      assert.deepEqual(
        outbox.map((m) => [m.threshold, m.periodStart, m.attempts, m.createdAt, m.sentAt]),
        [[50, 0, 0, 2001, null]],
      );
      assert.equal(await store.refund(a.reservationId, null, 3000), 0, 'a committed charge is not refunded');
      assert.deepEqual(
        (await store.ledger(id)).filter((r) => r.kind === 'charge').map((r) => r.status),
        ['committed', 'committed'],
      );
      assert.equal(await store.getUsed(id, 0), 5);
    });

    test('refund: whole, in parts, never more than was reserved, idempotent', async (t) => {
      const { store } = await backend.fresh(t);
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const r = await store.reserve(ask(id, 0, { amount: 5 }));
      assert.ok(r.ok);
      assert.equal(await store.refund(r.reservationId, 2, 1100), 2);
      assert.equal(await store.refund(r.reservationId, 10, 1200), 3);
      assert.equal(await store.refund(r.reservationId, null, 1300), 0);
      assert.equal(await store.refund('chg_missing', null, 1300), 0);
      assert.equal(await store.getUsed(id, 0), 0);
      await store.commit(r.reservationId, 1400);
      const ledger = await store.ledger(id);
      assert.deepEqual(
        ledger.map((x) => [x.kind, x.amount, x.status]),
        [
          ['charge', 5, 'refunded'],
          ['refund', 2, null],
          ['refund', 3, null],
        ],
      );
      assert.deepEqual(await store.listOutbox(id), []);
      const w = await store.reserve(ask(id, 1, { amount: 2 }));
      assert.ok(w.ok);
      assert.equal(await store.refund(w.reservationId, null, 1500), 2);
      assert.equal((await store.ledger(id)).find((x) => x.id === w.reservationId)?.status, 'refunded');
    });

    test('charge: reserved and committed at once, all-or-nothing, thresholds recorded', async (t) => {
      const { store } = await backend.fresh(t);
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const { partial: _, ...req } = ask(id, 0, { amount: 7 });
      const c = await store.charge(req);
      assert.deepEqual(c.ok && [c.granted, c.used], [7, 7]);
      assert.deepEqual(await store.charge({ ...req, amount: 4, requestId: 'r1' }), { ok: false, used: 7 });
      await assert.rejects(store.charge({ ...req, amount: 0, requestId: 'r2' }), RangeError);
      assert.deepEqual(
        (await store.ledger(id)).map((r) => [r.kind, r.amount, r.status]),
        [['charge', 7, 'committed']],
      );
      assert.deepEqual(
        (await store.listOutbox(id)).map((m) => m.threshold),
        [50, 70],
      );
      assert.equal(await store.refundAbandoned(Number.MAX_SAFE_INTEGER, 9000), 0, 'nothing pending');
    });

    test('a charge and a reservation share one counter', async (t) => {
      const { store } = await backend.fresh(t);
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const r = await store.reserve(ask(id, 0, { limit: 3, amount: 2 }));
      assert.ok(r.ok);
      const charge = { accountId: id, periodStart: 0, limit: 3, amount: 2, requestId: 'c', endpoint: 'content' };
      assert.deepEqual(await store.charge({ ...charge, now: 1500 }), { ok: false, used: 2 });
      assert.equal(await store.refund(r.reservationId, null, 2000), 2);
      const again = await store.charge({ ...charge, now: 2500 });
      assert.deepEqual(again.ok && again.used, 2);
    });

    test('N concurrent reservations and charges never overspend', async (t) => {
      const { store, reopen } = await backend.fresh(t);
      const other = await reopen();
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const calls = Array.from({ length: 120 }, (_, i) => {
        const s = i % 2 ? store : other;
        if (i % 3 === 0) return s.charge({ ...ask(id, i, { limit: 60 }), partial: undefined } as never);
        return s.reserve(ask(id, i, { limit: 60, amount: i % 5 === 0 ? 2 : 1, partial: i % 7 === 0 }));
      });
      const results = await Promise.all(calls);
      const granted = results.reduce((s, r) => s + (r.ok ? r.granted : 0), 0);
      assert.equal(granted, 60);
      assert.ok(results.every((r) => r.used <= 60));
      assert.equal(await store.getUsed(id, 0), 60);
      const net = (await store.ledger(id)).reduce((s, r) => s + (r.kind === 'charge' ? r.amount : -r.amount), 0);
      assert.equal(net, 60);
    });

    test('concurrent commits crossing thresholds together record each notice exactly once', async (t) => {
      const { store, reopen } = await backend.fresh(t);
      const other = await reopen();
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const reserved = await Promise.all(
        Array.from({ length: 40 }, (_, i) => store.reserve(ask(id, i, { limit: 40 }))),
      );
      await Promise.all(reserved.map((r, i) => (i % 2 ? store : other).commit(r.ok ? r.reservationId : '', 5000)));
      const charges = Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? other : store).charge({
          ...ask(id, 100 + i, { limit: 40, periodStart: 1 }),
          partial: undefined,
        } as never),
      );
      await Promise.all(charges);
      const outbox = await store.listOutbox(id);
      assert.deepEqual(
        outbox.map((m) => [m.periodStart, m.threshold]),
        [
          [0, 50],
          [0, 70],
          [0, 90],
          [0, 100],
          [1, 50],
          [1, 70],
          [1, 90],
          [1, 100],
        ],
        'one notice per threshold and period, listed by period then threshold',
      );
    });

    test('period roll-over: a new period starts with nothing used and fresh thresholds', async (t) => {
      const { store } = await backend.fresh(t);
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const march = Date.UTC(2026, 2, 1);
      const april = Date.UTC(2026, 3, 1);
      const charge = (periodStart: number, amount: number, i: number) =>
        store.charge({
          accountId: id,
          periodStart,
          limit: 10,
          amount,
          requestId: `r${i}`,
          endpoint: 'content',
          now: i,
        });
      assert.equal((await charge(march, 10, 1)).ok, true);
      assert.deepEqual(await charge(march, 1, 2), { ok: false, used: 10 });
      const next = await charge(april, 6, 3);
      assert.deepEqual(next.ok && next.used, 6);
      assert.equal(await store.getUsed(id, march), 10);
      assert.equal(await store.getUsed(id, april), 6);
      assert.deepEqual(
        (await store.listOutbox(id)).map((m) => [m.periodStart, m.threshold]),
        [
          [march, 50],
          [march, 70],
          [march, 90],
          [march, 100],
          [april, 50],
        ],
      );
    });

    test('crash recovery: charges left pending by a dead process are refunded, live ones are not', async (t) => {
      const { store, reopen } = await backend.fresh(t);
      const { id } = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const old = await store.reserve(ask(id, 0, { amount: 3, now: 1000 }));
      const young = await store.reserve(ask(id, 1, { amount: 2, now: 5000 }));
      const done = await store.reserve(ask(id, 2, { amount: 1, now: 1000 }));
      assert.ok(old.ok && young.ok && done.ok);
      await store.commit(done.reservationId, 1200);
      await store.close();
      // Another process opens the same data after the first died.
      const after = await reopen();
      assert.equal(await after.refundAbandoned(4000, 6000), 3);
      assert.equal(await after.refundAbandoned(4000, 6001), 0, 'refunded once');
      assert.equal(await after.getUsed(id, 0), 3);
      assert.equal(await after.refundAbandoned(6000, 7000), 2);
      const ledger = await after.ledger(id);
      assert.deepEqual(
        ledger.map((r) => [r.kind, r.amount, r.status, r.refId, r.createdAt]),
        [
          ['charge', 3, 'refunded', null, 1000],
          ['charge', 1, 'committed', null, 1000],
          ['charge', 2, 'refunded', null, 5000],
          ['refund', 3, null, old.reservationId, 6000],
          ['refund', 2, null, young.reservationId, 7000],
        ],
      );
      assert.equal(await after.getUsed(id, 0), 1);
    });

    test('outbox leases: one owner at a time, taken over after expiry, sent once', async (t) => {
      const { store, reopen } = await backend.fresh(t);
      const other = await reopen();
      const a = await store.createAccount({ email: 'a@example.com', plan: 'pro', now: 0 });
      const b = await store.createAccount({ email: 'b@example.com', plan: 'pro', now: 0 });
      for (const [acc, now] of [
        [a, 100],
        [b, 200],
      ] as const)
        await store.charge({
          accountId: acc.id,
          periodStart: 0,
          limit: 10,
          amount: 5,
          requestId: 'r',
          endpoint: 'content',
          now,
        });
      const [one, two] = await Promise.all([
        store.claimDue('one', 1000, 500, 10),
        other.claimDue('two', 1000, 500, 10),
      ]);
      assert.equal(one.length + two.length, 2, 'each message claimed once');
      const owner = new Map([...one.map((m) => [m.id, 'one'] as const), ...two.map((m) => [m.id, 'two'] as const)]);
      const [msgA, msgB] = [...one, ...two].sort((x, y) => x.email.localeCompare(y.email));
      assert.deepEqual(msgA, {
        id: msgA.id,
        accountId: a.id,
        email: 'a@example.com',
        plan: 'pro',
        anchor: 0,
        periodStart: 0,
        threshold: 50,
        used: 5,
        limit: 10,
        attempts: 0,
      });
      assert.equal(msgB.accountId, b.id);
      assert.deepEqual(await store.claimDue('three', 1400, 500, 10), [], 'leases still held');
      await store.markFailed(msgA.id, owner.get(msgA.id)!, 3000, 'mail server said no');
      // B's lease expired: a new owner takes it over; A waits for its retry time.
      const takeover = await other.claimDue('four', 1600, 500, 10);
      assert.deepEqual(
        takeover.map((m) => m.id),
        [msgB.id],
      );
      assert.equal(await store.markSent(msgB.id, owner.get(msgB.id)!, 1700), false, 'the old owner lost its lease');
      assert.equal(await store.markSent(msgB.id, 'four', 1700), true);
      assert.equal(await store.markSent(msgB.id, 'four', 1800), false, 'a message is marked sent once');
      assert.deepEqual(await store.claimDue('three', 2000, 500, 10), [], 'nothing due before the retry time');
      const retried = await store.claimDue('three', 3000, 500, 10);
      assert.deepEqual(
        retried.map((m) => [m.id, m.attempts]),
        [[msgA.id, 1]],
      );
      assert.equal(await store.markSent(msgA.id, 'three', 3100), true);
      assert.deepEqual(await store.claimDue('five', 99_999, 500, 10), [], 'nothing left to send');
      assert.deepEqual(
        (await store.listOutbox(a.id)).map((m) => [m.threshold, m.attempts, m.sentAt]),
        [[50, 1, 3100]],
      );
      assert.deepEqual(
        (await store.listOutbox(b.id)).map((m) => [m.threshold, m.attempts, m.sentAt]),
        [[50, 0, 1700]],
      );
    });

    test('ping answers while open', async (t) => {
      const { store } = await backend.fresh(t);
      await store.ping();
    });
  });
}
