import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { build } from '../helper.ts';

const SLOW_POST = '1900000000000000014';

test('shutdown waits for metered work whose client hung up, and settles its charge', async (t) => {
  const h = await build(t, { scaled: false });
  const { apiKey, accountId } = await h.account('pro');
  h.upstream.setFault(SLOW_POST, { delayMs: 700 });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;

  // The client sends its request and hangs up while the upstream is still answering.
  const req = http.get({
    host: '127.0.0.1',
    port,
    path: `/api/v1/screenshot/${SLOW_POST}?format=png`,
    headers: { 'x-api-key': apiKey },
  });
  req.on('error', () => {});
  await new Promise((r) => setTimeout(r, 200));
  req.destroy();
  assert.equal(h.c.inFlight.size, 1, 'the request is still being worked on');

  const started = Date.now();
  await h.app.close();
  await h.c.close();
  assert.ok(Date.now() - started >= 300, 'close waited for the work');
  assert.equal(h.c.inFlight.size, 0);

  // The store is closed: read what was written through a fresh one.
  const { openAccountStore } = await import('../../src/container.ts');
  const store = await openAccountStore(h.c.config);
  t.after(() => store.close());
  // The client went before its answer: the charge is settled as refunded, not left pending.
  const ledger = await store.ledger(accountId);
  assert.deepEqual(
    ledger.map((e) => [e.kind, e.status]),
    [
      ['charge', 'refunded'],
      ['refund', null],
    ],
  );
});
