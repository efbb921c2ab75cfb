import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changePlan } from '../../src/auth/admin.ts';
import { buildListening } from '../account-pages.ts';
import { manualClock } from '../helper.ts';

// The free plan's 50 credits are one allowance for the life of an account: a plan change made
// by the operator (postshot accounts set-plan) must not hand out a second one.

const POSTS = ['1900000000000000001', '1900000000000000003', '1900000000000000004'];

test('free → pro → free gives back the free allowance as it was left, not a new one', async (t) => {
  const clock = manualClock('2026-03-10T09:00:00Z');
  const h = await buildListening(t, { clock });
  const { accountId, apiKey } = await h.account('free');
  const headers = { 'x-api-key': apiKey };
  const get = (path: string) => fetch(`${h.url}${path}`, { headers });
  for (const id of POSTS) assert.equal((await get(`/api/v1/content/${id}`)).status, 200);
  assert.equal((await (await get('/api/v1/usage')).json()).remaining, 47);

  clock.set('2026-03-12T15:00:00Z');
  assert.ok((await changePlan(h.c.accounts, accountId, 'pro', clock())).ok);
  const pro = await (await get('/api/v1/usage')).json();
  assert.deepEqual([pro.plan, pro.remaining], ['pro', 300]);
  assert.equal((await get(`/api/v1/content/${POSTS[0]}`)).status, 200);

  clock.set('2026-03-20T15:00:00Z');
  assert.ok((await changePlan(h.c.accounts, accountId, 'free', clock())).ok);
  const free = await (await get('/api/v1/usage')).json();
  assert.deepEqual([free.plan, free.used, free.remaining, free.periodEnd], ['free', 3, 47, null]);
  const res = await get(`/api/v1/content/${POSTS[1]}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-quota-remaining'), '46');
});

test('a free allowance used up stays used up after a paid month', async (t) => {
  const clock = manualClock('2026-03-10T09:00:00Z');
  const h = await buildListening(t, { clock, env: { POSTSHOT_RATE_LIMITS: 'free=1000,pro=1000' } });
  const { accountId, apiKey } = await h.account('free');
  const headers = { 'x-api-key': apiKey };
  const get = (path: string) => fetch(`${h.url}${path}`, { headers });
  for (let i = 0; i < 50; i++) assert.equal((await get(`/api/v1/content/${POSTS[i % 3]}`)).status, 200);
  const spent = await get(`/api/v1/content/${POSTS[0]}`);
  assert.deepEqual([spent.status, (await spent.json()).code], [403, 'quota_exceeded']);

  clock.set('2026-04-02T12:00:00Z');
  assert.ok((await changePlan(h.c.accounts, accountId, 'pro', clock())).ok);
  clock.set('2026-05-01T12:00:00Z');
  assert.ok((await changePlan(h.c.accounts, accountId, 'free', clock())).ok);
  const res = await get(`/api/v1/content/${POSTS[0]}`);
  assert.deepEqual([res.status, res.headers.get('x-quota-remaining')], [403, '0']);
  assert.equal((await res.json()).code, 'quota_exceeded');
  assert.equal((await (await get('/api/v1/usage')).json()).remaining, 0);
});
