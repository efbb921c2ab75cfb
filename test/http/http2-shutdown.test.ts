import assert from 'node:assert/strict';
import fs from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { build, makeTempDir } from '../helper.ts';
import { selfSignedCert } from '../self-signed.ts';

// Over TLS, clients speak HTTP/2 and keep their session open between requests. Shutting down
// must end those sessions the graceful way (GOAWAY: running requests finish, new ones go to
// another instance), or close waits on them and serve's shutdown times out with exit code 1.
const SLOW_POST = '1900000000000000007';
// Well under the 72 s after which an idle session would be ended anyway.
const SESSION_END_WAIT_MS = 30_000;

function get(client: http2.ClientHttp2Session, path: string, apiKey: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = client.request({ ':path': path, 'x-api-key': apiKey });
    let status = 0;
    let body = '';
    req.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => resolve({ status, body }));
    req.on('error', reject);
    req.end();
  });
}

test('closing ends open HTTP/2 sessions gracefully: the running request is answered', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const h = await build(t, { https: selfSignedCert(dir) });
  const { apiKey, accountId } = await h.account('pro');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
  client.on('error', () => {});
  t.after(() => client.destroy());
  const ended = new Promise<'ended'>((resolve) => client.once('close', () => resolve('ended')));
  assert.equal((await get(client, '/api/v1/usage', apiKey)).status, 200);

  h.upstream.setFault(SLOW_POST, { delayMs: 600 }, '*');
  const running = get(client, `/api/v1/content/${SLOW_POST}`, apiKey);
  while (h.upstream.count('fxtwitter', SLOW_POST) === 0) await new Promise((r) => setTimeout(r, 20));
  const closed = h.app.close();

  const answer = await running;
  assert.equal(answer.status, 200);
  assert.match(answer.body, /x\.com\/.+\/status\/1900000000000000007/);
  const outcome = await Promise.race([
    ended,
    new Promise<'still open'>((r) => setTimeout(() => r('still open'), SESSION_END_WAIT_MS).unref()),
  ]);
  assert.equal(outcome, 'ended', 'the server ended the session once its request was answered');
  await closed;
  const charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => [r.endpoint, r.status]),
    [['content', 'committed']],
  );
});
