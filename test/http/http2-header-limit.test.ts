import assert from 'node:assert/strict';
import fs from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { build, makeTempDir } from '../helper.ts';
import { selfSignedCert } from '../self-signed.ts';

// Request headers over 16 KiB are 431 over HTTP/1.1 (Node's parser); over HTTP/2 the service
// answers the same, and a request under the limit on that session is still served.

function get(client: http2.ClientHttp2Session, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = client.request({ ':path': '/api/v1/usage', ...headers });
    let status = 0;
    let answer: http2.IncomingHttpHeaders = {};
    let body = '';
    req.on('response', (h) => {
      status = Number(h[':status']);
      answer = h;
    });
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => resolve({ status, headers: answer, body }));
    req.on('error', reject);
    req.end();
  });
}

test('HTTP/2 request headers over 16 KiB are 431, as over HTTP/1.1', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const h = await build(t, { https: selfSignedCert(dir) });
  const { apiKey } = await h.account('pro');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
  client.on('error', () => {});
  t.after(() => client.destroy());

  const big = await get(client, { 'x-api-key': apiKey, 'x-padding': 'a'.repeat(20_000) });
  assert.equal(big.status, 431);
  assert.equal(JSON.parse(big.body).code, 'headers_too_large');
  assert.equal(big.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.ok(big.headers['x-request-id']);
  const fine = await get(client, { 'x-api-key': apiKey, 'x-padding': 'a'.repeat(8_000) });
  assert.equal(fine.status, 200);
});
