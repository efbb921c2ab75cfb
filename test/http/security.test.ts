import assert from 'node:assert/strict';
import fs from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer } from '../../src/container.ts';
import { assertProblem, build, makeTempDir } from '../helper.ts';
import { selfSignedCert } from '../self-signed.ts';

test('TLS: HTTPS over HTTP/1.1 and HTTP/2, with HSTS', async (t) => {
  const dir = makeTempDir();
  const tls = selfSignedCert(dir);
  const h = await build(t, { https: tls });
  const { apiKey } = await h.account('pro');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (h.app.server.address() as AddressInfo).port;

  const h1 = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      https
        .get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/v1/usage',
            headers: { 'x-api-key': apiKey },
            rejectUnauthorized: false,
          },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
          },
        )
        .on('error', reject);
    },
  );
  assert.equal(h1.status, 200);
  assert.match(String(h1.headers['strict-transport-security']), /max-age=31536000/);
  assert.equal(JSON.parse(h1.body).limit, 300);

  const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
  const h2 = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = client.request({ ':path': '/api/v1/usage', 'x-api-key': apiKey });
    let status = 0;
    let body = '';
    req.on('response', (headers) => (status = Number(headers[':status'])));
    req.on('data', (d) => (body += d));
    req.on('end', () => resolve({ status, body }));
    req.on('error', reject);
  });
  client.close();
  assert.equal(h2.status, 200);
  assert.equal(JSON.parse(h2.body).remaining, 300);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('POSTSHOT_REQUIRE_HTTPS refuses plain HTTP; a trusted proxy saying https is let through', async (t) => {
  const strict = await build(t, { env: { POSTSHOT_REQUIRE_HTTPS: 'true' } });
  const { apiKey } = await strict.account();
  const plain = await strict.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': apiKey } });
  assertProblem(plain, 403, 'https_required');
  const spoofed = await strict.app.inject({
    url: '/api/v1/usage',
    headers: { 'x-api-key': apiKey, 'x-forwarded-proto': 'https' },
  });
  assertProblem(spoofed, 403, 'https_required');
  assert.equal((await strict.app.inject({ url: '/healthz' })).statusCode, 200, 'health checks stay reachable');

  const proxied = await build(t, { env: { POSTSHOT_REQUIRE_HTTPS: 'true', POSTSHOT_TRUST_PROXY: 'true' } });
  const other = await proxied.account();
  const viaProxy = await proxied.app.inject({
    url: '/api/v1/usage',
    headers: { 'x-api-key': other.apiKey, 'x-forwarded-proto': 'https' },
  });
  assert.equal(viaProxy.statusCode, 200);
  assert.match(String(viaProxy.headers['strict-transport-security']), /max-age/);
  assert.equal(viaProxy.headers['x-content-type-options'], 'nosniff');
});

test('API keys never reach the logs, whatever the request does', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const dir = makeTempDir();
  const { startFixtureServer } = await import('../../src/sources/fixture-server.ts');
  const { SAMPLES_DIR } = await import('../fixtures.ts');
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const c = await createContainer(
    loadConfig({ POSTSHOT_DATA_DIR: dir, POSTSHOT_LOG_LEVEL: 'trace', ...upstream.env }),
    { logStream: sink },
  );
  const app = await buildApp(c);
  t.after(async () => {
    await app.close();
    await c.close();
    await upstream.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const { createAccountWithKey } = await import('../../src/auth/admin.ts');
  const created = await createAccountWithKey(c.accounts, { email: 'log@example.com', plan: 'pro' }, Date.now());
  assert.ok(created.ok);
  const key = created.ok ? created.value.apiKey : '';
  const wrong = `${key.slice(0, -1)}${key.at(-1) === 'a' ? 'b' : 'a'}`;
  for (const [url, k] of [
    ['/api/v1/usage', key],
    ['/api/v1/content/1900000000000000001', key],
    ['/api/v1/content/404404', key],
    ['/api/v1/screenshot/abc', key],
    ['/api/v1/usage?x=1', key],
    ['/api/v1/usage', wrong],
    [`/api/v1/content/${key}`, key],
  ]) {
    await app.inject({ url, headers: { 'x-api-key': k } });
  }
  await app.inject({
    method: 'POST',
    url: '/api/v1/content/tweets',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: `{"tweetIds": ["${key}"`,
  });
  const echoed = await app.inject({ url: `/api/v1/content/${key}`, headers: { 'x-api-key': key } });
  assert.equal(echoed.statusCode, 400);
  assert.equal(echoed.body.includes(key.slice(4, 30)), false, 'an error never repeats a key');
  const log = lines.join('');
  assert.ok(log.length > 1000, 'requests were logged');
  for (const secret of [key, wrong, key.slice(4, 30)]) {
    const leak = lines.find((l) => l.includes(secret));
    assert.equal(leak, undefined, `a key reached the logs: ${leak?.slice(0, 300)}`);
  }
});
