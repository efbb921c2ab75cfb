// Name resolution for hosts we fetch images from (X's media hosts, a customer's backgroundImage).
//
// Threat model: the name may be chosen by a customer, and so may its nameserver. dns.lookup runs
// getaddrinfo on libuv's thread pool (4 threads, shared with file I/O, crypto, zlib and sharp), so
// a nameserver that never answers would hold a thread per request for the system resolver's
// timeouts: a few such requests would stall every render. Names are therefore resolved by c-ares
// (dns.promises.Resolver: its own sockets on the event loop, no thread), A and AAAA, one retry,
// and a deadline over both, however many nameservers resolv.conf lists: 4 s at worst. /etc/hosts
// is read first, as getaddrinfo would, so a name the operator pinned there (localhost, the
// machine's own name) keeps resolving to the address it names and is refused when that address
// is not public. Every address a name has must be public: one private address among public ones
// refuses the name (DNS rebinding, names pointing inside).
import dns from 'node:dns';
import fs from 'node:fs/promises';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { settleBy } from '../util/deadline.ts';

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(addr, prefix, 'ipv4');
// Addresses that carry an IPv4 address for a translator or tunnel to reach are refused whole, as
// NAT64's always was: the IPv4 address inside may be private on the network that reaches it.
for (const [addr, prefix] of [
  // Unspecified, loopback and IPv4-compatible (::a.b.c.d, deprecated).
  ['::', 96],
  // IPv4-translated (SIIT, ::ffff:0:a.b.c.d).
  ['::ffff:0:0:0', 96],
  // NAT64, the well-known prefix and the local-use one (RFC 8215).
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // Teredo and 6to4: IPv4 inside, reached through relays.
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local (deprecated), still routed inside some networks.
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(addr, prefix, 'ipv6');

export function isPublicAddress(ip: string): boolean {
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = net.isIP(ip);
  if (family === 0) return false;
  return !blocked.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export interface GuardedLookupOptions {
  /** Nameservers (`ip` or `ip:port`); the system's (/etc/resolv.conf) when absent. Tests point this elsewhere. */
  servers?: string[];
  /** c-ares's first-try timeout per server; later tries wait longer, and each server is tried in turn. */
  timeoutMs?: number;
  tries?: number;
  /** The most a name's A and AAAA queries take together, whatever the servers and tries add up to. */
  deadlineMs?: number;
  /** The hosts file read before DNS. */
  hostsFile?: string;
}

type Address = { address: string; family: number };
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | Address[], family?: number) => void;

/** A lookup for http(s).request that resolves through c-ares, bounded, and refuses non-public addresses. */
export function createGuardedLookup(options: GuardedLookupOptions = {}): LookupFunction {
  const resolver = new dns.promises.Resolver({ timeout: options.timeoutMs ?? 1000, tries: options.tries ?? 2 });
  if (options.servers) resolver.setServers(options.servers);
  const hosts = new HostsFile(options.hostsFile ?? '/etc/hosts');
  const deadlineMs = options.deadlineMs ?? 4000;
  const lookup = (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback) => {
    resolveGuarded(resolver, hosts, hostname, Number(lookupOptions.family) || 0, deadlineMs).then(
      (list) => {
        if (lookupOptions.all) callback(null, list);
        else callback(null, list[0].address, list[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
  return lookup as unknown as LookupFunction;
}

async function resolveGuarded(
  resolver: dns.promises.Resolver,
  hosts: HostsFile,
  hostname: string,
  family: number,
  deadlineMs: number,
): Promise<Address[]> {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  // An address is its own answer, never asked of DNS (net does not look those up, but a caller may).
  let list = net.isIP(name)
    ? [{ address: name, family: net.isIP(name) }]
    : (await hosts.addresses(name)).filter((a) => family === 0 || a.family === family);
  if (list.length === 0) {
    const [v4, v6] = await Promise.allSettled([
      family === 6 ? Promise.resolve([]) : withDeadline(resolver.resolve4(name), deadlineMs),
      family === 4 ? Promise.resolve([]) : withDeadline(resolver.resolve6(name), deadlineMs),
    ]);
    list = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (list.length === 0) {
      // Neither family answered: the A query's error names why (ENOTFOUND, ETIMEOUT, ...).
      const why = [v4, v6].find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
      const code = (why?.reason as NodeJS.ErrnoException | undefined)?.code ?? 'ENOTFOUND';
      throw Object.assign(new Error(`${hostname} could not be resolved (${code})`), { code });
    }
  }
  if (list.some((a) => !isPublicAddress(a.address)))
    throw Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EBLOCKED' });
  return list;
}

/** The query's answer, or ETIMEOUT at the deadline; the query runs on to c-ares's own timeouts, holding no thread. */
function withDeadline<T>(query: Promise<T>, ms: number): Promise<T> {
  return settleBy(query, ms, () => {
    throw Object.assign(new Error('DNS deadline passed'), { code: 'ETIMEOUT' });
  });
}

/** /etc/hosts, read again at most every few seconds: a local file, so its read is short. */
class HostsFile {
  private names = new Map<string, Address[]>();
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | null = null;

  constructor(private readonly path: string) {}

  async addresses(name: string): Promise<Address[]> {
    if (performance.now() - this.readAt > 5_000) {
      this.reading ??= this.read().finally(() => {
        this.reading = null;
      });
      await this.reading;
    }
    return this.names.get(name) ?? [];
  }

  private async read(): Promise<void> {
    const text = await fs.readFile(this.path, 'utf8').catch(() => '');
    const names = new Map<string, Address[]>();
    for (const line of text.split('\n')) {
      const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
      const family = net.isIP(address ?? '');
      if (family === 0) continue;
      for (const alias of aliases) {
        const key = alias.toLowerCase();
        const list = names.get(key) ?? [];
        list.push({ address, family });
        names.set(key, list);
      }
    }
    this.names = names;
    this.readAt = performance.now();
  }
}

/** The lookup with the system's nameservers, for fetchers not given one. */
export const guardedLookup: LookupFunction = createGuardedLookup();
