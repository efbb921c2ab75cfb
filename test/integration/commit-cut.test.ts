import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { build } from '../helper.ts';
import { PG_URL } from '../scaled.ts';

// A connection to PostgreSQL that dies after COMMIT was sent but before its reply came back: the
// server has committed, the client cannot know. A charge settled that way must not end in a 503,
// or the customer pays for an answer never sent.

/**
 * A pass-through to PostgreSQL that, once armed, lets the COMMIT of the next transaction that
 * sends a marker statement reach the server, drops the server's reply and cuts the connection.
 */
async function commitCuttingProxy(target: URL) {
  let armed: string | null = null;
  let cuts = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    let settling = false;
    let dropReplies = false;
    for (const s of [client, upstream]) s.on('error', () => {});
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('data', (chunk) => {
      if (!dropReplies) client.write(chunk);
    });
    client.on('data', (chunk) => {
      if (armed && chunk.includes(armed)) settling = true;
      if (armed && settling && chunk.includes('COMMIT\0')) {
        armed = null;
        dropReplies = true;
        cuts++;
        upstream.write(chunk);
        setTimeout(() => client.destroy(), 200);
        return;
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Cuts the COMMIT of the next transaction that sends `marker`. */
    arm: (marker: string) => {
      armed = marker;
    },
    get cuts() {
      return cuts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a charge whose COMMIT reached PostgreSQL before the connection died is answered, not 503', {
  skip: process.env.POSTSHOT_SKIP_SCALED ? 'POSTSHOT_SKIP_SCALED is set' : false,
}, async (t) => {
  const proxy = await commitCuttingProxy(new URL(PG_URL));
  t.after(() => proxy.close());
  const h = await build(t, { scaled: true, env: {} });
  const url = new URL(h.scaled!.env.POSTSHOT_DATABASE_URL);
  url.host = `127.0.0.1:${proxy.port}`;
  // A second app over the same schema, its database connections through the proxy.
  const cut = await build(t, { scaled: true, env: { ...h.scaled!.env, POSTSHOT_DATABASE_URL: url.toString() } });
  const { apiKey, accountId } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  const warm = await cut.app.inject({ url: '/api/v1/usage', headers });
  assert.equal(warm.statusCode, 200);

  // A fetched post: reserved, then settled by `commit` (UPDATE ledger SET status).
  proxy.arm('UPDATE ledger SET status');
  const res = await cut.app.inject({ url: '/api/v1/content/1900000000000000001', headers });
  assert.equal(proxy.cuts, 1, 'the COMMIT of the settle was cut');
  let charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => r.status),
    ['committed'],
    'the server committed the charge',
  );
  assert.equal(res.statusCode, 200, `a committed charge is answered: ${res.body.slice(0, 200)}`);
  assert.match(res.body, /\*\*@/);

  // The same post again, now cached: reserved and committed in one write (`charge`).
  proxy.arm('used = used + $1, committed = committed + $1');
  const again = await cut.app.inject({ url: '/api/v1/content/1900000000000000001', headers });
  assert.equal(proxy.cuts, 2, 'the COMMIT of the one-write charge was cut');
  charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => r.status),
    ['committed', 'committed'],
  );
  assert.equal(again.statusCode, 200, `a committed charge is answered: ${again.body.slice(0, 200)}`);
  assert.equal(again.body, res.body);
});
