import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestContext, test } from 'node:test';
import { build } from '../helper.ts';
import { holdingProxy } from '../holding-proxy.ts';
import { REDIS_URL } from '../scaled.ts';

// A client may give up while its request still waits on authentication (a slow Redis or
// PostgreSQL, a queue under load). What follows must not be charged: its answer goes to a
// connection that is already closed. Posts already cached are charged at once, so are covered too.
const skip = process.env.POSTSHOT_SKIP_SCALED ? 'POSTSHOT_SKIP_SCALED is set' : false;

const until = async (what: () => boolean | Promise<boolean>) => {
  while (!(await what())) await new Promise((r) => setTimeout(r, 10));
};

/** Sends a request for `post` whose rate-limit check (Redis) is held, hangs up, then lets it go on. */
async function hangUpDuringAuth(t: TestContext, post: string, warm: boolean) {
  const proxy = await holdingProxy(Number(new URL(REDIS_URL).port || 6379));
  t.after(() => proxy.close());
  const base = await build(t, { scaled: true, env: {} });
  const h = await build(t, {
    scaled: true,
    env: { ...base.scaled!.env, POSTSHOT_REDIS_URL: `redis://127.0.0.1:${proxy.port}` },
  });
  const { apiKey, accountId } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  if (warm) {
    const other = await h.account('pro');
    const cached = await h.app.inject({ url: `/api/v1/content/${post}`, headers: { 'x-api-key': other.apiKey } });
    assert.equal(cached.statusCode, 200);
  }
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;

  proxy.hold();
  const req = http.get({ host: '127.0.0.1', port, agent: false, path: `/api/v1/content/${post}`, headers });
  req.on('error', () => {});
  await until(() => proxy.heldBytes > 0);
  req.destroy();
  const connections = () => new Promise<number>((r) => h.app.server.getConnections((_e, n) => r(n)));
  await until(async () => (await connections()) === 0);
  proxy.release();

  // The next request's rate-limit check is answered after the held one: once it is served and
  // nothing is in flight, the request that lost its client has ended too.
  const next = await h.app.inject({ url: '/api/v1/content/1900000000000000001', headers });
  assert.equal(next.statusCode, 200);
  await until(() => h.c.inFlight.size === 0);
  const charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge' && r.status !== 'refunded');
  assert.deepEqual(
    charges.map((r) => r.requestId),
    [next.headers['x-request-id']],
    'only the answer that was received is charged',
  );
}

test('a client that hung up while its key was checked is not charged (post fetched)', { skip }, async (t) => {
  await hangUpDuringAuth(t, '1900000000000000004', false);
});

test('a client that hung up while its key was checked is not charged (post cached)', { skip }, async (t) => {
  await hangUpDuringAuth(t, '1900000000000000003', true);
});
