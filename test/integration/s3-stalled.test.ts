import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, build } from '../helper.ts';
import { startS3 } from '../scaled.ts';
import { stallingProxy } from '../stalling-proxy.ts';

// An S3 store that stops answering without closing anything (a partition, a hung proxy): each
// call must fail in bounded time as a 503, uncharged, and the store must serve again afterwards.

test('a stalled S3 store: returnType=url is a 503 within the call timeout, uncharged, and recovers', {
  skip: process.env.POSTSHOT_SKIP_SCALED ? 'POSTSHOT_SKIP_SCALED is set' : false,
}, async (t) => {
  const s3 = await startS3();
  const proxy = await stallingProxy(Number(new URL(s3.endpoint).port));
  const h = await build(t, { scaled: true, env: {} });
  const stalledApp = await build(t, {
    scaled: true,
    env: { ...h.scaled!.env, POSTSHOT_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` },
  });
  t.after(() => proxy.close());
  const { apiKey, accountId } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  const url = '/api/v1/screenshot/1900000000000000001?format=svg&returnType=url';

  proxy.stall();
  const started = Date.now();
  const [res, ready] = await Promise.all([
    stalledApp.app.inject({ url, headers }),
    stalledApp.app.inject({ url: '/readyz' }),
  ]);
  const took = Date.now() - started;
  assertProblem(res, 503, 'service_unavailable');
  assert.ok(took < 20_000, `answered in ${took} ms`);
  assert.equal(ready.statusCode, 503);
  assert.equal(ready.json().checks.images, 'down');
  const ledger = await h.c.accounts.ledger(accountId);
  assert.equal(ledger.filter((r) => r.kind === 'charge' && r.status !== 'refunded').length, 0, 'nothing charged');

  proxy.resume();
  const again = await stalledApp.app.inject({ url, headers });
  assert.equal(again.statusCode, 200, again.body);
  const image = await stalledApp.app.inject({ url: new URL(again.json().url).pathname });
  assert.equal(image.statusCode, 200);
});
