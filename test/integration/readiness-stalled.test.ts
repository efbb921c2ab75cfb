import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildListening } from '../account-pages.ts';
import { build } from '../helper.ts';
import { PG_URL, REDIS_URL } from '../scaled.ts';
import { stallingProxy } from '../stalling-proxy.ts';

// A load balancer's health check gives up after a few seconds (5 s is a common default) and
// then counts the probe as failed without learning why. With PostgreSQL and Redis stalled,
// /readyz must still answer that probe, naming what is down, and turn ready once they answer.
const PROBE_TIMEOUT_MS = 5000;

test('/readyz answers a probe in time with PostgreSQL and Redis stalled, then recovers', {
  skip: process.env.POSTSHOT_SKIP_SCALED ? 'POSTSHOT_SKIP_SCALED is set' : false,
}, async (t) => {
  const pgProxy = await stallingProxy(Number(new URL(PG_URL).port || 5432));
  const redisProxy = await stallingProxy(Number(new URL(REDIS_URL).port || 6379));
  t.after(() => Promise.all([pgProxy.close(), redisProxy.close()]));
  const h = await build(t, { scaled: true, env: {} });
  const db = new URL(h.scaled!.env.POSTSHOT_DATABASE_URL);
  db.host = `127.0.0.1:${pgProxy.port}`;
  const env = {
    ...h.scaled!.env,
    POSTSHOT_DATABASE_URL: db.toString(),
    POSTSHOT_REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
  };
  const app = await buildListening(t, { scaled: true, env });
  const probe = (path: string) => fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  assert.equal((await probe('/readyz')).status, 200);

  pgProxy.stall();
  redisProxy.stall();
  for (let i = 0; i < 3; i++) {
    const ready = await probe('/readyz');
    assert.equal(ready.status, 503);
    const body = await ready.json();
    assert.equal(body.code, 'service_unavailable');
    assert.deepEqual(body.checks, { database: 'down', images: 'ok', redis: 'down' });
    assert.match(body.detail, /database unreachable/);
    assert.equal((await probe('/healthz')).status, 200);
  }

  pgProxy.resume();
  redisProxy.resume();
  let status = 0;
  for (let i = 0; i < 40 && status !== 200; i++) {
    status = (await probe('/readyz')).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(status, 200, 'ready again once both answer new connections');
});
