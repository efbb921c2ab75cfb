import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, manualClock } from '../helper.ts';

// Last use is written per flush, not per request: 30 requests, one write, the latest time.
test('key last-used times are coalesced: one write per flush, never per request', async (t) => {
  const clock = manualClock('2026-11-20T10:00:00Z');
  const h = await build(t, { clock, env: { POSTSHOT_RATE_LIMITS: 'free=100000' } });
  const { apiKey, accountId } = await h.account('free');
  const [key] = await h.c.accounts.listKeys(accountId);
  const store = h.c.accounts;
  const touches: number[] = [];
  const touchKeys = store.touchKeys.bind(store);
  store.touchKeys = async (uses) => {
    touches.push(uses.size);
    return touchKeys(uses);
  };

  for (let i = 0; i < 30; i++) {
    clock.advance(1000);
    const res = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': apiKey } });
    assert.equal(res.statusCode, 200);
  }
  assert.deepEqual(touches, [], 'no write on the request path');
  assert.equal((await store.listKeys(accountId))[0].lastUsedAt, null);
  assert.equal((await h.c.account.keys.list(accountId))[0].lastUsedAt, clock(), 'the pages see the pending use');

  await h.c.account.lastUsed.flush();
  assert.deepEqual(touches, [1]);
  assert.equal((await store.listKeys(accountId))[0].lastUsedAt, clock());
  await h.c.account.lastUsed.flush();
  assert.deepEqual(touches, [1], 'nothing to write, no write');
  assert.equal(key.lastUsedAt, null);
});
