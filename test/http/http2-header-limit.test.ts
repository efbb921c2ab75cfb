import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getOn, startHttp2 } from '../http2-session.ts';

// Request headers over 16 KiB are 431 over HTTP/1.1 (Node's parser); over HTTP/2 the service
// answers the same, and a request under the limit on that session is still served.

test('HTTP/2 request headers over 16 KiB are 431, as over HTTP/1.1', async (t) => {
  const { client, apiKey } = await startHttp2(t);

  const big = await getOn(client, '/api/v1/usage', { 'x-api-key': apiKey, 'x-padding': 'a'.repeat(20_000) });
  assert.equal(big.status, 431);
  assert.equal(JSON.parse(big.body).code, 'headers_too_large');
  assert.equal(big.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.ok(big.headers['x-request-id']);
  const fine = await getOn(client, '/api/v1/usage', { 'x-api-key': apiKey, 'x-padding': 'a'.repeat(8_000) });
  assert.equal(fine.status, 200);
});
