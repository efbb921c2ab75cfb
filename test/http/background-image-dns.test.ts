import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createGuardedLookup } from '../../src/net/guarded-lookup.ts';
import { assertProblem, build } from '../helper.ts';

const PHOTOS = '1900000000000000008';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };

/** A nameserver that reads every query and answers none; `names` lists the names asked for. */
async function silentNameserver(t: Parameters<typeof build>[0]) {
  const socket = dgram.createSocket('udp4');
  const names: string[] = [];
  socket.on('message', (msg) => names.push(queryName(msg)));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => socket.close(() => r())));
  return { server: `127.0.0.1:${socket.address().port}`, names };
}

/** The QNAME of a DNS query: length-prefixed labels after the 12-byte header. */
function queryName(msg: Buffer): string {
  const labels: string[] = [];
  for (let i = 12; i < msg.length && msg[i] !== 0; i += msg[i] + 1)
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('latin1'));
  return labels.join('.');
}

/** Milliseconds a task on libuv's thread pool takes to be picked up and done. */
function timeThreadPool(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) =>
    crypto.pbkdf2('x', 'y', 1, 32, 'sha256', (err) => (err ? reject(err) : resolve(performance.now() - started))),
  );
}

// dns.lookup held a libuv thread per name for as long as the nameserver stayed silent: eight
// such backgroundImages would have left file I/O, crypto, zlib and sharp without a thread.
test('a backgroundImage whose nameserver never answers is refused within seconds, free, blocking nothing', async (t) => {
  const dns = await silentNameserver(t);
  // The fetch's own timeout is far off: the resolver's bound is what answers.
  const h = await build(t, {
    env: { ...NO_RATE, POSTSHOT_MEDIA_URL: '', POSTSHOT_UPSTREAM_TIMEOUT_MS: '60000' },
    nameservers: [dns.server],
  });
  const { apiKey, accountId } = await h.account('pro');
  // A render process is started cold; warmed first so the plain request below times the service, not the start.
  const shot = (q: string) =>
    h.app.inject({ url: `/api/v1/screenshot/${PHOTOS}?format=png&${q}`, headers: { 'x-api-key': apiKey } });
  assert.equal((await shot('scale=1')).statusCode, 200);
  const started = performance.now();
  const hung = Array.from({ length: 8 }, (_, i) =>
    h.app
      .inject({
        url: `/api/v1/screenshot/${PHOTOS}?format=png&backgroundImage=${encodeURIComponent(`https://bg-${i}.example.com/a.png`)}`,
        headers: { 'x-api-key': apiKey },
      })
      .then((res) => ({ res, ms: performance.now() - started })),
  );
  await new Promise((r) => setTimeout(r, 300));
  // While all eight wait on the nameserver: the thread pool is free and a plain request answers.
  assert.ok((await timeThreadPool()) < 500, 'thread pool free');
  const plain = await shot('scale=1&width=400');
  assert.equal(plain.statusCode, 200, plain.body.slice(0, 300));
  const plainMs = performance.now() - started;
  for (const { res, ms } of await Promise.all(hung)) {
    assertProblem(res, 400, 'invalid_parameter');
    assert.match(res.json().detail, /^Parameter "backgroundImage" could not be fetched\.$/);
    assert.ok(ms < 6_000, `refused after ${Math.round(ms)} ms`);
    assert.ok(ms > plainMs, `the plain request answered (${Math.round(plainMs)} ms) while the names were unresolved`);
  }
  // The names went to the configured nameserver (A and AAAA each), not the system resolver.
  for (let i = 0; i < 8; i++) assert.ok(dns.names.includes(`bg-${i}.example.com`), `bg-${i} asked`);
  // Refused before any credit was reserved: two charges only, the plain screenshots'.
  assert.equal((await h.c.accounts.ledger(accountId)).length, 2);
});

test('names pinned in the hosts file resolve from it and keep the public-address check', async (t) => {
  const dns = await silentNameserver(t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hosts-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const hostsFile = path.join(dir, 'hosts');
  fs.writeFileSync(
    hostsFile,
    '127.0.0.1 localhost pinned-inside # loopback\n10.1.2.3 Intranet.Example\n8.8.8.8 pinned-public\n',
  );
  const lookup = createGuardedLookup({ servers: [dns.server], hostsFile });
  const resolve = (name: string) =>
    new Promise<{ code?: string; address?: unknown }>((r) =>
      (lookup as (h: string, o: object, cb: (e: NodeJS.ErrnoException | null, a: unknown) => void) => void)(
        name,
        { all: true },
        (e, a) => r({ code: e?.code, address: a }),
      ),
    );
  for (const name of ['localhost', 'pinned-inside', 'intranet.example', 'localhost.', '127.0.0.1', '::1'])
    assert.equal((await resolve(name)).code, 'EBLOCKED', name);
  assert.deepEqual((await resolve('pinned-public')).address, [{ address: '8.8.8.8', family: 4 }]);
  assert.deepEqual((await resolve('1.1.1.1')).address, [{ address: '1.1.1.1', family: 4 }]);
  // None of them went to the nameserver.
  assert.deepEqual(dns.names, []);
});
