import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, build } from '../helper.ts';
import { REDIS_URL } from '../scaled.ts';
import { stallingProxy } from '../stalling-proxy.ts';

// A Redis connection that stops answering without closing (a failover that black-holes the old
// flow, a dropped NAT entry) while Redis itself answers new connections: requests get 503 while
// it lasts, then the client must replace the dead connection instead of waiting on it for ever.
test('a Redis connection that went silent is replaced: 503 meanwhile, then served again', {
  skip: process.env.POSTSHOT_SKIP_SCALED ? 'POSTSHOT_SKIP_SCALED is set' : false,
}, async (t) => {
  const proxy = await stallingProxy(Number(new URL(REDIS_URL).port || 6379));
  t.after(() => proxy.close());
  const h = await build(t, { scaled: true, env: {} });
  const stalled = await build(t, {
    scaled: true,
    env: { ...h.scaled!.env, POSTSHOT_REDIS_URL: `redis://127.0.0.1:${proxy.port}` },
  });
  const { apiKey } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  assert.equal((await stalled.app.inject({ url: '/api/v1/usage', headers })).statusCode, 200);

  // The bytes sent meanwhile are lost: the connection open now never answers again.
  proxy.stall();
  assertProblem(await stalled.app.inject({ url: '/api/v1/usage', headers }), 503, 'service_unavailable');
  proxy.resume();

  let status = 0;
  for (let i = 0; i < 30 && status !== 200; i++) {
    status = (await stalled.app.inject({ url: '/api/v1/usage', headers })).statusCode;
    if (status !== 200) await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(status, 200, 'served again once Redis answers a new connection');
});
