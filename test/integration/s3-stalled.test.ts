import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { assertProblem, build } from '../helper.ts';
import { startS3 } from '../scaled.ts';

// An S3 store that stops answering without closing anything (a partition, a hung proxy): each
// call must fail in bounded time as a 503, uncharged, and the store must serve again afterwards.

/** A pass-through that can stall: connections stay open and accepted, no byte passes. */
async function stallingProxy(port: number) {
  let stalled = false;
  const sockets = new Set<net.Socket>();
  const waiting: Array<() => void> = [];
  const server = net.createServer((client) => {
    client.on('error', () => {});
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const open = () => {
      const upstream = net.connect(port, '127.0.0.1');
      upstream.on('error', () => {});
      client.on('data', (d) => stalled || upstream.write(d));
      upstream.on('data', (d) => stalled || client.write(d));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    if (stalled) waiting.push(open);
    else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const open of waiting.splice(0)) open();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

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
