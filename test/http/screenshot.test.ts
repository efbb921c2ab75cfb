import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { PNG } from 'pngjs';
import { generateApiKey } from '../../src/auth/api-key.ts';
import { assertProblem, build } from '../helper.ts';
import { CRAFTED_POSTS } from '../integration/crafted-posts.ts';

const POST = '1900000000000000008';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };

test('screenshot: SVG by default, PNG at 2x, HTML; one credit each; quota headers', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const get = (q = '') => h.app.inject({ url: `/api/v1/screenshot/${POST}${q}`, headers: { 'x-api-key': apiKey } });

  const svg = await get();
  assert.equal(svg.statusCode, 200);
  assert.equal(svg.headers['content-type'], 'image/svg+xml');
  assert.equal(XMLValidator.validate(svg.body), true);
  assert.match(svg.body, /^<svg [^>]*width="550"/);
  assert.equal(svg.headers['x-quota-remaining'], '299');

  const png = await get('?format=png&theme=dim');
  assert.equal(png.statusCode, 200);
  assert.equal(png.headers['content-type'], 'image/png');
  const image = PNG.sync.read(png.rawPayload);
  assert.equal(image.width, 1100, 'PNG is rendered at 2x the 550 px card');
  assert.ok(image.height > 600);
  // Dim theme: the card background near the top-left corner is X's dark blue.
  const at = (x: number, y: number) =>
    Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3));
  assert.deepEqual(at(200, 10), [0x15, 0x20, 0x2b]);
  assert.equal(png.headers['x-quota-remaining'], '298');

  const html = await get('?format=html&theme=light');
  assert.equal(html.statusCode, 200);
  assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(html.body, /^<!doctype html>/);
  assert.doesNotMatch(html.body, /<script|https?:\/\/(?!x\.com)[^"\s]*\.(png|jpg|woff)/i);
  assert.match(String(html.headers['content-security-policy']), /default-src 'none'/);
  assert.equal(html.headers['x-quota-remaining'], '297');
});

test('screenshot: parameters are validated and name the allowed values; refusals cost nothing', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const get = (q: string) => h.app.inject({ url: `/api/v1/screenshot/${POST}?${q}`, headers: { 'x-api-key': apiKey } });
  const cases: Array<[string, RegExp]> = [
    ['format=jpg', /format.*svg, png, html, jpeg, webp.*"jpg"/],
    ['theme=blue', /theme.*light, dark, dim/],
    ['returnType=json', /returnType.*buffer, url/],
    ['format=png&format=svg', /format/],
    ['format=', /format/],
    ['fromat=png', /Unknown query parameter "fromat"/],
  ];
  for (const [q, detail] of cases) {
    const r = await get(q);
    assertProblem(r, 400, 'invalid_parameter');
    assert.match(r.json().detail, detail, q);
    assert.equal(r.headers['x-quota-remaining'], '300');
  }
  assertProblem(
    await h.app.inject({ url: '/api/v1/screenshot/abc', headers: { 'x-api-key': apiKey } }),
    400,
    'invalid_post_id',
  );
  const missing = await h.app.inject({ url: '/api/v1/screenshot/42', headers: { 'x-api-key': apiKey } });
  assertProblem(missing, 404, 'post_not_found');
  assert.equal(missing.headers['x-quota-remaining'], '300');
});

test('screenshot auth statuses: 401 for missing, malformed and unknown keys', async (t) => {
  const h = await build(t);
  assertProblem(await h.app.inject({ url: `/api/v1/screenshot/${POST}` }), 401, 'missing_api_key');
  assertProblem(
    await h.app.inject({ url: `/api/v1/screenshot/${POST}`, headers: { 'x-api-key': 'psk_x' } }),
    401,
    'invalid_api_key',
  );
  assertProblem(
    await h.app.inject({ url: `/api/v1/screenshot/${POST}`, headers: { 'x-api-key': generateApiKey() } }),
    401,
    'invalid_api_key',
  );
});

test('returnType=url: free plan refused for free; paid plan gets a hosted, immutable image', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const free = await h.account('free');
  const refused = await h.app.inject({
    url: `/api/v1/screenshot/${POST}?returnType=url`,
    headers: { 'x-api-key': free.apiKey },
  });
  assertProblem(refused, 403, 'plan_restricted');
  assert.match(refused.json().detail, /returnType=buffer, or ask the operator of this service for a paid plan/);
  assert.equal(refused.headers['x-quota-remaining'], '50');

  const pro = await h.account('pro');
  const res = await h.app.inject({
    url: `/api/v1/screenshot/${encodeURIComponent(`https://x.com/acme/status/${POST}`)}?returnType=url&format=png`,
    headers: { 'x-api-key': pro.apiKey },
  });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.format, 'png');
  assert.equal(body.tweetId, POST);
  const m = /^http:\/\/127\.0\.0\.1:8080\/images\/([0-9a-f]{64})\.png$/.exec(body.url);
  assert.ok(m, body.url);
  const served = await h.app.inject({ url: `/images/${m![1]}.png` });
  assert.equal(served.statusCode, 200);
  assert.equal(served.headers['content-type'], 'image/png');
  assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(PNG.sync.read(served.rawPayload).width, 1100);
  // Same content, same name: the second render is stored once.
  const again = await h.app.inject({
    url: `/api/v1/screenshot/${POST}?returnType=url&format=png`,
    headers: { 'x-api-key': pro.apiKey },
  });
  assert.equal(again.json().url, body.url);
  assertProblem(await h.app.inject({ url: `/images/${'0'.repeat(64)}.png` }), 404, 'not_found');
  assertProblem(await h.app.inject({ url: '/images/..%2F..%2Fpostshot.db' }), 404, 'not_found');
});

test('a media fetch that fails draws a placeholder, not a failed screenshot', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  h.upstream.setFault('PS4a', { status: 500 }, 'media');
  h.upstream.setFault('PS4b', { reset: true }, 'media');
  const res = await h.app.inject({ url: `/api/v1/screenshot/${POST}?format=png`, headers: { 'x-api-key': apiKey } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['x-quota-remaining'], '299');
});

test('a render past the time limit is 504 render_timeout, costs nothing, and the service carries on', async (t) => {
  // 100 ms is less than a cold render worker needs to start, load the engine and register fonts.
  const h = await build(t, { env: { ...NO_RATE, POSTSHOT_RENDER_TIMEOUT_MS: '100' } });
  const { apiKey } = await h.account('pro');
  const res = await h.app.inject({ url: `/api/v1/screenshot/${POST}?format=png`, headers: { 'x-api-key': apiKey } });
  assertProblem(res, 504, 'render_timeout');
  assert.match(res.json().detail, /took too long.*format=svg/);
  assert.equal(res.headers['x-quota-remaining'], '300');
  const svg = await h.app.inject({ url: `/api/v1/screenshot/${POST}?format=svg`, headers: { 'x-api-key': apiKey } });
  assertProblem(svg, 504, 'render_timeout');
  assert.doesNotMatch(svg.json().detail, /format=svg/, 'not suggested when asked for');
  const md = await h.app.inject({ url: `/api/v1/content/${POST}`, headers: { 'x-api-key': apiKey } });
  assert.equal(md.statusCode, 200);
  assert.equal((await h.app.inject({ url: '/healthz' })).statusCode, 200);
});

test('cards waiting past the time limit for a render process are 503 with Retry-After and cost nothing', async (t) => {
  const env = { ...NO_RATE, POSTSHOT_RENDER_WORKERS: '1', POSTSHOT_RENDER_TIMEOUT_MS: '4000' };
  const h = await build(t, { env });
  const { apiKey } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  const get = (q: string) => h.app.inject({ url: `/api/v1/screenshot/${POST}?format=png${q}`, headers });
  assert.equal((await get('&width=500')).statusCode, 200, 'the render process is started');
  // A machine too busy to draw: the process takes a card and draws nothing; at the time limit the
  // pool kills it, and the cards still queued are refused.
  const [pid] = h.c.renderer.pids();
  process.kill(pid, 'SIGSTOP');
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => get(`&width=${400 + i * 10}`)));
  const statuses = answers.map((r) => r.statusCode);
  const busy = answers.filter((r) => r.statusCode === 503);
  assert.ok(busy.length >= 3, `cards still queued at the limit are refused: ${statuses}`);
  assert.ok(
    statuses.every((s) => [200, 503, 504].includes(s)),
    `${statuses}`,
  );
  assertProblem(busy[0], 503, 'service_unavailable');
  assert.match(busy[0].json().detail, /busy/);
  assert.equal(busy[0].headers['retry-after'], '5');
  const usage = (await h.app.inject({ url: '/api/v1/usage', headers })).json();
  assert.equal(usage.used, 1 + statuses.filter((s) => s === 200).length, 'only cards drawn are charged');
  assert.equal((await get('&width=555&theme=dark')).statusCode, 200, 'the service carries on');
});

test('a render stopped for its memory says so, costs nothing, and the service carries on', async (t) => {
  const h = await build(t, { env: { ...NO_RATE, POSTSHOT_RENDER_MEMORY_MB: '128' } });
  const { apiKey } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  const url = `/api/v1/screenshot/${POST}?format=webp&width=1000&scale=3&aspectRatio=9:16&height=5000`;
  const res = await h.app.inject({ url, headers });
  assertProblem(res, 504, 'render_timeout');
  assert.match(res.json().detail, /more memory than one render may use/);
  assert.equal(res.headers['x-quota-remaining'], '300');
  const md = await h.app.inject({ url: `/api/v1/content/${POST}`, headers });
  assert.equal(md.statusCode, 200);
});

test('a repeated screenshot is served from the render cache: same bytes, one render', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const get = () => h.app.inject({ url: `/api/v1/screenshot/${POST}?format=png`, headers: { 'x-api-key': apiKey } });
  const first = await get();
  const second = await get();
  assert.ok(first.rawPayload.equals(second.rawPayload));
  assert.deepEqual(h.c.renderer.stats, { rendered: 1, cacheHits: 1, warmUpRenders: 0 });
  const dark = await h.app.inject({
    url: `/api/v1/screenshot/${POST}?format=png&theme=dark`,
    headers: { 'x-api-key': apiKey },
  });
  assert.ok(!dark.rawPayload.equals(first.rawPayload), 'options are part of the cache key');
  assert.equal(h.c.renderer.stats.rendered, 2);
  assert.equal(second.headers['x-quota-remaining'], '298', 'a cached render costs the same credit');
  assert.equal(dark.headers['x-quota-remaining'], '297');
});

test('a client that hangs up before its answer is not charged, and a card queued for it is not drawn', async (t) => {
  const h = await build(t, { env: { ...NO_RATE, POSTSHOT_RENDER_WORKERS: '1' } });
  const { apiKey } = await h.account('pro');
  // A card that takes seconds to draw: a note of 25,000 different ideographs.
  const slow = CRAFTED_POSTS.find((p) => p.name === 'a note of 25,000 different ideographs')!;
  h.upstream.setBody('fxtwitter', slow.id, slow.body);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as net.AddressInfo).port;
  const hangUp = (path: string) =>
    new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n\r\n`),
      );
      setTimeout(() => socket.destroy(), 300);
      socket.on('close', () => resolve());
    });
  // The render process takes one card; the others wait for it, and are never drawn (nor is a card
  // whose client left before it reached the pool).
  await Promise.all(
    ['light', 'dark', 'dim'].map((theme) => hangUp(`/api/v1/screenshot/${slow.id}?format=png&theme=${theme}`)),
  );
  // The service still works on them: until every one has settled, drawn or given up.
  const deadline = Date.now() + 60_000;
  while (h.c.inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(h.c.inFlight.size, 0);
  assert.ok(h.c.renderer.stats.rendered <= 1, `${h.c.renderer.stats.rendered} cards drawn for three clients gone`);
  const usage = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': apiKey } });
  assert.equal(usage.json().used, 0, 'none was charged');
  const retry = await h.app.inject({
    url: `/api/v1/screenshot/${slow.id}?format=png&theme=light`,
    headers: { 'x-api-key': apiKey },
  });
  assert.equal(retry.statusCode, 200);
  assert.equal(retry.headers['x-quota-remaining'], '299', 'an answer that reaches its client is charged');
});
