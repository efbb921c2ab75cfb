import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, build } from '../helper.ts';
import { PG_URL } from '../scaled.ts';
import { stallingProxy } from '../stalling-proxy.ts';

// A PostgreSQL that stops answering without closing anything (a partition, a hung proxy): a
// request must end as a 503 in bounded time, not wait for as long as the stall lasts, and the
// service must use the database again once it answers.
test('a stalled PostgreSQL: requests are 503 within the statement timeout, and it recovers', {
  skip: process.env.POSTSHOT_SKIP_SCALED ? 'POSTSHOT_SKIP_SCALED is set' : false,
}, async (t) => {
  const proxy = await stallingProxy(Number(new URL(PG_URL).port || 5432));
  t.after(() => proxy.close());
  const h = await build(t, { scaled: true, env: {} });
  const url = new URL(h.scaled!.env.POSTSHOT_DATABASE_URL);
  url.host = `127.0.0.1:${proxy.port}`;
  const stalled = await build(t, { scaled: true, env: { ...h.scaled!.env, POSTSHOT_DATABASE_URL: url.toString() } });
  const { apiKey, accountId } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  assert.equal((await stalled.app.inject({ url: '/api/v1/content/1900000000000000001', headers })).statusCode, 200);

  proxy.stall();
  const started = Date.now();
  const res = await stalled.app.inject({ url: '/api/v1/content/1900000000000000002', headers });
  const took = Date.now() - started;
  assertProblem(res, 503, 'service_unavailable');
  assert.ok(took < 25_000, `answered in ${took} ms`);

  proxy.resume();
  const again = await stalled.app.inject({ url: '/api/v1/content/1900000000000000002', headers });
  assert.equal(again.statusCode, 200, again.body);
  const charged = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge' && r.status === 'committed');
  assert.equal(charged.length, 2, 'the two answers delivered are charged, the 503 is not');
});
