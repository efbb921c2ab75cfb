import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePostId } from '../../src/sources/post-id.ts';

test('numeric ids and every common post URL form resolve to the id', () => {
  const id = '1599367266448994304';
  for (const input of [
    id,
    ` ${id} `,
    `https://x.com/0xca0a/status/${id}`,
    `https://twitter.com/0xca0a/status/${id}?s=20&t=abc`,
    `http://mobile.twitter.com/0xca0a/status/${id}`,
    `https://www.x.com/0xca0a/status/${id}/`,
    `x.com/0xca0a/status/${id}`,
    `https://fxtwitter.com/0xca0a/status/${id}`,
    `https://vxtwitter.com/0xca0a/status/${id}`,
    `https://x.com/i/status/${id}`,
    `https://twitter.com/i/web/status/${id}`,
    `https://x.com/0xca0a/status/${id}/photo/1`,
    `https://x.com/0xca0a/status/${id}/video/1/`,
    `https://x.com/0xca0a/status/${id}/analytics`,
    `https://x.com/0xca0a/status/${id}/quotes`,
    `https://x.com/0xca0a/status/${id}/retweets/with_comments`,
    `https://x.com/0xca0a/status/${id}/likes`,
    `https://x.com/0xca0a/status/${id}/history`,
    `https://twitter.com/0xca0a/statuses/${id}#frag`,
  ]) {
    assert.deepEqual(parsePostId(input), { ok: true, id }, input);
  }
  assert.deepEqual(parsePostId('20'), { ok: true, id: '20' });
  assert.deepEqual(parsePostId('9223372036854775807'), { ok: true, id: '9223372036854775807' });
});

test('a refusal names the host as typed, and a word is no URL', () => {
  const reason = (input: string) => {
    const r = parsePostId(input);
    return r.ok ? 'accepted' : r.reason;
  };
  assert.equal(reason('abc'), 'not a numeric id or a post URL');
  assert.equal(reason('😀'), 'not a numeric id or a post URL');
  assert.equal(reason('example.com/jack/status/20'), '"example.com" is not an X post URL host');
  assert.equal(
    reason('https://x.com/jack/status/20/followers'),
    `"/followers" is not one of a post's pages (photo/1-4, video/1-4, analytics, quotes, retweets, likes, history)`,
  );
  assert.equal(reason('https://例え.jp/jack/status/20'), '"例え.jp" is not an X post URL host');
});

test('anything else is refused with a reason', () => {
  for (const input of [
    '',
    '   ',
    '-5',
    '0',
    '007',
    '12345678901234567890',
    '9223372036854775808',
    '1e10',
    '12.5',
    '١٢٣',
    '１２３',
    '123abc',
    '%00',
    '../etc/passwd',
    'https://evil.com/jack/status/20',
    'https://x.com.evil.com/jack/status/20',
    'https://x.com/jack',
    'https://x.com/jack/status/abc',
    'ftp://x.com/jack/status/20',
    'javascript:alert(1)',
    'https://user:pw@x.com/jack/status/20',
    'https://x.com:8443/jack/status/20',
    'x'.repeat(600),
    'https://x.com/jack/status/20/photo/5',
    'https://x.com/jack/status/20/likes/2',
    'https://x.com/jack/status/20/followers',
  ]) {
    const r = parsePostId(input);
    assert.equal(r.ok, false, input);
    if (!r.ok) assert.ok(r.reason.length > 5, input);
  }
});
