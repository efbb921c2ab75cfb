import assert from 'node:assert/strict';
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
