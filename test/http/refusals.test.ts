// Refusals made before or around the routes: bad percent-encoding, 405, 413-415, 414, 417, 431 and
// 503 while shutting down are problem+json with X-Request-Id and the security headers; post ids.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { assertProblem, build } from '../helper.ts';

const POST = '1900000000000000008';
const TEXT_POST = '1900000000000000001';
const NO_RATE = { POSTSHOT_RATE_LIMITS: 'free=100000,pro=100000,pro_plus=100000,business=100000' };

// biome-ignore lint/suspicious/noExplicitAny: a test reads any header
function assertBaseHeaders(headers: Record<string, any>, what: string): void {
  assert.ok(headers['x-request-id'], `${what}: X-Request-Id`);
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
  assert.equal(headers['x-frame-options'], 'DENY', what);
  assert.equal(headers['referrer-policy'], 'no-referrer', what);
}

/** Sends raw bytes to a listening app and returns the whole answer. */
async function rawRequest(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(payload));
    let data = '';
    socket.on('data', (d) => (data += d));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

test('framework-level refusals are problem+json with X-Request-Id and security headers', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  for (const url of ['/api/v1/screenshot/%E0%A4%A', '/api/v1/usage%', '/api/v1/content/%zz']) {
    const r = await h.app.inject({ url, headers: { 'x-api-key': apiKey } });
    assertProblem(r, 400, 'bad_request');
    assert.match(r.json().detail, /percent-encoding/);
    assertBaseHeaders(r.headers, url);
  }
  for (const [method, url, allow] of [
    ['POST', '/api/v1/screenshot/1', 'GET, HEAD'],
    ['DELETE', '/api/v1/usage', 'GET, HEAD'],
    ['PUT', `/api/v1/content/${TEXT_POST}`, 'GET, HEAD'],
    ['GET', '/api/v1/content/tweets', 'POST'],
    ['PATCH', `/images/${'a'.repeat(64)}.png`, 'GET, HEAD'],
    // OPTIONS on an API path when CORS is off.
    ['OPTIONS', '/api/v1/usage', 'GET, HEAD'],
    ['TRACE', '/api/v1/screenshot/1', 'GET, HEAD'],
    ['PROPFIND', '/api/v1/screenshot/1', 'GET, HEAD'],
    ['SEARCH', '/api/v1/usage', 'GET, HEAD'],
  ] as const) {
    // light-my-request types only the seven common methods; it sends any other as given.
    const r = await h.app.inject({ method: method as 'GET', url });
    assertProblem(r, 405, 'method_not_allowed');
    assert.equal(r.headers.allow, allow, `${method} ${url}`);
    assertBaseHeaders(r.headers, `${method} ${url}`);
  }
  const long = await h.app.inject({ url: `/api/v1/content/${'1'.repeat(9000)}`, headers: { 'x-api-key': apiKey } });
  assertProblem(long, 414, 'uri_too_long');
  assertBaseHeaders(long.headers, '414');
  assert.equal(long.headers['x-quota-remaining'], undefined, '414 comes before authentication');
  // A path parameter past the router's limit is refused by the router itself, before any hook.
  const longParam = await h.app.inject({ url: `/images/${'a'.repeat(3000)}.png` });
  assertProblem(longParam, 414, 'uri_too_long');
  assertBaseHeaders(longParam.headers, '414 from the router');
  const big = JSON.stringify({ tweetIds: [TEXT_POST], pad: 'x'.repeat(70 * 1024) });
  for (const [type, payload, status] of [
    ['application/json', big, 413],
    ['text/csv', 'a,b', 415],
  ] as const) {
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/v1/content/tweets',
      headers: { 'x-api-key': apiKey, 'content-type': type },
      payload,
    });
    assert.equal(r.statusCode, status);
    assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
    assertBaseHeaders(r.headers, String(status));
  }

  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as net.AddressInfo).port;
  const tooLong = await rawRequest(port, `GET /api/v1/content/${'1'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
  assert.match(tooLong, /^HTTP\/1\.1 414 /);
  assert.match(tooLong, /"code":"uri_too_long"/);
  const headers = await rawRequest(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
  assert.match(headers, /^HTTP\/1\.1 431 /);
  // Node answers an Expect it does not know with a bare 417 unless the service does.
  const expect = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n');
  assert.match(expect, /^HTTP\/1\.1 417 /);
  assert.match(expect, /"code":"expectation_failed"/);
  for (const answer of [tooLong, headers, expect]) {
    assert.match(answer, /\r\nContent-Type: application\/problem\+json/);
    assert.match(answer, /\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
    assert.match(answer, /\r\nX-Content-Type-Options: nosniff\r\n/);
    assert.match(answer, /\r\nX-Frame-Options: DENY\r\n/);
    const id = /\r\nX-Request-Id: ([0-9a-f-]+)/.exec(answer)![1];
    assert.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).requestId, id);
  }
});

/** A fetch over real HTTP: status, Allow, content type and problem code. */
async function methodAnswer(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const type = res.headers.get('content-type') ?? '';
  const code = type.startsWith('application/problem+json') ? (await res.json()).code : await res.text();
  return { status: res.status, allow: res.headers.get('allow'), type, code, headers: res.headers };
}

test('every known path answers 405 with Allow to a method it does not serve, plain OPTIONS included', async (t) => {
  const h = await build(t, { env: NO_RATE });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as net.AddressInfo).port}`;
  const image = `/images/${'a'.repeat(64)}.png`;
  for (const [path, allow] of [
    ['/api/v1/usage', 'GET, HEAD'],
    [`/api/v1/screenshot/${POST}`, 'GET, HEAD'],
    [`/api/v1/content/${TEXT_POST}`, 'GET, HEAD'],
    ['/api/v1/content/tweets', 'POST'],
    ['/mcp', 'POST'],
    ['/openapi.json', 'GET, HEAD'],
    ['/docs', 'GET, HEAD'],
    ['/healthz', 'GET, HEAD'],
    [image, 'GET, HEAD'],
    ['/account', 'GET, HEAD'],
    ['/account/sign-in', 'GET, HEAD, POST'],
    ['/account/verify', 'GET, HEAD, POST'],
    ['/account/keys', 'GET, HEAD, POST'],
    ['/account/keys/key_1/revoke', 'GET, HEAD'],
    ['/account/keys/revoke', 'POST'],
    ['/account/sign-out', 'POST'],
    ['/account/quickstart', 'GET, HEAD'],
    ['/account/profile', 'GET, HEAD, POST'],
    ['/account/assets/account.css', 'GET, HEAD'],
  ] as const) {
    const served = allow.split(', ');
    for (const method of ['OPTIONS', 'PUT', 'DELETE', 'PATCH', 'POST', 'GET'].filter((m) => !served.includes(m))) {
      const r = await methodAnswer(base, method, path);
      assert.deepEqual([r.status, r.code, r.allow], [405, 'method_not_allowed', allow], `${method} ${path}`);
      assert.match(r.type, /^application\/problem\+json/, `${method} ${path}`);
      assert.ok(r.headers.get('x-request-id'), `${method} ${path}: X-Request-Id`);
    }
    // A body the path would never read is not parsed first: still 405, not 400, 413 or 415.
    const method = ['PUT', 'DELETE', 'PATCH'].find((m) => !served.includes(m))!;
    for (const [type, body] of [
      ['application/json', ''],
      ['application/json', '{'],
      ['application/json', `"${'x'.repeat(70_000)}"`],
      ['text/plain', 'x'],
      ['application/x-www-form-urlencoded', 'a=b'],
    ]) {
      const r = await methodAnswer(base, method, path, { 'content-type': type }, body);
      assert.deepEqual([r.status, r.code, r.allow], [405, 'method_not_allowed', allow], `${method} ${path} ${type}`);
    }
  }
  // Unknown paths stay 404, in the API's and in the account pages' own format.
  assert.equal((await methodAnswer(base, 'OPTIONS', '/nowhere')).status, 404);
  assert.equal((await methodAnswer(base, 'DELETE', '/account/nowhere')).status, 404);

  // Where CORS applies, a preflight (Origin and Access-Control-Request-Method) is still answered.
  const preflight = { origin: 'https://app.example.com', 'access-control-request-method': 'GET' };
  const imagePreflight = await methodAnswer(base, 'OPTIONS', image, preflight);
  assert.equal(imagePreflight.status, 204);
  assert.equal(imagePreflight.headers.get('access-control-allow-origin'), '*');
  // An Origin alone does not make a preflight.
  const originOnly = await methodAnswer(base, 'OPTIONS', image, { origin: 'https://app.example.com' });
  assert.deepEqual([originOnly.status, originOnly.allow], [405, 'GET, HEAD']);

  const open = await build(t, { env: { ...NO_RATE, POSTSHOT_CORS_ORIGINS: 'https://app.example.com' } });
  await open.app.listen({ port: 0, host: '127.0.0.1' });
  const openBase = `http://127.0.0.1:${(open.app.server.address() as net.AddressInfo).port}`;
  const apiPreflight = await methodAnswer(openBase, 'OPTIONS', '/api/v1/usage', preflight);
  assert.equal(apiPreflight.status, 204);
  assert.equal(apiPreflight.headers.get('access-control-allow-origin'), 'https://app.example.com');
  const plain = await methodAnswer(openBase, 'OPTIONS', '/api/v1/usage');
  assert.deepEqual([plain.status, plain.code, plain.allow], [405, 'method_not_allowed', 'GET, HEAD']);
});

test('post ids: empty, signed, fractional and exponent ids are 400 saying what an id is; merged slashes pass', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  for (const url of [
    '/api/v1/screenshot/',
    '/api/v1/screenshot',
    '/api/v1/content/',
    '/api/v1/screenshot/-1',
    '/api/v1/screenshot/1.9e18',
    '/api/v1/content/+20',
    '/api/v1/content/12.5',
    '/api/v1/content/1E5',
  ]) {
    const r = await h.app.inject({ url, headers });
    assertProblem(r, 400, 'invalid_post_id');
    const detail = r.json().detail;
    assert.match(detail, /1 to 19 digits/, url);
    assert.match(detail, /https:\/\/x\.com\/<user>\/status\/<id>/, url);
    assert.doesNotMatch(detail, /URL host/, url);
    assert.equal(r.headers['x-quota-remaining'], '300');
  }
  // What a proxy that merges slashes makes of an unencoded post URL.
  const merged = await h.app.inject({ url: `/api/v1/content/https:/x.com/jack/status/${TEXT_POST}`, headers });
  assert.equal(merged.statusCode, 200);
  const direct = await h.app.inject({ url: `/api/v1/content/${TEXT_POST}`, headers });
  assert.equal(merged.body, direct.body);
  const shot = await h.app.inject({ url: `/api/v1/screenshot/https:/twitter.com/jack/status/${POST}`, headers });
  assert.equal(shot.statusCode, 200);
  assert.match(String(shot.headers['content-disposition']), new RegExp(`post-${POST}\\.svg`));

  const bulk = await h.app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers,
    payload: { tweetIds: [` ${TEXT_POST} `, TEXT_POST, '-1'] },
  });
  const items = bulk.json().results;
  assert.deepEqual(
    items.map((i: { tweetId: string; input?: string }) => [i.tweetId, i.input]),
    [
      [TEXT_POST, ` ${TEXT_POST} `],
      [TEXT_POST, undefined],
      ['-1', undefined],
    ],
  );
  assert.match(items[2].error.message, /digits/);
});

test('a request arriving while the service shuts down gets 503 problem+json', async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const slow = '1900000000000000014';
  h.upstream.setFault(slow, { delayMs: 700 });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as net.AddressInfo).port;
  // A second request pipelined on a busy kept-alive connection after close began: it is parsed
  // at once and answered (after the first) with 503 and Connection: close.
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d) => (text += d));
  const answer = new Promise((resolve) => socket.on('close', resolve));
  socket.write(`GET /api/v1/content/${slow} HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n\r\n`);
  await new Promise((r) => setTimeout(r, 200));
  const closed = h.app.close();
  await new Promise((r) => setTimeout(r, 100));
  socket.write(`GET /api/v1/content/${TEXT_POST} HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n\r\n`);
  await answer;
  await closed;
  const responses = text.split(/(?=HTTP\/1\.1 \d{3} )/);
  assert.equal(responses.length, 2, text.slice(0, 300));
  assert.match(responses[0], /^HTTP\/1\.1 200 /, 'the request in progress is finished');
  assert.match(responses[1], /^HTTP\/1\.1 503 /);
  assert.match(responses[1], /content-type: application\/problem\+json/i);
  assert.match(responses[1], /x-request-id: /i);
  assert.match(responses[1], /"code":"service_unavailable"/);
  assert.match(responses[1], /connection: close/i);
});

test('shutdown does not wait out the keep-alive of a connection whose request was running', {
  timeout: 20_000,
}, async (t) => {
  const h = await build(t, { env: NO_RATE });
  const { apiKey } = await h.account('pro');
  const slow = '1900000000000000014';
  h.upstream.setFault(slow, { delayMs: 500 });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as net.AddressInfo).port;
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d) => (text += d));
  const socketClosed = new Promise((resolve) => socket.on('close', resolve));
  socket.write(`GET /api/v1/content/${slow} HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n\r\n`);
  await new Promise((r) => setTimeout(r, 200));
  // Otherwise close waits for the 72 s keep-alive timeout, past this test's 20 s limit.
  await h.app.close();
  await socketClosed;
  assert.match(text, /^HTTP\/1\.1 200 /, 'the running request was answered');
});
