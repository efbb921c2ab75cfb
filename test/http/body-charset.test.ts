import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildListening } from '../account-pages.ts';

// JSON travels in UTF-8 (RFC 8259 §8.1). A body declared in another charset is refused for its
// charset, naming it, rather than read as UTF-8 and refused as "not valid JSON" (UTF-16 bytes of
// ASCII text are valid UTF-8 with a NUL after each character), and it costs nothing.

const POST = '1900000000000000001';
const JSON_BODY = JSON.stringify({ tweetIds: [POST] });

test('a JSON body in a charset other than UTF-8 is 415 naming the charset, uncharged', async (t) => {
  const h = await buildListening(t);
  const { apiKey } = await h.account('pro');
  const post = (path: string, type: string, body: Buffer) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': type },
      body: new Uint8Array(body),
    });
  const refused: Array<[string, Buffer, string]> = [
    ['application/json; charset=utf-16', Buffer.from(JSON_BODY, 'utf16le'), 'utf-16'],
    ['application/json; charset=UTF-16LE', Buffer.from(JSON_BODY, 'utf16le'), 'UTF-16LE'],
    ['application/json;charset="iso-8859-1"', Buffer.from(JSON_BODY, 'latin1'), 'iso-8859-1'],
    ['application/json; charset=bogus', Buffer.from(JSON_BODY), 'bogus'],
  ];
  for (const [type, body, charset] of refused) {
    for (const path of ['/api/v1/content/tweets', '/mcp']) {
      const res = await post(path, type, body);
      const problem = await res.json();
      assert.deepEqual([res.status, problem.code], [415, 'unsupported_media_type'], `${path} ${type}`);
      assert.match(problem.detail, new RegExp(`charset "${charset}" is not supported.*UTF-8`));
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    }
  }
  const usage = await (await fetch(`${h.url}/api/v1/usage`, { headers: { 'x-api-key': apiKey } })).json();
  assert.equal(usage.used, 0, 'none of the refused bodies cost anything');

  for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json']) {
    const res = await post('/api/v1/content/tweets', type, Buffer.from(JSON_BODY));
    assert.equal(res.status, 200, type);
    assert.equal((await res.json()).successful, 1);
  }
});
