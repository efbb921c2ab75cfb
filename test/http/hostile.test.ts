import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { build } from '../helper.ts';

// Generated hostile input: every answer is a 4xx problem+json, never a 5xx, never a charge.

const HOSTILE_IDS: string[] = [
  '-1',
  '-9223372036854775808',
  '0',
  '00',
  '1'.repeat(20),
  '9'.repeat(40),
  '9223372036854775808',
  '1e3',
  '0x1F',
  '1.5',
  '+5',
  ' ',
  '١٢٣٤٥',
  '１２３４５',
  '१२३',
  '𝟏𝟐𝟑',
  '12\u200b34',
  '12\u0000',
  '%00',
  '%2500',
  '..',
  '../',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '\\..\\..\\windows',
  'null',
  'undefined',
  'NaN',
  'true',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '; DROP TABLE accounts;',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent literally
  '${7*7}',
  '{{7*7}}',
  '%n%s%x',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data',
  'https://evil.com/jack/status/20',
  'https://x.com.evil.com/jack/status/20',
  'https://evil.com/?u=https://x.com/jack/status/20',
  'https://x.com@evil.com/jack/status/20',
  'https://x.com:444/jack/status/20',
  'https://x.com/jack/status/20/../../admin',
  'https://x.com/jack/status/-20',
  'https://x.com/jack/status/١٢',
  'ftp://x.com/jack/status/20',
  'x.com/jack/status/',
  'x.com/jack',
  'https://x.com/i/status/',
  '🙂',
  '🙂'.repeat(50),
  'a'.repeat(600),
  '2'.repeat(300),
  `psk_${'a'.repeat(38)}`,
];

function encodeForPath(id: string): string {
  return encodeURIComponent(id);
}

const QUERIES: string[] = [
  'format=',
  'format=PNGG',
  'width=1e3',
  'width=-400',
  'width=0x200',
  'scale=2.0',
  'aspectRatio=4:5:6',
  'height=auto%00',
  'timeZoneOffset=UTC%2B99',
  'containerBackground=url(http://127.0.0.1/)',
  'containerBackground=linear-gradient(90deg,%23fff,%23000)%3Bx:y',
  'backgroundImage=file:///etc/passwd',
  'backgroundImage=https://user:pw@pbs.twimg.com/a.png',
  'backgroundImage=https://pbs.twimg.com:8443/a.png',
  'format=png%00',
  'format=png&format=svg',
  'format[]=png',
  'format[a]=png',
  'theme=',
  'theme=light,dark',
  'theme=%F0%9F%99%82',
  'returnType=URLS',
  'returnType=url&returnType=url',
  `format=${'x'.repeat(5000)}`,
  'unknown=1',
  '__proto__=1',
  'constructor=x',
  'format=svg&extra=',
  'includeStats=yep',
  'includeStats=%00',
  'includeStats=2',
  'includeStats=',
  'includeMedia=TRUE1',
  'includeQuoted[]=1',
  'includeStats=true&includeStats=true',
  '=',
  '%',
  '%zz=1',
  'a&&b',
];

const BODIES: Array<[string, string, string?]> = [
  ['string', '"20"'],
  ['number', '20'],
  ['null', 'null'],
  ['true', 'true'],
  ['array', '["20"]'],
  ['empty object', '{}'],
  ['tweetIds null', '{"tweetIds":null}'],
  ['tweetIds object', '{"tweetIds":{"0":"20"}}'],
  ['tweetIds number', '{"tweetIds":20}'],
  ['nested arrays', '{"tweetIds":[["20"]]}'],
  ['objects', '{"tweetIds":[{"id":"20"}]}'],
  ['numbers', '{"tweetIds":[20,21]}'],
  ['booleans', '{"tweetIds":[true]}'],
  ['nulls', '{"tweetIds":[null]}'],
  ['empty', '{"tweetIds":[]}'],
  ['101 ids', JSON.stringify({ tweetIds: Array.from({ length: 101 }, (_, i) => String(i + 1)) })],
  ['proto', '{"__proto__":{"admin":true},"tweetIds":["20"]}'],
  ['nested proto', '{"tweetIds":["20"],"x":{"__proto__":{"a":1}}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"a":1}},"tweetIds":["20"]}'],
  ['truncated', '{"tweetIds":["20"'],
  ['trailing garbage', '{"tweetIds":["20"]}xyz'],
  ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['empty body', ''],
  ['text plain', 'tweetIds=20', 'text/plain'],
  ['form', 'tweetIds=20', 'application/x-www-form-urlencoded'],
  ['xml', '<tweetIds/>', 'application/xml'],
  ['json with charset junk', '{"tweetIds":5}', 'application/json; charset=bogus'],
];

function assertClean(res: { statusCode: number; headers: Record<string, unknown>; body: string }, label: string): void {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${label}: got ${res.statusCode} ${res.body.slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/, label);
  const body = JSON.parse(res.body);
  assert.equal(body.status, res.statusCode, label);
  assert.match(body.code, /^[a-z_]+$/, label);
}

test('hostile ids, queries, bodies and headers: all 4xx problem+json, none charged', async (t) => {
  const h = await build(t, { env: { POSTSHOT_RATE_LIMITS: 'pro=1000000', POSTSHOT_AUTH_FAILURE_LIMIT: '1000000' } });
  const { apiKey, accountId } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  let cases = 0;
  const check = async (label: string, req: InjectOptions) => {
    const res = await h.app.inject(req);
    assertClean(res, label);
    cases++;
  };

  for (const id of HOSTILE_IDS) {
    for (const base of ['/api/v1/screenshot/', '/api/v1/content/']) {
      await check(`${base}${id.slice(0, 40)}`, { url: `${base}${encodeForPath(id)}`, headers });
    }
  }
  for (const q of QUERIES) {
    await check(`screenshot ?${q.slice(0, 40)}`, { url: `/api/v1/screenshot/1900000000000000001?${q}`, headers });
    await check(`content ?${q.slice(0, 40)}`, { url: `/api/v1/content/1900000000000000001?${q}`, headers });
    await check(`usage ?${q.slice(0, 40)}`, { url: `/api/v1/usage?${q}`, headers });
  }
  for (const [label, payload, type] of BODIES) {
    await check(`bulk ${label}`, {
      method: 'POST',
      url: '/api/v1/content/tweets',
      headers: { ...headers, 'content-type': type ?? 'application/json' },
      payload,
    });
  }
  await check('bulk 10 MB', {
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: `{"tweetIds":["${'1'.repeat(10 * 1024 * 1024)}"]}`,
  });
  await check('bulk invalid UTF-8', {
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: Buffer.concat([Buffer.from('{"tweetIds":["'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"]}')]),
  });
  // A bulk request whose ids are all hostile is a valid request: 200, every item failed, no charge.
  const allBad = await h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ tweetIds: HOSTILE_IDS.filter((id) => !/^\d+$/.test(id)).slice(0, 100) }),
  });
  assert.equal(allBad.statusCode, 200);
  assert.equal(allBad.json().successful, 0);
  assert.ok(allBad.json().results.every((r: { error: { code: string } }) => r.error.code === 'invalid_post_id'));
  for (const [label, hdrs] of [
    ['huge key', { 'x-api-key': 'k'.repeat(8000) }],
    ['two keys', { 'x-api-key': [apiKey, apiKey] }],
    ['key with spaces', { 'x-api-key': ` ${apiKey} ` }],
    ['key in lower case', { 'x-api-key': apiKey.toLowerCase() }],
    ['unicode key', { 'x-api-key': `psk_${'é'.repeat(38)}` }],
    ['empty key', { 'x-api-key': '' }],
    ['huge other header', { 'x-api-key': 'bad', 'x-junk': 'j'.repeat(8000) }],
  ] as const) {
    for (const url of ['/api/v1/usage', '/api/v1/screenshot/20', '/api/v1/content/20']) {
      await check(`${label} ${url}`, { url, headers: hdrs as unknown as Record<string, string> });
    }
  }
  const usage = await h.c.quota.usage((await h.c.accounts.getAccount(accountId))!);
  assert.equal(usage.used, 0, 'nothing was charged');
  assert.equal((await h.c.accounts.ledger(accountId)).length, 0, 'no ledger row at all');
  assert.ok(cases >= 200, `${cases} cases`);
  t.diagnostic(`${cases} hostile requests, all 4xx problem+json, none charged`);
});
