import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  abandonedBefore,
  assertChargeable,
  grantCredits,
  noticesFor,
  settleCharge,
  splitRefund,
  takeCeiling,
} from '../../src/quota/ledger.ts';
import { CachedKeyFinder, type FoundKey } from '../../src/storage/accounts/key-cache.ts';

test('grant: all or nothing, or what is left with partial', () => {
  assert.equal(grantCredits(0, 10, 4, false), 4);
  assert.equal(grantCredits(6, 10, 4, false), 4);
  assert.equal(grantCredits(7, 10, 4, false), 0);
  assert.equal(grantCredits(7, 10, 4, true), 3);
  assert.equal(grantCredits(10, 10, 4, true), 0);
  assert.equal(grantCredits(12, 10, 1, true), 0, 'over the limit (a plan downgrade) grants nothing');
  assert.equal(grantCredits(0, 10, 0, false), 0);
  // The one-statement take agrees with the grant wherever it applies (a positive amount).
  for (let used = 0; used <= 12; used++)
    for (let amount = 1; amount <= 12; amount++)
      assert.equal(used <= takeCeiling(10, amount), grantCredits(used, 10, amount, false) === amount);
});

test('a charge takes a positive amount', () => {
  assert.throws(() => assertChargeable(0), RangeError);
  assert.throws(() => assertChargeable(Number.NaN), RangeError);
  assertChargeable(1);
});

test('settle: commits what was not refunded, once', () => {
  assert.deepEqual(settleCharge({ amount: 5, refunded: 2, status: 'pending' }), { status: 'committed', committed: 3 });
  assert.deepEqual(settleCharge({ amount: 5, refunded: 5, status: 'pending' }), { status: 'refunded', committed: 0 });
  assert.equal(settleCharge({ amount: 5, refunded: 0, status: 'committed' }), null);
  assert.equal(settleCharge({ amount: 5, refunded: 5, status: 'refunded' }), null);
});

test('refund split: never more than is held, only while pending', () => {
  const pending = { amount: 5, refunded: 1, status: 'pending' as const };
  assert.deepEqual(splitRefund(pending, null), { give: 4, refunded: 5, status: 'refunded' });
  assert.deepEqual(splitRefund(pending, 2), { give: 2, refunded: 3, status: 'pending' });
  assert.deepEqual(splitRefund(pending, 9), { give: 4, refunded: 5, status: 'refunded' });
  assert.equal(splitRefund(pending, 0), null);
  assert.equal(splitRefund({ ...pending, status: 'committed' }, null), null);
  assert.equal(splitRefund({ amount: 5, refunded: 5, status: 'pending' }, null), null);
});

test('abandoned: the timeout, or everything before the lock for a sole server', () => {
  const now = 1_000_000;
  assert.equal(abandonedBefore(now, 120_000, { lockedAt: null, storeShared: false }), now - 120_000);
  assert.equal(abandonedBefore(now, 120_000, { lockedAt: now - 5, storeShared: true }), now - 120_000);
  assert.equal(abandonedBefore(now, 120_000, { lockedAt: now - 5, storeShared: false }), now - 5);
  // Long after start the timeout applies again.
  assert.equal(abandonedBefore(now, 120_000, { lockedAt: now - 500_000, storeShared: false }), now - 120_000);
});

test('notices: each threshold once, on the way up', () => {
  assert.deepEqual(noticesFor(0, 50, 50), [50, 70, 90, 100]);
  assert.deepEqual(noticesFor(209, 210, 300), [70]);
  assert.deepEqual(noticesFor(26, 25, 50), []);
});

test('found-key cache: kept until the change token moves; unknown keys never kept', async () => {
  let token = 0;
  let lookups = 0;
  const rows = new Map<string, FoundKey>([
    [
      'h1',
      {
        key: {
          id: 'key_1',
          accountId: 'acc_1',
          prefix: 'psk_a',
          hash: 'h1',
          createdAt: 1,
          revokedAt: null,
          name: null,
          lastUsedAt: null,
        },
        account: { id: 'acc_1', email: 'a@example.com', plan: 'free', anchor: 1, createdAt: 1 },
      },
    ],
  ]);
  const cache = new CachedKeyFinder(
    {
      async findKeyByHash(hash) {
        lookups++;
        return rows.get(hash) ?? null;
      },
    },
    () => token,
  );
  const first = await cache.findKeyByHash('h1');
  assert.equal(await cache.findKeyByHash('h1'), first);
  assert.equal(lookups, 1);
  assert.ok(first && Object.isFrozen(first) && Object.isFrozen(first.account));
  assert.equal(await cache.findKeyByHash('nope'), null);
  assert.equal(await cache.findKeyByHash('nope'), null);
  assert.equal(lookups, 3, 'unknown keys are looked up every time');
  token++;
  await cache.findKeyByHash('h1');
  assert.equal(lookups, 4, 'a new token empties the cache');
});
