// Response headers clients and browsers rely on: CORS, compression, caching, framing, and
// conditional and range requests on hosted images.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { loadConfig } from '../../src/config.ts';
import { assertProblem, build } from '../helper.ts';

const POST = '1900000000000000008';
const TEXT_POST = '1900000000000000001';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };

test('CORS: hosted images from any origin; the API only from POSTSHOT_CORS_ORIGINS', async (t) => {
  const closed = await build(t, { env: NO_RATE });
  const a = await closed.account('pro');
  const fromPage = { origin: 'https://app.example.com' };
  const denied = await closed.app.inject({ url: '/api/v1/usage', headers: { ...fromPage, 'x-api-key': a.apiKey } });
  assert.equal(denied.statusCode, 200);
  assert.equal(denied.headers['access-control-allow-origin'], undefined, 'no origin allowed by default');
  const stored = await closed.app.inject({
    url: `/api/v1/screenshot/${POST}?returnType=url&format=png`,
    headers: { 'x-api-key': a.apiKey },
  });
  const image = new URL(stored.json().url).pathname;
  const img = await closed.app.inject({ url: image, headers: fromPage });
  assert.equal(img.statusCode, 200);
  assert.equal(img.headers['access-control-allow-origin'], '*');
  assert.match(String(img.headers['access-control-expose-headers']), /ETag/);
  const imgPreflight = await closed.app.inject({
    method: 'OPTIONS',
    url: image,
    headers: { ...fromPage, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
  });
  assert.equal(imgPreflight.statusCode, 204);
  assert.equal(imgPreflight.headers['access-control-allow-origin'], '*');
  assert.match(String(imgPreflight.headers['access-control-allow-headers']), /Range/);
  assert.equal(imgPreflight.headers['cache-control'], 'max-age=600', "a preflight is cached, as the API's is");

  const open = await build(t, {
    env: { ...NO_RATE, POSTSHOT_CORS_ORIGINS: 'https://app.example.com, http://localhost:3000' },
  });
  const b = await open.account('pro');
  const preflight = await open.app.inject({
    method: 'OPTIONS',
    url: '/api/v1/content/tweets',
    headers: {
      ...fromPage,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-api-key, content-type',
    },
  });
  assert.equal(preflight.statusCode, 204);
  assert.equal(preflight.headers['cache-control'], 'max-age=600');
  assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example.com');
  assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
  assert.match(String(preflight.headers['access-control-allow-headers']), /X-API-KEY/);
  assert.match(String(preflight.headers['access-control-allow-headers']), /Content-Type/);
  assert.ok(preflight.headers['x-request-id']);
  const call = await open.app.inject({
    url: `/api/v1/content/${TEXT_POST}`,
    headers: { ...fromPage, 'x-api-key': b.apiKey },
  });
  assert.equal(call.statusCode, 200);
  assert.equal(call.headers['access-control-allow-origin'], 'https://app.example.com');
  assert.match(String(call.headers.vary), /Origin/i);
  const exposed = String(call.headers['access-control-expose-headers']);
  for (const name of ['X-Quota-Remaining', 'X-Quota-Limit', 'RateLimit-Remaining', 'Retry-After', 'X-Request-Id']) {
    assert.match(exposed, new RegExp(name), name);
  }
  const refused = await open.app.inject({ url: '/api/v1/usage', headers: { origin: 'http://localhost:3000' } });
  assertProblem(refused, 401, 'missing_api_key');
  assert.equal(refused.headers['access-control-allow-origin'], 'http://localhost:3000', 'errors are readable too');
  const other = await open.app.inject({
    url: '/api/v1/usage',
    headers: { origin: 'https://evil.example', 'x-api-key': b.apiKey },
  });
  assert.equal(other.headers['access-control-allow-origin'], undefined);

  assert.throws(() => loadConfig({ POSTSHOT_CORS_ORIGINS: 'https://app.example.com/path' }), /POSTSHOT_CORS_ORIGINS/);
  assert.throws(() => loadConfig({ POSTSHOT_CORS_ORIGINS: 'app.example.com' }), /POSTSHOT_CORS_ORIGINS/);
});

test('compression: br or gzip for SVG, HTML, Markdown and JSON when asked; never for PNG', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('business');
  const get = (url: string, encoding?: string) =>
    h.app.inject({ url, headers: { 'x-api-key': apiKey, ...(encoding ? { 'accept-encoding': encoding } : {}) } });
  const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const;
  for (const [url, encoding] of [
    [`/api/v1/screenshot/${POST}`, 'gzip'],
    [`/api/v1/screenshot/${POST}?format=html`, 'br'],
    [`/api/v1/screenshot/${POST}?format=html`, 'gzip, deflate, br'],
    [`/api/v1/content/${TEXT_POST}`, 'gzip'],
  ] as const) {
    const plain = await get(url);
    assert.equal(plain.headers['content-encoding'], undefined, url);
    const packed = await get(url, encoding);
    const used = packed.headers['content-encoding'] as 'br' | 'gzip';
    assert.ok(used === 'br' || used === 'gzip', `${url}: ${used}`);
    if (encoding !== 'gzip') assert.equal(used, 'br', 'br is preferred when both are accepted');
    assert.match(String(packed.headers.vary), /accept-encoding/i);
    assert.ok(packed.rawPayload.length < plain.rawPayload.length * 0.9, `${url}: ${packed.rawPayload.length}`);
    assert.equal(decode[used](packed.rawPayload).toString(), plain.body, url);
    assert.equal(packed.headers['content-type'], plain.headers['content-type']);
  }
  const bulk = await h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { 'x-api-key': apiKey, 'accept-encoding': 'gzip' },
    payload: { tweetIds: [TEXT_POST, POST, '1900000000000000003'] },
  });
  assert.equal(bulk.headers['content-encoding'], 'gzip');
  assert.equal(JSON.parse(zlib.gunzipSync(bulk.rawPayload).toString()).successful, 3);
  // `*` is every encoding not named otherwise: never one the client refused with q=0.
  for (const [accepted, used] of [
    ['gzip;q=0, *', 'br'],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0, *', undefined],
  ] as const) {
    const res = await get(`/api/v1/content/${TEXT_POST}`, accepted);
    assert.equal(res.headers['content-encoding'], used, accepted);
  }
  const png = await get(`/api/v1/screenshot/${POST}?format=png`, 'gzip, br');
  assert.equal(png.headers['content-encoding'], undefined);
  assert.equal(png.rawPayload.subarray(1, 4).toString(), 'PNG');
});

test('caching headers: buffer screenshots and content private 5 min, usage and URLs no-store', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const get = (url: string) => h.app.inject({ url, headers: { 'x-api-key': apiKey } });
  for (const [query, ext] of [
    ['', 'svg'],
    ['?format=png', 'png'],
    ['?format=html', 'html'],
  ]) {
    const r = await get(`/api/v1/screenshot/${POST}${query}`);
    assert.equal(r.headers['cache-control'], 'private, max-age=300');
    assert.equal(r.headers['content-disposition'], `inline; filename="post-${POST}.${ext}"`);
  }
  const md = await get(`/api/v1/content/${TEXT_POST}`);
  assert.equal(md.headers['cache-control'], 'private, max-age=300');
  assert.equal((await get('/api/v1/usage')).headers['cache-control'], 'no-store');
  const url = await get(`/api/v1/screenshot/${POST}?returnType=url`);
  assert.equal(url.headers['cache-control'], 'no-store');
  assert.equal(url.headers['content-disposition'], undefined);
  const refused = await get(`/api/v1/screenshot/${POST}?format=gif`);
  assert.equal(refused.headers['cache-control'], 'no-store');
});

test('framing: SVG and HTML screenshots may be embedded; JSON and errors keep X-Frame-Options DENY', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const get = (url: string) => h.app.inject({ url, headers: { 'x-api-key': apiKey } });
  for (const query of ['', '?format=html']) {
    const r = await get(`/api/v1/screenshot/${POST}${query}`);
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['x-frame-options'], undefined, query);
    assert.match(String(r.headers['content-security-policy']), /frame-ancestors \*/);
  }
  for (const url of ['/api/v1/usage', `/api/v1/screenshot/${POST}?format=bmp`, '/api/v1/screenshot/abc']) {
    assert.equal((await get(url)).headers['x-frame-options'], 'DENY', url);
  }
  const stored = await get(`/api/v1/screenshot/${POST}?returnType=url&format=html`);
  assert.equal(stored.headers['x-frame-options'], 'DENY');
  const hosted = await h.app.inject({ url: new URL(stored.json().url).pathname });
  assert.equal(hosted.headers['x-frame-options'], undefined);
  assert.match(String(hosted.headers['content-security-policy']), /frame-ancestors \*/);
});

test('hosted images: strong ETag, Last-Modified, 304, byte ranges', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const stored = await h.app.inject({
    url: `/api/v1/screenshot/${POST}?returnType=url&format=png`,
    headers: { 'x-api-key': apiKey },
  });
  const path = new URL(stored.json().url).pathname;
  const hash = /([0-9a-f]{64})\.png$/.exec(path)![1];
  const full = await h.app.inject({ url: path, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(full.statusCode, 200);
  assert.equal(full.headers.etag, `"${hash}"`);
  assert.equal(full.headers['accept-ranges'], 'bytes');
  assert.equal(full.headers['content-encoding'], undefined);
  const lastModified = String(full.headers['last-modified']);
  assert.ok(Math.abs(Date.parse(lastModified) - Date.now()) < 120_000, lastModified);
  const bytes = full.rawPayload;
  assert.equal(bytes.length, Number(full.headers['content-length']));

  const head = await h.app.inject({ method: 'HEAD', url: path });
  assert.equal(head.statusCode, 200);
  assert.equal(head.headers.etag, `"${hash}"`);
  assert.equal(head.headers['content-length'], String(bytes.length));

  for (const conditional of [
    { 'if-none-match': `"${hash}"` },
    { 'if-none-match': `"other", W/"${hash}"` },
    { 'if-modified-since': lastModified },
    // What fetch() sends with a conditional header: the origin still answers the condition.
    { 'if-none-match': `"${hash}"`, 'cache-control': 'no-cache', pragma: 'no-cache' },
    { 'if-modified-since': lastModified, 'cache-control': 'no-cache', pragma: 'no-cache' },
  ]) {
    const r = await h.app.inject({ url: path, headers: conditional });
    assert.equal(r.statusCode, 304, JSON.stringify(conditional));
    assert.equal(r.rawPayload.length, 0);
    assert.equal(r.headers.etag, `"${hash}"`);
  }
  assert.equal((await h.app.inject({ url: path, headers: { 'if-none-match': '"other"' } })).statusCode, 200);
  // If-Match and If-Unmodified-Since name the copy a client holds: another is 412, never sent.
  for (const [conditional, status] of [
    [{ 'if-match': '"other"', range: 'bytes=0-9' }, 412],
    [{ 'if-match': `W/"${hash}"` }, 412],
    [{ 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' }, 412],
    [{ 'if-match': `"other", "${hash}"` }, 200],
    [{ 'if-match': '*' }, 200],
    [{ 'if-unmodified-since': lastModified }, 200],
    [{ 'if-unmodified-since': 'not a date' }, 200],
  ] as const) {
    const r = await h.app.inject({ url: path, headers: conditional });
    assert.equal(r.statusCode, status, JSON.stringify(conditional));
    if (status === 412) assert.equal(r.json().code, 'precondition_failed');
  }

  const part = await h.app.inject({ url: path, headers: { range: 'bytes=100-199', 'accept-encoding': 'gzip' } });
  assert.equal(part.statusCode, 206);
  assert.equal(part.headers['content-range'], `bytes 100-199/${bytes.length}`);
  assert.deepEqual(part.rawPayload, bytes.subarray(100, 200));
  const tail = await h.app.inject({ url: path, headers: { range: 'bytes=-16' } });
  assert.equal(tail.statusCode, 206);
  assert.deepEqual(tail.rawPayload, bytes.subarray(bytes.length - 16));
  const resumed = await h.app.inject({ url: path, headers: { range: 'bytes=10-', 'if-range': `"${hash}"` } });
  assert.equal(resumed.statusCode, 206);
  assert.deepEqual(resumed.rawPayload, bytes.subarray(10));
  const changed = await h.app.inject({ url: path, headers: { range: 'bytes=10-', 'if-range': '"other"' } });
  assert.equal(changed.statusCode, 200, 'If-Range naming another version gets the whole image');
  assert.equal(changed.rawPayload.length, bytes.length);
  const beyond = await h.app.inject({ url: path, headers: { range: `bytes=${bytes.length + 10}-` } });
  assertProblem(beyond, 416, 'range_not_satisfiable');
  assert.equal(beyond.headers['content-range'], `bytes */${bytes.length}`);
  // A Range that does not parse is ignored (RFC 9110 §14.1.1), not found unsatisfiable.
  for (const range of ['pages=1-2', 'bytes=5-1', 'bytes=abc', 'bytes=', 'bytes=0-1,x', 'bytes=1-2-3']) {
    const garbage = await h.app.inject({ url: path, headers: { range } });
    assert.equal(garbage.statusCode, 200, range);
    assert.equal(garbage.rawPayload.length, bytes.length, range);
  }
});

test('hosted images: a suffix longer than the image is all of it; the range unit is case-insensitive', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const stored = await h.app.inject({
    url: `/api/v1/screenshot/${POST}?returnType=url&format=png`,
    headers: { 'x-api-key': apiKey },
  });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}${new URL(stored.json().url).pathname}`;
  const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
  const size = bytes.length;
  const ranged = async (range: string) => {
    const res = await fetch(url, { headers: { range } });
    return {
      status: res.status,
      contentRange: res.headers.get('content-range'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };
  // RFC 9110 §14.1.3: a suffix longer than the representation selects all of it.
  for (const range of [`bytes=-${size + 200_000}`, `bytes=-${size}`, 'bytes= -99999999999999999999']) {
    const whole = await ranged(range);
    assert.deepEqual([whole.status, whole.contentRange], [206, `bytes 0-${size - 1}/${size}`], range);
    assert.ok(whole.body.equals(bytes), range);
  }
  // §14.1: the range unit is case-insensitive.
  for (const range of ['BYTES=0-1', 'Bytes=-16']) {
    const part = await ranged(range);
    assert.equal(part.status, 206, range);
    assert.ok(part.body.equals(range === 'BYTES=0-1' ? bytes.subarray(0, 2) : bytes.subarray(size - 16)), range);
  }
  // A zero-length suffix selects nothing: still unsatisfiable.
  const empty = await ranged('bytes=-0');
  assert.deepEqual([empty.status, empty.contentRange], [416, `bytes */${size}`]);
});
