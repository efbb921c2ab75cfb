import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from '../helper.ts';

// Node's parser takes `Transfer-Encoding: gzip, chunked` and removes the chunked framing only:
// the body reached the JSON parser still gzip-coded and was refused as "not valid UTF-8". A
// transfer coding the service does not apply is refused for what it is, and costs nothing.

function send(port: number, head: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(out));
    socket.write(Buffer.concat([Buffer.from(head), body]));
  });
}

const chunked = (bytes: Buffer) =>
  Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]);

test('a request body in a transfer coding other than chunked is 400 naming it, uncharged', async (t) => {
  const h = await build(t);
  const { apiKey, accountId } = await h.account('pro');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  const json = JSON.stringify({ tweetIds: ['1900000000000000001'] });
  const head = (te: string) =>
    `POST /api/v1/content/tweets HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n` +
    `Content-Type: application/json\r\nTransfer-Encoding: ${te}\r\n\r\n`;

  for (const [te, body] of [
    ['gzip, chunked', gzipSync(json)],
    ['deflate, chunked', Buffer.from(json)],
  ] as const) {
    const answer = await send(port, head(te), chunked(body));
    assert.match(answer, /^HTTP\/1\.1 400 /, te);
    const problem = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    assert.equal(problem.code, 'bad_request');
    assert.match(problem.detail, new RegExp(`Transfer-Encoding "${te}" is not supported`));
  }
  const plain = await send(
    port,
    head('chunked').replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'),
    chunked(Buffer.from(json)),
  );
  assert.match(plain, /^HTTP\/1\.1 200 /);
  const charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge');
  assert.equal(charges.length, 1, 'only the plain chunked request is charged');
});
