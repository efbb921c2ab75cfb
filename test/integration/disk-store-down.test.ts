import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { assertProblem, build } from '../helper.ts';

// The disk image store unwritable (full, read-only, its folder gone or replaced): returnType=url
// is the image store being down, a 503 as with S3, uncharged; never a 500, which says "bug".
test('an unwritable disk image store: returnType=url is 503 service_unavailable, uncharged', async (t) => {
  const h = await build(t, { scaled: false });
  const { apiKey, accountId } = await h.account('pro');
  const images = path.join(h.dataDir, 'images');
  fs.rmSync(images, { recursive: true, force: true });
  fs.writeFileSync(images, 'a file where the folder should be');
  const res = await h.app.inject({
    url: '/api/v1/screenshot/1900000000000000001?returnType=url',
    headers: { 'x-api-key': apiKey },
  });
  assertProblem(res, 503, 'service_unavailable');
  assert.match(res.json().detail, /image store/);
  assert.equal(res.headers['x-quota-remaining'], '300', 'nothing charged');
  const charges = (await h.c.accounts.ledger(accountId)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => r.status),
    ['refunded'],
  );

  // Writable again: stored and served.
  fs.rmSync(images);
  const again = await h.app.inject({
    url: '/api/v1/screenshot/1900000000000000001?returnType=url',
    headers: { 'x-api-key': apiKey },
  });
  assert.equal(again.statusCode, 200, again.body);
  assert.equal((await h.app.inject({ url: new URL(again.json().url).pathname })).statusCode, 200);
});
