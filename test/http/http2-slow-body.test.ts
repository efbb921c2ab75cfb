import assert from 'node:assert/strict';
import fs from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { build, makeTempDir } from '../helper.ts';
import { selfSignedCert } from '../self-signed.ts';

// A request must be received whole within 60 s. Node holds HTTP/1.1 to it (408), but not
// HTTP/2: a body trickled a byte at a time kept its stream, and whatever it held, open for as
// long as the client liked. Over HTTP/2 the same request is refused the same way.

test('an HTTP/2 body not received within 60 s is refused with 408, uncharged', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const h = await build(t, { https: selfSignedCert(dir) });
  const { apiKey, accountId } = await h.account('pro');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
  client.on('error', () => {});
  t.after(() => client.destroy());

  const req = client.request({
    ':method': 'POST',
    ':path': '/api/v1/content/tweets',
    'x-api-key': apiKey,
    'content-type': 'application/json',
  });
  req.on('error', () => {});
  const body = JSON.stringify({ tweetIds: ['1900000000000000001'] });
  let sent = 0;
  // A byte every 5 s: never idle long enough for any idle timeout to end it.
  const trickle = setInterval(() => {
    if (sent < body.length - 1 && !req.closed) req.write(body[sent++]);
  }, 5000);
  t.after(() => clearInterval(trickle));
  const answer = await new Promise<{ status: number; body: string }>((resolve) => {
    let status = 0;
    let text = '';
    req.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    req.on('data', (d) => {
      text += d;
    });
    req.on('close', () => resolve({ status, body: text }));
  });
  assert.equal(answer.status, 408);
  const problem = JSON.parse(answer.body);
  assert.equal(problem.code, 'request_timeout');
  assert.ok(sent < body.length - 1, 'refused while the body was still coming');
  assert.equal((await h.c.accounts.ledger(accountId)).length, 0, 'nothing charged');
});
