import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { generateApiKey } from '../../src/auth/api-key.ts';
import { assertProblem, build } from '../helper.ts';

const TEXT_POST = '1900000000000000001';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };

test('single content: Markdown, quota headers, one credit', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const res = await h.app.inject({
    url: `/api/v1/content/${TEXT_POST}`,
    headers: { 'x-api-key': apiKey, accept: 'text/markdown' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'text/markdown; charset=utf-8');
  assert.equal(res.headers['x-quota-remaining'], '299');
  assert.equal(res.headers['x-quota-limit'], '300');
  assert.match(res.body, /^\*\*@postshot\\_samples\*\* \(Postshot Samples 📸\) · 2026-03-21 20:50 UTC\n\nShipping day/);
  assert.ok(res.body.trimEnd().endsWith(`https://x.com/postshot_samples/status/${TEXT_POST}`));
});

test('a cached post is charged in one step: concurrent requests never overspend, refusals cost nothing, each credit is a committed ledger row', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey, accountId } = await h.account('free');
  const get = () => h.app.inject({ url: `/api/v1/content/${TEXT_POST}`, headers: { 'x-api-key': apiKey } });
  // The first request loads the post (reserve, fetch, commit); the rest find it in the cache.
  assert.equal((await get()).statusCode, 200);
  const responses = await Promise.all(Array.from({ length: 60 }, get));
  const ok = responses.filter((r) => r.statusCode === 200);
  assert.equal(ok.length, 49);
  for (const r of responses.filter((x) => x.statusCode !== 200)) {
    assertProblem(r, 403, 'quota_exceeded');
    assert.equal(r.headers['x-quota-remaining'], '0');
  }
  assert.ok(ok.every((r) => r.body === ok[0].body && r.body.includes('Shipping day')));
  // Remaining after each success: every value from 48 down to 0, once.
  assert.deepEqual(
    ok.map((r) => Number(r.headers['x-quota-remaining'])).sort((a, b) => b - a),
    Array.from({ length: 49 }, (_, i) => 48 - i),
  );
  const ledger = await h.c.accounts.ledger(accountId);
  assert.deepEqual(
    [ledger.length, ledger.every((row) => row.kind === 'charge' && row.status === 'committed' && row.amount === 1)],
    [50, true],
  );
  assert.equal((await h.c.quota.usage((await h.c.accounts.getAccount(accountId))!)).used, 50);
  // Committed use crossed each threshold once: one e-mail each.
  assert.deepEqual(
    (await h.c.accounts.listOutbox(accountId)).map((m) => m.threshold),
    [50, 70, 90, 100],
  );
});

test('a post cached as missing is 404 again at once: no reservation, no ledger rows, quota unchanged', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey, accountId } = await h.account('pro');
  const get = (path: string) => h.app.inject({ url: path, headers: { 'x-api-key': apiKey } });
  const first = await get('/api/v1/content/1234567');
  assertProblem(first, 404, 'post_not_found');
  // The first answer asked the sources: its credit was reserved, then refunded.
  assert.deepEqual(
    (await h.c.accounts.ledger(accountId)).map((r) => r.kind),
    ['charge', 'refund'],
  );
  for (const path of ['/api/v1/content/1234567', '/api/v1/screenshot/1234567?format=png']) {
    const again = await get(path);
    assertProblem(again, 404, 'post_not_found');
    assert.equal(again.json().detail, first.json().detail);
    assert.equal(again.headers['x-quota-remaining'], '300');
  }
  assert.equal((await h.c.accounts.ledger(accountId)).length, 2);
});

test('single content accepts post URLs, encoded or not', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const url = `https://x.com/postshot_samples/status/${TEXT_POST}?s=20`;
  const encoded = await h.app.inject({
    url: `/api/v1/content/${encodeURIComponent(url)}`,
    headers: { 'x-api-key': apiKey },
  });
  assert.equal(encoded.statusCode, 200);
  const raw = await h.app.inject({
    url: `/api/v1/content/x.com/postshot_samples/status/${TEXT_POST}`,
    headers: { 'x-api-key': apiKey },
  });
  assert.equal(raw.statusCode, 200);
  assert.equal(raw.body, encoded.body);
});

test('single content: options, bad options, bad ids, missing posts cost nothing', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const get = (url: string) => h.app.inject({ url, headers: { 'x-api-key': apiKey } });
  const off = await get(`/api/v1/content/1900000000000000011?includeStats=false&includeMedia=0&includeQuoted=false`);
  assert.equal(off.statusCode, 200);
  assert.doesNotMatch(off.body, /Replies:|^>/m);
  const on = await get(`/api/v1/content/1900000000000000011?includeStats=1&includeMedia=true`);
  assert.match(on.body, /^> /m);
  // Booleans are spelled as the screenshot options' are: any case, yes and no too.
  const spelled = await get(
    `/api/v1/content/1900000000000000011?includeStats=No&includeMedia=FALSE&includeQuoted=%200%20`,
  );
  assert.equal(spelled.body, off.body);
  const yes = await get(`/api/v1/content/1900000000000000011?includeStats=YES&includeQuoted=True`);
  assert.equal(yes.body, on.body);
  const left = yes.headers['x-quota-remaining'];
  assert.equal(left, '296', 'four answers, four credits');
  const maybe = await get(`/api/v1/content/${TEXT_POST}?includeStats=maybe`);
  assertProblem(maybe, 400, 'invalid_parameter');
  assert.equal(
    maybe.json().detail,
    'Query parameter "includeStats" must be true, false, 1, 0, yes or no, got "maybe".',
  );
  for (const q of [
    'includeStats=yep',
    'includeMedia=',
    'includeQuoted=2',
    'includeStats=true&includeStats=false',
    'format=png',
  ]) {
    const r = await get(`/api/v1/content/${TEXT_POST}?${q}`);
    assertProblem(r, 400, 'invalid_parameter');
    assert.equal(r.headers['x-quota-remaining'], left, 'bad input costs nothing and still shows quota');
  }
  for (const bad of ['abc', '-1', '12345678901234567890', encodeURIComponent('https://evil.com/a/status/1')]) {
    assertProblem(await get(`/api/v1/content/${bad}`), 400, 'invalid_post_id');
  }
  const missing = await get('/api/v1/content/1234567');
  assertProblem(missing, 404, 'post_not_found');
  assert.equal(missing.headers['x-quota-remaining'], left);
  h.upstream.setFault('1900000000000000005', { status: 500 }, '*');
  const down = await get('/api/v1/content/1900000000000000005');
  assertProblem(down, 502, 'upstream_unavailable');
  h.upstream.setFault('1900000000000000006', { delayMs: 3000 }, '*');
  const slow = await get('/api/v1/content/1900000000000000006');
  assertProblem(slow, 504, 'upstream_timeout');
  assert.equal(slow.headers['x-quota-remaining'], left);
});

test('content auth statuses: 401 missing, 403 malformed or unknown', async (t) => {
  const h = await build(t);
  assertProblem(await h.app.inject({ url: `/api/v1/content/${TEXT_POST}` }), 401, 'missing_api_key');
  assertProblem(
    await h.app.inject({ url: `/api/v1/content/${TEXT_POST}`, headers: { 'x-api-key': 'nope' } }),
    403,
    'invalid_api_key',
  );
  assertProblem(
    await h.app.inject({ url: `/api/v1/content/${TEXT_POST}`, headers: { 'x-api-key': generateApiKey() } }),
    403,
    'invalid_api_key',
  );
  const bulk = await h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { 'x-api-key': generateApiKey() },
    payload: { tweetIds: ['20'] },
  });
  assertProblem(bulk, 403, 'invalid_api_key');
  assertProblem(
    await h.app.inject({ method: 'POST', url: '/api/v1/content/tweets', payload: { tweetIds: ['20'] } }),
    401,
    'missing_api_key',
  );
});

const bulk = (
  h: Awaited<ReturnType<typeof build>>,
  apiKey: string,
  payload: unknown,
  headers: Record<string, string> = {},
) =>
  h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { 'x-api-key': apiKey, ...headers },
    payload: payload as string,
  });

test('bulk: mixed good, missing, invalid and duplicate ids, in request order', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const ids = [
    TEXT_POST,
    '1234567',
    'not-an-id',
    `https://x.com/a/status/${TEXT_POST}`,
    '1900000000000000003',
    TEXT_POST,
  ];
  const res = await bulk(h, apiKey, { tweetIds: ids });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  // Each item echoes the normalized id, and what was sent as `input` when that differed.
  assert.deepEqual(
    body.results.map((r: { tweetId: string }) => r.tweetId),
    [TEXT_POST, '1234567', 'not-an-id', TEXT_POST, '1900000000000000003', TEXT_POST],
  );
  assert.deepEqual(
    body.results.map((r: { input?: string }) => r.input),
    [undefined, undefined, undefined, `https://x.com/a/status/${TEXT_POST}`, undefined, undefined],
  );
  assert.deepEqual(
    body.results.map((r: { success: boolean }) => r.success),
    [true, false, false, true, true, true],
  );
  assert.equal(body.results[1].error.code, 'post_not_found');
  assert.equal(body.results[2].error.code, 'invalid_post_id');
  assert.equal(body.results[0].markdown, body.results[3].markdown);
  assert.equal(body.total, 6);
  assert.equal(body.successful, 4);
  assert.equal(body.failed, 2);
  // Two distinct posts delivered: two credits.
  assert.equal(res.headers['x-quota-remaining'], '298');
  assert.equal(h.upstream.count('syndication', TEXT_POST), 1, 'duplicates are fetched once');
});

test('bulk: quota running out mid-request processes the first ids only', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey, accountId } = await h.account('free');
  // Spend 47 of 50 credits first.
  for (let i = 0; i < 47; i++) {
    const r = await h.app.inject({ url: `/api/v1/content/${TEXT_POST}`, headers: { 'x-api-key': apiKey } });
    assert.equal(r.statusCode, 200);
  }
  const ids = [
    '1900000000000000002',
    '1234567',
    '1900000000000000003',
    '1900000000000000004',
    '1900000000000000005',
    '1900000000000000006',
  ];
  const res = await bulk(h, apiKey, { tweetIds: ids });
  assert.equal(res.statusCode, 200);
  const r = res.json().results;
  // 3 credits: 002 ok, 1234567 missing (refunded, credit goes on), 003 ok, 004 ok, then none left.
  assert.deepEqual(
    r.map((x: { success: boolean }) => x.success),
    [true, false, true, true, false, false],
  );
  assert.equal(r[1].error.code, 'post_not_found');
  assert.equal(r[4].error.code, 'quota_exceeded');
  assert.equal(r[5].error.code, 'quota_exceeded');
  assert.equal(res.headers['x-quota-remaining'], '0');
  const usage = await h.c.quota.usage((await h.c.accounts.getAccount(accountId))!);
  assert.equal(usage.used, 50);
  const again = await bulk(h, apiKey, { tweetIds: [TEXT_POST] });
  assertProblem(again, 403, 'quota_exceeded');
  assert.equal(again.headers['x-quota-remaining'], '0');
});

test('a quota refusal says what to do: ask for a paid plan, or when the period resets', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { computePeriod } = await import('../../src/quota/period.ts');
  for (const [plan, credits] of [
    ['free', 50],
    ['pro', 300],
  ] as const) {
    const { apiKey, accountId } = await h.account(plan, `${plan}-refusal@example.com`);
    const account = (await h.c.accounts.getAccount(accountId))!;
    assert.ok((await h.c.quota.reserve(account, credits, { requestId: 'use-up', endpoint: 'content' })).ok);
    const single = await h.app.inject({ url: `/api/v1/content/${TEXT_POST}`, headers: { 'x-api-key': apiKey } });
    const many = await bulk(h, apiKey, { tweetIds: [TEXT_POST] });
    for (const res of [single, many]) {
      assertProblem(res, 403, 'quota_exceeded');
      if (plan === 'free') {
        assert.match(
          res.json().detail,
          /one-time: they do not reset\)\. Ask the operator of this service for a paid plan\./,
        );
      } else {
        const end = computePeriod(plan, account.anchor, Date.now()).end!;
        assert.match(res.json().detail, new RegExp(`resets at ${new Date(end).toISOString()}\\.$`));
      }
    }
  }
});

test('bulk: body validation', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const many = Array.from({ length: 101 }, (_, i) => String(i + 1));
  assertProblem(await bulk(h, apiKey, { tweetIds: many }), 400, 'too_many_ids');
  assertProblem(await bulk(h, apiKey, { tweetIds: [] }), 400, 'invalid_body');
  assertProblem(await bulk(h, apiKey, { tweetIds: '20' }), 400, 'invalid_body');
  assertProblem(await bulk(h, apiKey, { tweetIds: [20] }), 400, 'invalid_body');
  assertProblem(await bulk(h, apiKey, { tweetIds: [null] }), 400, 'invalid_body');
  assertProblem(await bulk(h, apiKey, [TEXT_POST]), 400, 'invalid_body');
  assertProblem(await bulk(h, apiKey, {}), 400, 'invalid_body');
  // A body field the route would not read is refused, not ignored: the options are query parameters.
  const option = await bulk(h, apiKey, { tweetIds: [TEXT_POST], includeStats: false });
  assertProblem(option, 400, 'invalid_body');
  assert.match(option.json().detail, /"includeStats" is a query parameter here.*\?includeStats=false/);
  const typo = await bulk(h, apiKey, { ids: [TEXT_POST] });
  assertProblem(typo, 400, 'invalid_body');
  assert.match(typo.json().detail, /Unknown body field "ids": the body holds only "tweetIds"/);
  const broken = await bulk(h, apiKey, '{"tweetIds": [', { 'content-type': 'application/json' });
  assertProblem(broken, 400, 'invalid_body');
  assert.match(broken.json().detail, /not valid JSON/);
  for (const body of [
    '{"tweetIds":["20"],"__proto__":{"x":1}}',
    '{"tweetIds":["20"],"constructor":{"prototype":{}}}',
  ]) {
    const refused = await bulk(h, apiKey, body, { 'content-type': 'application/json' });
    assertProblem(refused, 400, 'invalid_body');
    assert.match(refused.json().detail, /__proto__/, 'valid JSON, refused for its key');
  }
  assertProblem(await bulk(h, apiKey, 'tweetIds=20', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  assertProblem(
    await bulk(h, apiKey, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }),
    415,
    'unsupported_media_type',
  );
  // A compressed body is refused for its coding, not misread: gzip is no "invalid UTF-8", and a
  // coding whose bytes happen to be plain JSON is not read as if it had none.
  const plain = JSON.stringify({ tweetIds: [TEXT_POST] });
  for (const [coding, payload] of [
    ['gzip', gzipSync(plain)],
    ['br', Buffer.from(plain)],
  ] as const) {
    const coded = await bulk(h, apiKey, payload, { 'content-type': 'application/json', 'content-encoding': coding });
    assertProblem(coded, 415, 'unsupported_media_type');
    assert.match(coded.json().detail, new RegExp(`Content-Encoding "${coding}" is not supported`));
    assert.equal(coded.headers['accept-encoding'], 'identity');
  }
  assert.equal(
    (await bulk(h, apiKey, plain, { 'content-type': 'application/json', 'content-encoding': 'identity' })).statusCode,
    200,
  );
  const big = JSON.stringify({ tweetIds: [TEXT_POST], pad: 'x'.repeat(70 * 1024) });
  assertProblem(await bulk(h, apiKey, big, { 'content-type': 'application/json' }), 413, 'payload_too_large');
  const res = await bulk(h, apiKey, { tweetIds: [TEXT_POST] });
  assert.equal(res.headers['x-quota-remaining'], '298', 'none of the refused requests cost anything');
});

test('bulk: 100 ids are fetched 32 at a time (4 round trips of a 100 ms upstream)', async (t) => {
  const h = await build(t, { env: { ...NO_RATE, POSTSHOT_SOURCES: 'syndication' } });
  const { apiKey } = await h.account('business');
  // 100 distinct ids: all missing upstream, each answered after 100 ms.
  const ids = Array.from({ length: 100 }, (_, i) => String(5_000_000 + i));
  for (const id of ids) h.upstream.setFault(id, { delayMs: 100 }, 'syndication');
  h.upstream.resetCounts();
  const res = await bulk(h, apiKey, { tweetIds: ids });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().failed, 100);
  // Concurrency is the behaviour under test: bounded, yet far from sequential (100 × 100 ms).
  const seen = ids.reduce((n, id) => n + h.upstream.count('syndication', id), 0);
  assert.equal(seen, 100);
  // 32 at a time: 100 ids take 4 upstream round trips (~400 ms), not 100.
  assert.equal(h.upstream.peakConcurrency(), 32);
});

test("an unencoded share link's ?s= / ?t= is refused with a hint to URL-encode the post's URL", async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const get = (url: string) => h.app.inject({ url, headers: { 'x-api-key': apiKey } });
  const link = 'https://twitter.com/acme/status/1900000000000000008';
  for (const url of [
    `/api/v1/content/${link}?s=20`,
    `/api/v1/content/${link}?s=20&t=AbCdEf`,
    `/api/v1/screenshot/${link}?t=AbCdEf`,
  ]) {
    const res = await get(url);
    assertProblem(res, 400, 'invalid_parameter');
    assert.match(
      res.json().detail,
      /^Unknown query parameter "[st]"\. It looks like part of the post's URL .*URL-encode/,
    );
    assert.equal(res.headers['x-quota-remaining'], '300', `${url} costs nothing`);
  }
  // A numeric id, or another unknown name beside s: the plain refusal listing what is allowed.
  for (const url of [`/api/v1/content/${TEXT_POST}?s=20`, `/api/v1/content/${link}?s=20&bogus=1`]) {
    const res = await get(url);
    assertProblem(res, 400, 'invalid_parameter');
    assert.match(res.json().detail, /Allowed: includeStats/);
  }
  const encoded = await get(`/api/v1/content/${encodeURIComponent(`${link}?s=20`)}`);
  assert.notEqual(encoded.statusCode, 400, 'the encoded share link is a post URL');
});

test('an invalid post id says why once, and asks for URL-encoding only in a path', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const res = await bulk(h, apiKey, { tweetIds: ['abc', 'https://example.com/status/1', TEXT_POST] });
  const [word, host] = res.json().results as Array<{ error: { message: string } }>;
  // A URL in a JSON body goes as it is: encoding it is no part of the advice there.
  for (const { error } of [word, host]) assert.doesNotMatch(error.message, /encod/i);
  assert.match(word.error.message, /^"abc" is not a post id or post URL\. Send a post id/);
  assert.match(host.error.message, /"example\.com" is not an X post URL host\. Send/);

  const single = await h.app.inject({ url: '/api/v1/content/abc', headers: { 'x-api-key': apiKey } });
  assertProblem(single, 400, 'invalid_post_id');
  assert.match(single.json().detail, /^"abc" is not a post id or post URL\. Send .*URL-encoded\.$/);
  const empty = await h.app.inject({ url: '/api/v1/content/%20', headers: { 'x-api-key': apiKey } });
  assertProblem(empty, 400, 'invalid_post_id');
  assert.match(empty.json().detail, /^The post id is empty\. Send/);
});

test('bulk: a post id sent as a JSON number is refused with why a string is needed', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  // What JSON.stringify sends for a numeric id: 1900000000000000001 has become ...000.
  const res = await bulk(h, apiKey, '{"tweetIds": ["20", 1900000000000000001]}', {
    'content-type': 'application/json',
  });
  assertProblem(res, 400, 'invalid_body');
  assert.match(res.json().detail, /"tweetIds\[1\]" must be a string, not a number: .*lose their last digits/);
  assert.equal(res.headers['x-quota-remaining'], '300');
});
