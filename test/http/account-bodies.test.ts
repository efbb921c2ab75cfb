import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { buildListening } from '../account-pages.ts';

// The account pages' forms post form bodies, but any client can post JSON to them: a body the
// service's JSON parser refuses (compressed, another charset, not UTF-8, a __proto__ key) is a
// 4xx page that changes nothing, never a 500.

const ROUTES = ['sign-in', 'verify', 'sign-out', 'sign-out-everywhere', 'keys', 'keys/revoke', 'profile'];
const FORM = JSON.stringify({ _csrf: 'x', email: 'someone@example.com' });

test('a JSON body the parser refuses is a 4xx page on every account form, not a 500', async (t) => {
  const h = await buildListening(t);
  const refused: Array<[string, Record<string, string>, Uint8Array, number]> = [
    ['gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(FORM), 415],
    ['utf-16', { 'content-type': 'application/json; charset=utf-16' }, Buffer.from(FORM, 'utf16le'), 415],
    ['not UTF-8', { 'content-type': 'application/json' }, Buffer.from([0x7b, 0xff, 0x7d]), 400],
    ['__proto__', { 'content-type': 'application/json' }, Buffer.from('{"__proto__":{"a":1},"_csrf":"x"}'), 400],
  ];
  for (const route of ROUTES) {
    for (const [label, headers, body, status] of refused) {
      const res = await fetch(`${h.url}/account/${route}`, {
        method: 'POST',
        headers,
        body: new Uint8Array(body),
        redirect: 'manual',
      });
      assert.equal(res.status, status, `${route}, ${label}`);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(await res.text(), /Nothing was changed/);
      assert.equal(res.headers.get('set-cookie'), null, 'no session is started');
    }
  }
  assert.equal((await h.c.accounts.listAccounts()).length, 0);
  assert.equal(h.smtp.received.length, 0, 'no sign-in link was sent');
});
