// HEAD answers like GET without rendering, fetching or charging; failed authentications from an
// address never lock out a valid key; the key is checked before the body of a metered route.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey } from '../../src/auth/api-key.ts';
import { assertProblem, build, type Harness, manualClock } from '../helper.ts';

const POST = '1900000000000000008';
const TEXT_POST = '1900000000000000001';
const MISSING = '1234567';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };

const fetched = (h: Harness, id: string) => h.upstream.count('fxtwitter', id) + h.upstream.count('syndication', id);

// What a client reads from a successful answer besides the body and its length and encoding.
const COMPARED = [
  'content-type',
  'content-disposition',
  'cache-control',
  'content-security-policy',
  'x-frame-options',
  'vary',
  'x-quota-limit',
  'ratelimit-limit',
];

test('HEAD on screenshot and content: the headers of GET, nothing rendered, fetched or charged', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey, accountId } = await h.account('pro');
  const headers = { 'x-api-key': apiKey, 'accept-encoding': 'gzip' };
  for (const url of [
    `/api/v1/screenshot/${POST}?format=png`,
    `/api/v1/screenshot/${POST}?format=svg&theme=dark`,
    `/api/v1/screenshot/${POST}?format=html`,
    `/api/v1/screenshot/${POST}?returnType=url`,
    `/api/v1/content/${TEXT_POST}?includeStats=false`,
  ]) {
    const id = url.includes('content') ? TEXT_POST : POST;
    const before = fetched(h, id);
    const usedBefore = (await h.c.accounts.ledger(accountId)).length;
    const head = await h.app.inject({ method: 'HEAD', url, headers });
    assert.equal(head.statusCode, 200, url);
    assert.equal(head.body, '', `${url}: HEAD has no body`);
    assert.equal(fetched(h, id), before, `${url}: HEAD fetched the post`);
    assert.equal((await h.c.accounts.ledger(accountId)).length, usedBefore, `${url}: HEAD wrote to the ledger`);
    const remaining = Number(head.headers['x-quota-remaining']);

    const get = await h.app.inject({ url, headers });
    assert.equal(get.statusCode, 200, url);
    for (const name of COMPARED) assert.equal(head.headers[name], get.headers[name], `${url}: ${name}`);
    assert.equal(Number(get.headers['x-quota-remaining']), remaining - 1, `${url}: HEAD showed the current quota`);
  }
  // A client that asks for no encoding (curl -I) gets GET's Vary too.
  for (const format of ['svg', 'html']) {
    const url = `/api/v1/screenshot/${POST}?format=${format}`;
    const plain = { 'x-api-key': apiKey };
    const head = await h.app.inject({ method: 'HEAD', url, headers: plain });
    const get = await h.app.inject({ url, headers: plain });
    assert.match(String(get.headers.vary), /accept-encoding/i, url);
    assert.equal(head.headers.vary, get.headers.vary, `${url}: HEAD's Vary`);
  }
  const usage = await h.c.quota.usage((await h.c.accounts.getAccount(accountId))!);
  assert.equal(usage.used, 7, 'only the seven GETs were charged');
});

test('HEAD answers the refusals GET would, from what is known without an upstream fetch', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const free = await h.account('free');
  const headers = { 'x-api-key': free.apiKey };
  const head = (url: string, hdrs: Record<string, string> = headers) =>
    h.app.inject({ method: 'HEAD', url, headers: hdrs });

  const noKey = await head(`/api/v1/screenshot/${POST}`, {});
  assert.equal(noKey.statusCode, 401);
  assert.match(String(noKey.headers['content-type']), /^application\/problem\+json/);
  assert.equal(noKey.body, '');
  // A refusal's headers are GET's, its length and encoding included, on the routes that answer
  // HEAD themselves and on those Fastify answers it for (one request id: the same body, long
  // enough to be compressed).
  for (const url of [`/api/v1/screenshot/${POST}`, `/api/v1/content/${TEXT_POST}`, '/api/v1/usage', '/images/x.png']) {
    for (const encoding of [{}, { 'accept-encoding': 'gzip' }]) {
      const sent = { ...encoding, 'x-request-id': 'head-and-get-0123456789abcdef0123456789abcdef' };
      const [headRes, getRes] = await Promise.all(
        (['HEAD', 'GET'] as const).map((method) => h.app.inject({ method, url, headers: sent })),
      );
      assert.ok(getRes.statusCode >= 400, `${url}: a refusal`);
      assert.equal(headRes.statusCode, getRes.statusCode, url);
      assert.equal(headRes.body, '', `${url}: HEAD has no body`);
      // The image's 404 is too short to be worth compressing; the others are compressed.
      if ('accept-encoding' in encoding && !url.startsWith('/images/'))
        assert.equal(getRes.headers['content-encoding'], 'gzip', `${url}: compressed`);
      for (const name of ['content-type', 'content-length', 'content-encoding', 'vary'])
        assert.equal(headRes.headers[name], getRes.headers[name], `${url} ${JSON.stringify(encoding)}: ${name}`);
    }
  }
  assert.equal((await head(`/api/v1/content/${TEXT_POST}`, { 'x-api-key': generateApiKey() })).statusCode, 403);

  const badFormat = await head(`/api/v1/screenshot/${POST}?format=bmp`);
  assert.equal(badFormat.statusCode, 400);
  assert.equal(badFormat.headers['x-quota-remaining'], '50');
  assert.equal((await head(`/api/v1/screenshot/-1`)).statusCode, 400);
  assert.equal((await head(`/api/v1/screenshot/${POST}?returnType=url`)).statusCode, 403, 'plan_restricted');

  // A post the cache knows is missing: 404, still without asking upstream again.
  assertProblem(await h.app.inject({ url: `/api/v1/content/${MISSING}`, headers }), 404, 'post_not_found');
  const seen = fetched(h, MISSING);
  assert.equal((await head(`/api/v1/screenshot/${MISSING}`)).statusCode, 404);
  assert.equal((await head(`/api/v1/content/${MISSING}`)).statusCode, 404);
  assert.equal(fetched(h, MISSING), seen);

  // Quota used up: 403 as GET would, with the current (zero) quota.
  const account = (await h.c.accounts.getAccount(free.accountId))!;
  assert.ok((await h.c.quota.charge(account, 50, { requestId: 'test', endpoint: 'test' })).ok);
  const spent = await head(`/api/v1/screenshot/${POST}?format=png`);
  assert.equal(spent.statusCode, 403);
  assert.equal(spent.headers['x-quota-remaining'], '0');
  assertProblem(await h.app.inject({ url: `/api/v1/screenshot/${POST}`, headers }), 403, 'quota_exceeded');
});

test('500 failed authentications from one address do not lock out a valid key from it', async (t) => {
  // A still clock: no failure allowance refills while the test runs, however slow the machine.
  const h = await build(t, { clock: manualClock('2026-05-01T00:00:00Z') });
  const { apiKey } = await h.account('pro');
  const unknown = generateApiKey();
  const statuses = new Map<number, number>();
  for (let i = 0; i < 500; i++) {
    const url = ['/api/v1/usage', `/api/v1/content/${TEXT_POST}`, `/api/v1/screenshot/${POST}`][i % 3];
    const key = i % 2 === 0 ? unknown : `psk_bad${i}`;
    const r = await h.app.inject({ url, headers: { 'x-api-key': key } });
    statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
  }
  assert.equal(statuses.get(429), 500 - 60, 'the 60 first failures are answered, the rest refused');
  for (const url of ['/api/v1/usage', `/api/v1/content/${TEXT_POST}`, `/api/v1/screenshot/${POST}`]) {
    const ok = await h.app.inject({ url, headers: { 'x-api-key': apiKey } });
    assert.equal(ok.statusCode, 200, url);
  }
  const posted = await h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { 'x-api-key': apiKey },
    payload: { tweetIds: [TEXT_POST] },
  });
  assert.equal(posted.statusCode, 200);
  // The failing client is still refused, and without a key it counts as failing too.
  assertProblem(await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': unknown } }), 429, 'rate_limited');
  assertProblem(await h.app.inject({ url: '/api/v1/usage' }), 429, 'rate_limited');
});

test('bulk: the key is checked before the body; refusals of the body show the quota', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const post = (headers: Record<string, string>, payload: string) =>
    h.app.inject({ method: 'POST', url: '/api/v1/content/tweets', headers, payload });
  const big = JSON.stringify({ tweetIds: [TEXT_POST], pad: 'x'.repeat(70 * 1024) });
  for (const [headers, payload] of [
    [{ 'content-type': 'text/plain' }, 'tweetIds=1'],
    [{ 'content-type': 'application/json' }, '{"tweetIds": ['],
    [{ 'content-type': 'application/json' }, big],
    [{}, ''],
  ] as const) {
    assertProblem(await post(headers, payload), 401, 'missing_api_key');
    assertProblem(await post({ ...headers, 'x-api-key': 'psk_nope' }, payload), 403, 'invalid_api_key');
  }
  for (const [headers, payload, status, code] of [
    [{ 'content-type': 'text/plain' }, 'tweetIds=1', 415, 'unsupported_media_type'],
    [{ 'content-type': 'application/json' }, '{"tweetIds": [', 400, 'invalid_body'],
    [{ 'content-type': 'application/json' }, big, 413, 'payload_too_large'],
    [{ 'content-type': 'application/json' }, '{"tweetIds": []}', 400, 'invalid_body'],
  ] as const) {
    const r = await post({ ...headers, 'x-api-key': apiKey }, payload);
    assertProblem(r, status, code);
    assert.equal(r.headers['x-quota-remaining'], '300', `${status} shows the quota`);
    assert.equal(r.headers['x-quota-limit'], '300');
  }
});
