import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openAccountStore } from '../../src/container.ts';
import { loadConfig } from '../../src/config.ts';
import { build } from '../helper.ts';
import { createKey, twoInstances } from '../instances.ts';
import { PG_URL, REDIS_URL, scaledBackends, type ScaledBackends } from '../scaled.ts';
import { startSmtp } from '../smtp.ts';
import { startTcpProxy } from '../tcp-proxy.ts';

// Two real service processes on one PostgreSQL + Redis (+ S3): one truth for quota, rate limits
// and upstream single-flight.

async function ledgerSum(_backends: ScaledBackends, env: Record<string, string>, accountId: string): Promise<number> {
  const store = await openAccountStore(loadConfig(env));
  try {
    return (await store.ledger(accountId)).reduce((s, r) => s + (r.kind === 'charge' ? r.amount : -r.amount), 0);
  } finally {
    await store.close();
  }
}

test('two instances: 300 concurrent metered requests against 50 credits → exactly 50 succeed', async (t) => {
  const { instances, env, backends } = await twoInstances(t, { POSTSHOT_RATE_LIMITS: 'free=100000' });
  const { apiKey, accountId } = await createKey(env, 'free');
  const responses = await Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      fetch(`${instances[i % 2].url}/api/v1/content/1900000000000000001`, { headers: { 'x-api-key': apiKey } }).then(
        async (r) => {
          await r.arrayBuffer();
          return r.status;
        },
      ),
    ),
  );
  // Counted by status, so a failure shows every status that came back, not one count.
  const byStatus: Record<number, number> = {};
  for (const s of responses) byStatus[s] = (byStatus[s] ?? 0) + 1;
  assert.deepEqual(byStatus, { 200: 50, 403: 250 });
  assert.equal(await ledgerSum(backends, env, accountId), 50);
  const usage = await (await fetch(`${instances[1].url}/api/v1/usage`, { headers: { 'x-api-key': apiKey } })).json();
  assert.equal(usage.remaining, 0);
});

test('two instances share one rate limit per key', async (t) => {
  const { instances, env } = await twoInstances(t, { POSTSHOT_RATE_LIMITS: 'pro=10' });
  const { apiKey } = await createKey(env, 'pro');
  const statuses = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fetch(`${instances[i % 2].url}/api/v1/usage`, { headers: { 'x-api-key': apiKey } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    ),
  );
  assert.equal(statuses.filter((s) => s === 200).length, 10);
  assert.equal(statuses.filter((s) => s === 429).length, 10);
});

test('two instances: 40 concurrent requests for one uncached post make one upstream request', async (t) => {
  const { instances, env, upstream } = await twoInstances(t, { POSTSHOT_RATE_LIMITS: 'pro=100000' });
  const { apiKey } = await createKey(env, 'pro');
  const id = '1900000000000000013';
  upstream.setFault(id, { delayMs: 300 }, 'fxtwitter');
  const statuses = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      fetch(`${instances[i % 2].url}/api/v1/content/${id}`, { headers: { 'x-api-key': apiKey } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    ),
  );
  assert.ok(
    statuses.every((s) => s === 200),
    String(statuses),
  );
  assert.equal(upstream.count('fxtwitter', id), 1);
});

test('PostgreSQL or Redis cut mid-run: clear 503s, no charge lost or doubled, recovery on return', async (t) => {
  const pgUrl = new URL(PG_URL);
  const redisUrl = new URL(REDIS_URL);
  const pgProxy = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
  const redisProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
  t.after(async () => {
    await pgProxy.close();
    await redisProxy.close();
  });
  const backends = await scaledBackends();
  const throughPg = `postgres://${pgUrl.username}@127.0.0.1:${pgProxy.port}${pgUrl.pathname}?schema=${backends.schema}`;
  const h = await build(t, {
    scaled: false,
    env: {
      ...backends.env,
      POSTSHOT_DATABASE_URL: throughPg,
      POSTSHOT_REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      POSTSHOT_RATE_LIMITS: 'pro=100000',
    },
  });
  t.after(() => backends.cleanup());
  const { apiKey, accountId } = await h.account('pro');
  const get = () => h.app.inject({ url: '/api/v1/content/1900000000000000001', headers: { 'x-api-key': apiKey } });
  let ok = 0;
  const record = (status: number) => {
    if (status === 200) ok++;
  };
  for (let i = 0; i < 5; i++) record((await get()).statusCode);

  for (const proxy of [redisProxy, pgProxy]) {
    proxy.cut();
    const during = await Promise.all(Array.from({ length: 10 }, get));
    for (const r of during) {
      record(r.statusCode);
      assert.equal(r.statusCode, 503, r.body);
      assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(r.json().code, 'service_unavailable');
    }
    const ready = await h.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    proxy.restore();
    // The clients reconnect by themselves.
    let back = 0;
    for (let i = 0; i < 50 && back === 0; i++) {
      const r = await get();
      record(r.statusCode);
      if (r.statusCode === 200) back++;
      else await new Promise((res) => setTimeout(res, 200));
    }
    assert.equal(back, 1, 'the service recovers when the backend returns');
  }
  for (let i = 0; i < 5; i++) record((await get()).statusCode);
  const account = (await h.c.accounts.getAccount(accountId))!;
  const usage = await h.c.quota.usage(account);
  assert.equal(usage.used, ok, 'every 200 was charged once, every failure refunded or never charged');
  const ledger = await h.c.accounts.ledger(accountId);
  assert.equal(
    ledger.reduce((s, r) => s + (r.kind === 'charge' ? r.amount : -r.amount), 0),
    ok,
  );
});

test('two instances draining one outbox send each quota e-mail once', async (t) => {
  const smtp = await startSmtp();
  t.after(() => smtp.close());
  const backends = await scaledBackends();
  t.after(() => backends.cleanup());
  const env = { ...backends.env, POSTSHOT_SMTP_URL: smtp.url, POSTSHOT_RATE_LIMITS: 'free=100000' };
  const a = await build(t, { scaled: false, env });
  const b = await build(t, { scaled: false, env });
  const { apiKey } = await a.account('free');
  await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      (i % 2 ? a : b).app.inject({ url: '/api/v1/content/1900000000000000001', headers: { 'x-api-key': apiKey } }),
    ),
  );
  for (let round = 0; round < 3; round++)
    await Promise.all([a.c.outbox.drain(), b.c.outbox.drain(), a.c.outbox.drain(), b.c.outbox.drain()]);
  assert.deepEqual(smtp.received.map((m) => m.subject).sort(), [
    'postshot: 100% of your Free quota used',
    'postshot: 50% of your Free quota used',
    'postshot: 70% of your Free quota used',
    'postshot: 90% of your Free quota used',
  ]);
});
