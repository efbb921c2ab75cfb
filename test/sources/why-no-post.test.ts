import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';

// A body whose post cannot be read is a failed fetch that names the field at fault. A
// created_timestamp of 0 (which the schema allows) with no created_at threw a TypeError instead,
// from the message naming created_at, which JSON.stringify gave as undefined.
test('a post timed at 0 with no created_at is a failed fetch naming created_timestamp', () => {
  const r = normalizeFxTwitter(200, {
    code: 200,
    tweet: { id: '1900000000000000001', text: 'x', author: { name: 'A', screen_name: 'a' }, created_timestamp: 0 },
  });
  assert.equal(r.kind, 'failed');
  assert.match((r as { detail: string }).detail, /tweet\.created_timestamp 0 is not a post's time/);
});

test('a created_at that is not a date is still named', () => {
  const r = normalizeFxTwitter(200, {
    code: 200,
    tweet: { id: '1900000000000000001', text: 'x', author: { name: 'A', screen_name: 'a' }, created_at: 'yesterday' },
  });
  assert.equal(r.kind, 'failed');
  assert.match((r as { detail: string }).detail, /tweet\.created_at "yesterday" is not a date/);
});
