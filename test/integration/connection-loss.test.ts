import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { openAccountStore } from '../../src/container.ts';
import { createKey, type Instance, twoInstances } from '../instances.ts';
import { PG_URL, REDIS_URL } from '../scaled.ts';

// Two instances under load while their PostgreSQL and Redis connections are cut again and again
// (pg_terminate_backend, CLIENT KILL), idle or mid-transaction: neither process dies, affected
// requests get a 503 problem+json, and the ledger charges the responses delivered, no others.

const IDS = ['1900000000000000001', '1900000000000000002', '1900000000000000004', '1900000000000000014'];

async function isReady(i: Instance): Promise<boolean> {
  return fetch(`${i.url}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
}

test('PostgreSQL and Redis connections cut repeatedly under load on both instances', async (t) => {
  // A post cache of 1 s mixes reserve-then-commit (a fetch) with one-write charges (cached posts).
  const { instances, env, backends } = await twoInstances(t, {
    POSTSHOT_RATE_LIMITS: 'business=1000000',
    POSTSHOT_POST_CACHE_TTL_SECONDS: '1',
  });
  const { apiKey, accountId } = await createKey(env, 'business');
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const redis = new Redis(REDIS_URL);
  t.after(async () => {
    await admin.end();
    redis.disconnect();
  });
  const appName = `postshot/${backends.schema}`;
  const redisName = `postshot/${backends.prefix}`.replace(/[^\w:./-]/g, '_');

  const statuses = new Map<number, number>();
  const unexpected: string[] = [];
  let delivered = 0;
  let stop = false;
  const client = async (n: number) => {
    for (let i = 0; !stop && i < 10_000; i++) {
      const target = instances[(n + i) % 2];
      const id = IDS[(n * 7 + i) % IDS.length];
      try {
        const r = await fetch(`${target.url}/api/v1/content/${id}`, { headers: { 'x-api-key': apiKey } });
        const body = await r.text();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200) delivered++;
        else if (r.status !== 503 || !r.headers.get('content-type')?.startsWith('application/problem+json'))
          unexpected.push(`${r.status} ${body.slice(0, 200)}`);
        else assert.equal(JSON.parse(body).code, 'service_unavailable');
      } catch (err) {
        await new Promise((r) => setTimeout(r, 300));
        unexpected.push(`request failed: ${(err as Error).message}; instance stderr: ${target.stderr().slice(-3000)}`);
        return;
      }
    }
  };
  let pgKilled = 0;
  let redisKilled = 0;
  const cutter = async () => {
    for (let round = 0; round < 12; round++) {
      await new Promise((r) => setTimeout(r, 250));
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1',
        [appName],
      );
      pgKilled += killed.rowCount ?? 0;
      if (round % 3 === 0) {
        const list = String(await redis.call('CLIENT', 'LIST')).split('\n');
        for (const line of list.filter((l) => l.includes(` name=${redisName} `))) {
          const id = /\bid=(\d+)/.exec(line)?.[1];
          if (id) redisKilled += Number(await redis.call('CLIENT', 'KILL', 'ID', id));
        }
      }
    }
    stop = true;
  };
  await Promise.all([cutter(), ...Array.from({ length: 12 }, (_, n) => client(n))]);

  assert.deepEqual(unexpected, [], 'only 200s and 503 problem+json');
  assert.ok(pgKilled >= 12, `PostgreSQL connections cut: ${pgKilled}`);
  assert.ok(redisKilled >= 2, `Redis connections cut: ${redisKilled}`);
  assert.ok((statuses.get(200) ?? 0) > 0, `served between cuts: ${JSON.stringify([...statuses])}`);
  assert.ok((statuses.get(503) ?? 0) > 0, 'some requests were cut');
  for (const i of instances) assert.equal(i.child.exitCode, null, `instance died: ${i.stderr()}`);

  // Both recover by themselves.
  for (const i of instances) {
    let ready = false;
    for (let k = 0; k < 50 && !ready; k++) {
      ready = await isReady(i);
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(ready, 'ready again');
    const r = await fetch(`${i.url}/api/v1/content/${IDS[0]}`, { headers: { 'x-api-key': apiKey } });
    await r.text();
    assert.equal(r.status, 200);
    delivered++;
  }

  // Every delivered response is charged once; nothing else stays charged. A request cut between
  // its reservation and its refund leaves a pending charge, which the abandoned sweep refunds.
  const store = await openAccountStore(loadConfig(env));
  try {
    const ledger = await store.ledger(accountId);
    const committed = ledger.filter((r) => r.kind === 'charge' && r.status === 'committed');
    // A charge whose COMMIT was cut in flight may or may not stand; its answer goes out either way
    // (logged), so it may be free, but nothing is ever charged without its answer.
    const unsure = instances.reduce((n, i) => n + (i.log().match(/charge outcome unknown/g) ?? []).length, 0);
    const charged = committed.reduce((s, r) => s + r.amount, 0);
    t.diagnostic(`${delivered} delivered, ${charged} charged, ${unsure} with the charge's outcome unknown`);
    assert.equal(committed.length, charged, 'one credit per answer');
    assert.ok(charged <= delivered, `no charge without its answer: ${charged} charged, ${delivered} delivered`);
    assert.ok(delivered - charged <= unsure, `an answer uncharged only when its COMMIT was cut (${unsure})`);
    const pending = ledger.filter((r) => r.status === 'pending').reduce((s, r) => s + r.amount, 0);
    await store.refundAbandoned(Number.MAX_SAFE_INTEGER, Date.now());
    const net = (await store.ledger(accountId)).reduce((s, r) => s + (r.kind === 'charge' ? r.amount : -r.amount), 0);
    assert.equal(net, charged, `ledger net after refunding ${pending} abandoned credits`);
  } finally {
    await store.close();
  }
});
