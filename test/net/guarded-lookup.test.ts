import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createGuardedLookup, isPublicAddress } from '../../src/net/guarded-lookup.ts';

// IPv6 forms that carry an IPv4 address for a translator or tunnel: the IPv4 address inside may be
// private on the network that reaches it (a local NAT64 prefix to 10.0.0.1, site-local routes).
const CARRYING_IPV4 = [
  '::7f00:1', // IPv4-compatible ::127.0.0.1
  '::a00:1', // IPv4-compatible ::10.0.0.1
  '::ffff:0:7f00:1', // IPv4-translated (SIIT) 127.0.0.1
  '64:ff9b:1::a00:1', // local-use NAT64 (RFC 8215) to 10.0.0.1
  '2002:a00:1::1', // 6to4 around 10.0.0.1
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  'fec0::1', // site-local
];

test('IPv6 addresses carrying an IPv4 address, and site-local ones, are not public', () => {
  for (const ip of CARRYING_IPV4) assert.equal(isPublicAddress(ip), false, ip);
  // Still public: ordinary global IPv6 and IPv4, the IPv4-mapped form of a public address.
  for (const ip of ['2606:4700::1111', '2001:4860:4860::8888', '2a03:2880::1', '8.8.8.8', '::ffff:8.8.8.8'])
    assert.equal(isPublicAddress(ip), true, ip);
});

test('a name resolving to such an address is refused by the lookup', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hosts-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const hostsFile = path.join(dir, 'hosts');
  fs.writeFileSync(hostsFile, CARRYING_IPV4.map((ip, i) => `${ip} carrying-${i}.example.com\n`).join(''));
  // The names are pinned in the hosts file: the nameserver (nothing listens there) is never asked.
  const lookup = createGuardedLookup({ servers: ['127.0.0.1:9'], hostsFile });
  for (const [i, ip] of CARRYING_IPV4.entries()) {
    const code = await new Promise<string | undefined>((resolve) =>
      (lookup as (h: string, o: object, cb: (e: NodeJS.ErrnoException | null) => void) => void)(
        `carrying-${i}.example.com`,
        { all: true },
        (e) => resolve(e?.code),
      ),
    );
    assert.equal(code, 'EBLOCKED', ip);
  }
});

/** A nameserver that reads every query and answers none. */
async function silentNameserver(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', () => {});
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => socket.close(() => r())));
  return `127.0.0.1:${socket.address().port}`;
}

// c-ares tries each nameserver in turn, so its timeouts add up per server: three silent ones
// held a name for about 12 s. The deadline over both queries holds whatever resolv.conf lists.
test('a name is given up on at the deadline however many nameservers stay silent', async (t) => {
  const servers = [await silentNameserver(t), await silentNameserver(t), await silentNameserver(t)];
  const lookup = createGuardedLookup({ servers, hostsFile: '/dev/null', deadlineMs: 1500 });
  const started = performance.now();
  const code = await new Promise<string | undefined>((resolve) =>
    (lookup as (h: string, o: object, cb: (e: NodeJS.ErrnoException | null) => void) => void)(
      'silent.example.com',
      { all: true },
      (e) => resolve(e?.code),
    ),
  );
  const ms = performance.now() - started;
  assert.equal(code, 'ETIMEOUT');
  assert.ok(ms >= 1400 && ms < 2500, `given up after ${Math.round(ms)} ms`);
});
