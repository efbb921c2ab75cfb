import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { Redis } from 'ioredis';
import { systemClock } from '../../src/clock.ts';
import { FxTwitterSource } from '../../src/sources/fxtwitter/source.ts';
import { checkMediaUrl, guardedLookup, isPublicAddress, MediaFetcher, sizedMediaUrl } from '../../src/sources/media.ts';
import { PostService } from '../../src/sources/post-service.ts';
import { startFixtureServer, type Fault, type FixtureServer } from '../../src/sources/fixture-server.ts';
import { SyndicationSource } from '../../src/sources/syndication/source.ts';
import type { PostCache } from '../../src/storage/cache/interface.ts';
import { MemoryPostCache, MemorySingleFlight } from '../../src/storage/cache/memory.ts';
import { RedisPostCache, RedisSingleFlight } from '../../src/storage/cache/redis.ts';
import { createRedis } from '../../src/storage/redis-client.ts';
import { SAMPLES_DIR, SHARED_FIXTURES } from '../fixtures.ts';
import { REDIS_URL } from '../scaled.ts';

const TIMEOUT = 400;
// For tests that are not about timing: a first fetch on a loaded CI machine can take over 400 ms.
const RELAXED = 10_000;

async function setup(t: { after(fn: () => Promise<void>): void }, ttlMs = 60_000, timeoutMs = TIMEOUT) {
  const fixture = await startFixtureServer({ roots: [SAMPLES_DIR, SHARED_FIXTURES] });
  t.after(() => fixture.close());
  const service = new PostService(
    [
      new FxTwitterSource(fixture.env.POSTSHOT_FXTWITTER_URL, timeoutMs),
      new SyndicationSource(fixture.env.POSTSHOT_SYNDICATION_URL, timeoutMs),
    ],
    new MemoryPostCache(systemClock),
    new MemorySingleFlight(),
    ttlMs,
  );
  return { fixture, service };
}

test('FxTwitter first; syndication when FxTwitter fails; cached afterwards', async (t) => {
  const { fixture, service } = await setup(t, 60_000, RELAXED);
  const fx = await service.getPost('1900000000000000003');
  assert.equal(fx.kind === 'found' && fx.post.source, 'fxtwitter');
  assert.equal(fixture.count('syndication', '1900000000000000003'), 0);

  const syn = await service.getPost('1900000000000000001');
  assert.equal(syn.kind === 'found' && syn.post.source, 'syndication');
  assert.equal(fixture.count('fxtwitter', '1900000000000000001'), 1);

  await service.getPost('1900000000000000001');
  assert.equal(fixture.count('syndication', '1900000000000000001'), 1, 'second read comes from the cache');
});

test('a "not found" from the first source is final', async (t) => {
  const { fixture, service } = await setup(t, 60_000, RELAXED);
  const r = await service.getPost('1234567890123');
  assert.equal(r.kind, 'not_found');
  assert.equal(fixture.count('syndication', '1234567890123'), 0);
});

const FAULTS: Array<[string, Fault, 'found' | 'not_found' | 'unavailable', boolean?]> = [
  ['5xx', { status: 500 }, 'unavailable'],
  ['429', { status: 429 }, 'unavailable'],
  ['timeout', { delayMs: 2000 }, 'unavailable', true],
  ['reset', { reset: true }, 'unavailable'],
  ['malformed JSON', { body: 'malformed' }, 'unavailable'],
  ['truncated body', { body: 'truncated' }, 'unavailable'],
  ['HTML error page (200)', { body: 'html' }, 'unavailable'],
  ['slow body past the timeout', { slowBodyMs: 2000 }, 'unavailable', true],
  ['redirect elsewhere', { redirect: 'http://169.254.169.254/latest/meta-data' }, 'unavailable'],
  ['tombstone', { body: 'tombstone' }, 'not_found'],
  ['age-restricted tombstone', { body: 'age_restricted' }, 'not_found'],
  ['empty object', { body: 'empty' }, 'not_found'],
  ['404 HTML', { status: 404, body: 'html' }, 'not_found'],
];

for (const [label, fault, expected, timeout] of FAULTS) {
  test(`syndication fault "${label}" → ${expected}${timeout ? ' (timeout)' : ''}, within the timeout`, async (t) => {
    const { fixture, service } = await setup(t);
    const id = '1900000000000000001'; // syndication only: FxTwitter fails first
    fixture.setFault(id, fault, 'syndication');
    const started = Date.now();
    const r = await service.getPost(id);
    const elapsed = Date.now() - started;
    assert.equal(r.kind, expected, JSON.stringify(r));
    if (r.kind === 'unavailable') assert.equal(r.timeout, Boolean(timeout), r.detail);
    assert.ok(elapsed < TIMEOUT * 2 + 500, `took ${elapsed} ms`);
  });
}

test('every source timing out is a timeout; FxTwitter faults fall through to syndication', async (t) => {
  const { fixture, service } = await setup(t);
  const id = '1900000000000000003';
  fixture.setFault(id, { status: 502 }, 'fxtwitter');
  const r = await service.getPost(id);
  assert.equal(r.kind, 'not_found', 'FxTwitter failed, syndication has no record: final 404');
  fixture.setFault('1900000000000000004', { delayMs: 2000 }, '*');
  const slow = await service.getPost('1900000000000000004');
  assert.equal(slow.kind === 'unavailable' && slow.timeout, true);
});

test('single-flight: 50 concurrent requests for one post make one upstream request', async (t) => {
  const { fixture, service } = await setup(t, 60_000, RELAXED);
  fixture.setFault('1900000000000000013', { delayMs: 100 }, 'fxtwitter');
  const results = await Promise.all(Array.from({ length: 50 }, () => service.getPost('1900000000000000013')));
  assert.ok(results.every((r) => r.kind === 'found'));
  assert.equal(fixture.count('fxtwitter', '1900000000000000013'), 1);
});

/**
 * A cache whose first read is held after it misses, until `release`: that caller's miss then
 * comes before another caller's load, and its single-flight after that load has finished.
 */
function holdFirstMiss(cache: PostCache) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let missed!: () => void;
  const firstMissed = new Promise<void>((r) => (missed = r));
  let first = true;
  const held: PostCache = {
    async get(id) {
      const value = await cache.get(id);
      if (first && value === null) {
        first = false;
        missed();
        await released;
      }
      return value;
    },
    set: (id, value, ttlMs) => cache.set(id, value, ttlMs),
    ping: () => cache.ping(),
    close: () => cache.close(),
  };
  return { cache: held, firstMissed, release };
}

async function assertLateCallerReadsTheCache(
  fixture: FixtureServer,
  late: PostService,
  early: PostService,
  firstMissed: Promise<void>,
  release: () => void,
) {
  const id = '1900000000000000013';
  const lateCall = late.getPost(id);
  await firstMissed;
  const earlyResult = await early.getPost(id);
  assert.equal(earlyResult.kind, 'found');
  release();
  const lateResult = await lateCall;
  assert.equal(lateResult.kind === 'found' && lateResult.post.id, id);
  assert.equal(
    fixture.count('fxtwitter', id),
    1,
    'the caller that missed before the load finished takes the cached post',
  );
}

test('single-flight: a caller whose cache miss came before a load finished does not load again (one process)', async (t) => {
  const fixture = await startFixtureServer({ roots: [SAMPLES_DIR] });
  t.after(() => fixture.close());
  const sources = [new FxTwitterSource(fixture.env.POSTSHOT_FXTWITTER_URL, RELAXED)];
  const { cache, firstMissed, release } = holdFirstMiss(new MemoryPostCache(systemClock));
  const service = new PostService(sources, cache, new MemorySingleFlight(), 60_000);
  await assertLateCallerReadsTheCache(fixture, service, service, firstMissed, release);
});

test('single-flight: a caller whose cache miss came before a load finished does not load again (two instances on Redis)', async (t) => {
  const fixture = await startFixtureServer({ roots: [SAMPLES_DIR] });
  t.after(() => fixture.close());
  const sources = [new FxTwitterSource(fixture.env.POSTSHOT_FXTWITTER_URL, RELAXED)];
  const prefix = `t:${randomBytes(6).toString('hex')}:`;
  const clients = [createRedis(REDIS_URL), createRedis(REDIS_URL)];
  t.after(async () => {
    const keys = await clients[0].keys(`${prefix}*`);
    if (keys.length) await clients[0].del(...keys);
    for (const c of clients) c.disconnect();
  });
  const instance = (redis: Redis, cache: PostCache = new RedisPostCache(redis, prefix)) =>
    new PostService(sources, cache, new RedisSingleFlight(redis, prefix, 5_000), 60_000);
  const { cache, firstMissed, release } = holdFirstMiss(new RedisPostCache(clients[1], prefix));
  await assertLateCallerReadsTheCache(fixture, instance(clients[1], cache), instance(clients[0]), firstMissed, release);
});

test('media URL rules: only X media hosts over https', () => {
  assert.equal(checkMediaUrl('https://pbs.twimg.com/media/a.jpg').ok, true);
  assert.equal(checkMediaUrl('https://video.twimg.com/x.mp4').ok, true);
  assert.equal(checkMediaUrl('https://abs.twimg.com/emoji/v2/72x72/1f600.png').ok, true);
  for (const bad of [
    'http://pbs.twimg.com/media/a.jpg',
    'https://pbs.twimg.com.evil.com/a.jpg',
    'https://evil.com/pbs.twimg.com/a.jpg',
    'https://127.0.0.1/a.jpg',
    'https://169.254.169.254/latest/meta-data',
    'https://user:pw@pbs.twimg.com/a.jpg',
    'https://pbs.twimg.com:8443/a.jpg',
    'file:///etc/passwd',
    'data:image/png;base64,AAAA',
    'not a url',
    'https://img.youtube.com/vi/x/maxresdefault.jpg',
  ]) {
    assert.equal(checkMediaUrl(bad).ok, false, bad);
  }
});

test('private, loopback, link-local and reserved addresses are not public', () => {
  for (const ip of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
  ]) {
    assert.equal(isPublicAddress(ip), false, ip);
  }
  for (const ip of ['151.101.0.1', '8.8.8.8', '2606:4700::1111']) assert.equal(isPublicAddress(ip), true, ip);
});

test('the guarded DNS lookup refuses names that resolve inside', async () => {
  const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
    guardedLookup('localhost', {}, (e) => resolve(e)),
  );
  assert.equal(err?.code, 'EBLOCKED');
});

test('media size variants follow the drawn size', () => {
  assert.equal(
    sizedMediaUrl('https://pbs.twimg.com/profile_images/1/a_normal.jpg', 96),
    'https://pbs.twimg.com/profile_images/1/a_200x200.jpg',
  );
  assert.equal(
    sizedMediaUrl('https://pbs.twimg.com/media/X.jpg?name=orig', 500),
    'https://pbs.twimg.com/media/X?name=small&format=jpg',
  );
  assert.equal(
    sizedMediaUrl('https://pbs.twimg.com/media/X.jpg', 1100),
    'https://pbs.twimg.com/media/X?format=jpg&name=medium',
  );
});

async function mediaSetup(t: {
  after(fn: () => Promise<void>): void;
}): Promise<{ fixture: FixtureServer; fetcher: MediaFetcher }> {
  const fixture = await startFixtureServer({ roots: [SAMPLES_DIR] });
  t.after(() => fixture.close());
  const fetcher = new MediaFetcher({
    mediaUrl: fixture.env.POSTSHOT_MEDIA_URL,
    timeoutMs: TIMEOUT,
    maxBytes: 200_000,
    clock: systemClock,
  });
  return { fixture, fetcher };
}

test('media: fetched, cached, capped, type-checked; failures give null', async (t) => {
  const { fixture, fetcher } = await mediaSetup(t);
  const url = 'https://pbs.twimg.com/media/PS2a.png?name=small';
  const a = await fetcher.fetch(url);
  assert.equal(a?.contentType, 'image/png');
  assert.ok(a!.bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])));
  await fetcher.fetch(url);
  assert.equal(fixture.count('media', 'PS2a'), 1, 'second fetch from cache');

  fixture.setFault('PS2b', { contentType: 'text/html' }, 'media');
  assert.equal(await fetcher.fetch('https://pbs.twimg.com/media/PS2b.png'), null);
  fixture.setFault('PS4a', { delayMs: 2000 }, 'media');
  assert.equal(await fetcher.fetch('https://pbs.twimg.com/media/PS4a.png'), null);
  const small = new MediaFetcher({
    mediaUrl: fixture.env.POSTSHOT_MEDIA_URL,
    timeoutMs: TIMEOUT,
    maxBytes: 100,
    clock: systemClock,
  });
  assert.equal(await small.fetch('https://pbs.twimg.com/media/PS4b.png'), null, 'over the byte cap');
  assert.equal(await fetcher.fetch('https://evil.example/PS4c.png'), null);
});

test('media redirects: followed on X hosts, refused elsewhere (no request leaves)', async (t) => {
  const { fixture, fetcher } = await mediaSetup(t);
  let hits = 0;
  const trap = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'image/png' }).end('x');
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => trap.close(() => r())));
  const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/x.png`;

  fixture.setFault('PS4c', { redirect: trapUrl }, 'media');
  assert.equal(await fetcher.fetch('https://pbs.twimg.com/media/PS4c.png'), null);
  fixture.setFault('PS4d', { redirect: 'https://evil.example/x.png' }, 'media');
  assert.equal(await fetcher.fetch('https://pbs.twimg.com/media/PS4d.png'), null);
  fixture.setFault('PS4e', { redirect: 'http://[' }, 'media');
  assert.equal(await fetcher.fetch('https://pbs.twimg.com/media/PS4e.png'), null, 'a Location that is no URL');
  assert.equal(hits, 0);

  // A host answering each redirect just inside the timeout is timed as one fetch: given up at the
  // timeout, not after four of them.
  for (let hop = 0; hop < 4; hop++)
    fixture.setFault(`PSh${hop}`, { delayMs: 300, redirect: `https://pbs.twimg.com/media/PSh${hop + 1}.png` }, 'media');
  const started = Date.now();
  assert.equal(await fetcher.fetch('https://pbs.twimg.com/media/PSh0.png'), null);
  assert.ok(Date.now() - started < TIMEOUT + 500, `given up after ${Date.now() - started} ms`);

  fixture.setFault('PSq1', { redirect: 'https://pbs.twimg.com/media/PS3a.png' }, 'media');
  const followed = await fetcher.fetch('https://pbs.twimg.com/media/PSq1.png');
  assert.equal(followed?.contentType, 'image/png');
  assert.equal(fixture.count('media', 'PS3a'), 1);
});
