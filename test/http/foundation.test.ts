import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { generateApiKey } from '../../src/auth/api-key.ts';
import { runMetered, type AuthStyle } from '../../src/http/metered.ts';
import { ProblemError } from '../../src/http/problem.ts';
import type { Container } from '../../src/container.ts';
import { assertProblem, build, manualClock } from '../helper.ts';
import { dumpSchema } from '../scaled.ts';

// The metered helper is exercised through test-only routes here, so that its contract is pinned
// independently of the post endpoints built on it.
function meteredRoutes(c: () => Container) {
  return (app: FastifyInstance) => {
    for (const style of ['screenshot', 'content'] as AuthStyle[]) {
      app.get(`/__test/${style}`, async (request, reply) => {
        const q = request.query as { fail?: string; crash?: string };
        const body = await runMetered(c(), request, reply, {
          style,
          endpoint: 'test',
          cost: 1,
          work: async () => {
            if (q.fail) throw new ProblemError('upstream_unavailable', 'test failure');
            if (q.crash) throw new Error('secret internal detail at /srv/app.ts:12');
            return { done: true };
          },
        });
        return reply.send(body);
      });
    }
  };
}

async function harness(t: Parameters<typeof build>[0], opts: Parameters<typeof build>[1] = {}) {
  let container: Container;
  const h = await build(t, { ...opts, plugins: [meteredRoutes(() => container)] });
  container = h.c;
  return h;
}

const wellFormedUnknown = generateApiKey();

test('auth matrix: usage endpoint', async (t) => {
  const h = await harness(t);
  const { apiKey } = await h.account();
  const get = (headers: Record<string, string>) => h.app.inject({ method: 'GET', url: '/api/v1/usage', headers });
  assertProblem(await get({}), 401, 'missing_api_key');
  assertProblem(await get({ 'x-api-key': 'nope' }), 401, 'invalid_api_key');
  assertProblem(await get({ 'x-api-key': wellFormedUnknown }), 403, 'unknown_api_key');
  const ok = await get({ 'x-api-key': apiKey });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(
    { remaining: ok.json().remaining, limit: ok.json().limit, plan: ok.json().plan },
    { remaining: 50, limit: 50, plan: 'free' },
  );
});

for (const [style, malformed, unknown] of [
  ['screenshot', 401, 401],
  ['content', 403, 403],
] as const) {
  test(`auth matrix: ${style}-style endpoints`, async (t) => {
    const h = await harness(t);
    const get = (headers: Record<string, string>) => h.app.inject({ method: 'GET', url: `/__test/${style}`, headers });
    assertProblem(await get({}), 401, 'missing_api_key');
    assertProblem(await get({ 'x-api-key': 'psk_short' }), malformed, 'invalid_api_key');
    assertProblem(await get({ 'x-api-key': wellFormedUnknown }), unknown, 'invalid_api_key');
    const { apiKey } = await h.account();
    const ok = await get({ 'x-api-key': apiKey });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['x-quota-remaining'], '49');
    assert.equal(ok.headers['x-quota-limit'], '50');
  });
}

test('a revoked key is refused everywhere', async (t) => {
  const h = await harness(t);
  const { apiKey, accountId } = await h.account('pro');
  const [key] = await h.c.accounts.listKeys(accountId);
  await h.c.accounts.revokeKey(key.id, Date.now());
  const headers = { 'x-api-key': apiKey };
  assertProblem(await h.app.inject({ url: '/api/v1/usage', headers }), 403, 'unknown_api_key');
  assertProblem(await h.app.inject({ url: '/__test/screenshot', headers }), 401, 'invalid_api_key');
  assertProblem(await h.app.inject({ url: '/__test/content', headers }), 403, 'invalid_api_key');
});

test('the database holds no plaintext key', async (t) => {
  const h = await harness(t);
  const keys = [await h.account(), await h.account('pro')].map((a) => a.apiKey);
  if (h.scaled) {
    const dump = await dumpSchema(h.scaled.schema);
    assert.match(dump, /"hash":"[0-9a-f]{64}"/);
    for (const key of keys) assert.equal(dump.includes(key.slice(4, 24)), false, 'key body found in PostgreSQL');
    return;
  }
  await h.c.accounts.close();
  const dir = h.dataDir;
  for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('postshot.db'))) {
    const bytes = fs.readFileSync(path.join(dir, file)).toString('latin1');
    for (const key of keys) {
      assert.equal(bytes.includes(key), false, `plaintext key found in ${file}`);
      assert.equal(bytes.includes(key.slice(4, 24)), false, `key body found in ${file}`);
    }
  }
});

test('200 concurrent metered requests against 50 credits: exactly 50 succeed', async (t) => {
  // The per-key rate limit is not what this test is about.
  const h2 = await harness(t, { env: { POSTSHOT_RATE_LIMITS: 'free=100000' } });
  const acct = await h2.account('free');
  const results = await Promise.all(
    Array.from({ length: 200 }, () =>
      h2.app.inject({ url: '/__test/screenshot', headers: { 'x-api-key': acct.apiKey } }),
    ),
  );
  const ok = results.filter((r) => r.statusCode === 200);
  const refused = results.filter((r) => r.statusCode === 403);
  assert.equal(ok.length, 50);
  assert.equal(refused.length, 150);
  for (const r of refused) assertProblem(r, 403, 'quota_exceeded');
  for (const r of refused) assert.equal(r.headers['x-quota-remaining'], '0');
  const usage = (await h2.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': acct.apiKey } })).json();
  assert.equal(usage.remaining, 0);
  assert.equal(usage.used, 50);
  const ledger = await h2.c.accounts.ledger(acct.accountId);
  const sum = ledger.reduce((s, r) => s + (r.kind === 'charge' ? r.amount : -r.amount), 0);
  assert.equal(sum, 50);
});

test('a metered request whose work fails costs nothing, and says so in its headers', async (t) => {
  const h = await harness(t);
  const { apiKey, accountId } = await h.account('pro');
  const failed = await h.app.inject({ url: '/__test/content?fail=1', headers: { 'x-api-key': apiKey } });
  assertProblem(failed, 502, 'upstream_unavailable');
  assert.equal(failed.headers['x-quota-remaining'], '300');
  assert.equal(failed.headers['x-quota-limit'], '300');
  const crashed = await h.app.inject({ url: '/__test/content?crash=1', headers: { 'x-api-key': apiKey } });
  assertProblem(crashed, 500, 'internal_error');
  assert.doesNotMatch(crashed.body, /secret internal detail|srv\/app|at /);
  assert.equal(crashed.headers['x-quota-remaining'], '300');
  const usage = await h.c.quota.usage((await h.c.accounts.getAccount(accountId))!);
  assert.equal(usage.used, 0);
  const ledger = await h.c.accounts.ledger(accountId);
  assert.deepEqual(
    ledger.map((r) => r.kind),
    ['charge', 'refund', 'charge', 'refund'],
  );
});

test('monthly rollover resets on the anchor day; free never resets', async (t) => {
  const clock = manualClock('2026-01-31T12:00:00Z');
  const h = await harness(t, { clock, env: { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000' } });
  const pro = await h.account('pro');
  const free = await h.account('free');
  const spend = async (key: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const r = await h.app.inject({ url: '/__test/screenshot', headers: { 'x-api-key': key } });
      assert.equal(r.statusCode, 200);
    }
  };
  const usage = async (key: string) =>
    (await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': key } })).json();
  await spend(pro.apiKey, 10);
  await spend(free.apiKey, 10);
  clock.set('2026-02-27T23:59:59Z');
  assert.equal((await usage(pro.apiKey)).remaining, 290);
  // The anchor day (31st) is clamped to February's 28th.
  clock.set('2026-02-28T00:00:00Z');
  const after = await usage(pro.apiKey);
  assert.equal(after.remaining, 300);
  assert.equal(after.periodStart, '2026-02-28T00:00:00.000Z');
  assert.equal(after.periodEnd, '2026-03-31T00:00:00.000Z');
  clock.set('2027-06-01T00:00:00Z');
  const f = await usage(free.apiKey);
  assert.equal(f.remaining, 40);
  assert.equal(f.periodEnd, null);
});

test('rate limit: the 31st request in a minute on a free key gets 429 with Retry-After', async (t) => {
  const clock = manualClock('2026-05-01T00:00:00Z');
  const h = await harness(t, { clock });
  const { apiKey } = await h.account('free');
  for (let i = 0; i < 30; i++) {
    const r = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': apiKey } });
    assert.equal(r.statusCode, 200, `request ${i + 1}`);
    assert.equal(r.headers['ratelimit-limit'], '30');
    assert.equal(r.headers['ratelimit-remaining'], String(29 - i));
  }
  const limited = await h.app.inject({ url: '/__test/screenshot', headers: { 'x-api-key': apiKey } });
  assertProblem(limited, 429, 'rate_limited');
  assert.equal(limited.headers['retry-after'], '2');
  assert.equal(limited.headers['ratelimit-remaining'], '0');
  assert.equal(limited.headers['x-quota-remaining'], '50', 'a rate-limited request is not charged');
  clock.advance(2000);
  const again = await h.app.inject({ url: '/__test/screenshot', headers: { 'x-api-key': apiKey } });
  assert.equal(again.statusCode, 200);
});

test('failed authentications are rate limited per address', async (t) => {
  const h = await harness(t, { env: { POSTSHOT_AUTH_FAILURE_LIMIT: '5' } });
  for (let i = 0; i < 5; i++) {
    assertProblem(
      await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': 'bad' } }),
      401,
      'invalid_api_key',
    );
  }
  const blocked = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': 'bad' } });
  assertProblem(blocked, 429, 'rate_limited');
  assert.ok(Number(blocked.headers['retry-after']) >= 1);
  const other = await h.app.inject({
    url: '/api/v1/usage',
    remoteAddress: '10.9.8.7',
    headers: { 'x-api-key': 'bad' },
  });
  assertProblem(other, 401, 'invalid_api_key');
});

test('bad input gets 4xx problem+json, never 500', async (t) => {
  const h = await harness(t);
  const { apiKey } = await h.account();
  for (const bad of [
    '',
    ' ',
    'psk_',
    `${generateApiKey()} `,
    `psk_${'é'.repeat(38)}`,
    'x'.repeat(5000),
    '../../etc/passwd',
  ]) {
    const r = await h.app.inject({ url: '/api/v1/usage', headers: bad === '' ? {} : { 'x-api-key': bad } });
    assert.ok(r.statusCode === 401 || r.statusCode === 403, `${r.statusCode} for ${JSON.stringify(bad)}`);
    assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
  }
  // biome-ignore lint/suspicious/noExplicitAny: a header array is what this test sends
  const twoKeys = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': [apiKey, apiKey] } as any });
  assertProblem(twoKeys, 401, 'invalid_api_key');
  const unknownParam = await h.app.inject({ url: '/api/v1/usage?verbose=1', headers: { 'x-api-key': apiKey } });
  assertProblem(unknownParam, 400, 'invalid_parameter');
  assert.match(unknownParam.json().detail, /verbose/);
  assertProblem(await h.app.inject({ url: '/api/v1/nothing-here' }), 404, 'not_found');
  assertProblem(await h.app.inject({ method: 'DELETE', url: '/api/v1/usage' }), 405, 'method_not_allowed');
  // OPTIONS that is not a CORS preflight (CORS is off here) is a method like the others.
  const options = await h.app.inject({ method: 'OPTIONS', url: '/api/v1/screenshot/20' });
  assertProblem(options, 405, 'method_not_allowed');
  assert.equal(options.headers.allow, 'GET, HEAD');
});

test('oversize headers and garbage HTTP get problem+json from a listening server', async (t) => {
  const h = await harness(t);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as net.AddressInfo).port;
  const raw = (payload: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(payload));
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
  const huge = await raw(`GET /api/v1/usage HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${'a'.repeat(20_000)}\r\n\r\n`);
  assert.match(huge, /^HTTP\/1\.1 431 /);
  assert.match(huge, /application\/problem\+json/);
  assert.match(huge, /"code":"headers_too_large"/);
  const garbage = await raw('BLAH /\x00 what\r\n\r\n');
  assert.match(garbage, /^HTTP\/1\.1 400 /);
  assert.match(garbage, /"code":"bad_request"/);
  const hostless = await raw('GET /healthz HTTP/1.1\r\n\r\n');
  assert.match(hostless, /^HTTP\/1\.1 400 /);
  assert.match(hostless, /application\/problem\+json/);
  assert.match(hostless, /Host header/);
  assert.match(await raw('GET /healthz HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 200 /, 'HTTP/1.0 needs none');
  const tunnel = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  assert.match(tunnel, /^HTTP\/1\.1 405 /);
  assert.match(tunnel, /"code":"method_not_allowed"/);
  assert.match(tunnel, /\r\nAllow: [A-Z, ]+\r\n/, 'a 405 names the methods served');
});

test('every response carries X-Request-Id; a sane incoming id is echoed', async (t) => {
  const h = await harness(t);
  const a = await h.app.inject({ url: '/healthz' });
  assert.match(String(a.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  const b = await h.app.inject({ url: '/nope', headers: { 'x-request-id': 'trace-123' } });
  assert.equal(b.headers['x-request-id'], 'trace-123');
  assert.equal(b.json().requestId, 'trace-123');
  const c = await h.app.inject({ url: '/healthz', headers: { 'x-request-id': '<script>' } });
  assert.notEqual(c.headers['x-request-id'], '<script>');
});

test('GET / is a 404 problem that points at /docs, /openapi.json and (sign-up open) /account', async (t) => {
  const open = await build(t);
  const root = await open.app.inject({ url: '/?utm=1' });
  assertProblem(root, 404, 'not_found');
  const detail: string = root.json().detail;
  for (const path of ['/docs', '/openapi.json', '/account'])
    assert.ok(detail.includes(path), `${detail} names ${path}`);
  assert.doesNotMatch(
    (await open.app.inject({ url: '/api/v1/nothing-here' })).json().detail,
    /\/docs/,
    'only / carries the pointer',
  );
  const closed = await build(t, { env: { POSTSHOT_SIGNUP: 'closed' } });
  const closedDetail: string = (await closed.app.inject({ url: '/' })).json().detail;
  assert.match(closedDetail, /\/docs.*\/openapi\.json/);
  assert.doesNotMatch(closedDetail, /\/account/);
});
