import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fault } from '../../src/sources/fixture-server.ts';
import { assertProblem, build } from '../helper.ts';

// Every source failing, through the public API: 502/504 within the timeout, no charge, and the
// service answers normally afterwards.
const FAULTS: Array<[string, Fault, 502 | 504]> = [
  ['timeout', { delayMs: 3000 }, 504],
  ['connection reset', { reset: true }, 502],
  ['500', { status: 500 }, 502],
  ['503', { status: 503 }, 502],
  ['429', { status: 429 }, 502],
  ['truncated JSON', { body: 'truncated' }, 502],
  ['malformed JSON', { body: 'malformed' }, 502],
  ['wrong content type', { contentType: 'text/html' }, 502],
  ['HTML error page', { body: 'html', status: 200 }, 502],
  ['slow body', { slowBodyMs: 3000 }, 504],
  ['redirect to another host', { redirect: 'http://169.254.169.254/latest/meta-data' }, 502],
];

test('upstream faults give 502/504 within the timeout, cost nothing, and leave the service healthy', async (t) => {
  const h = await build(t, { env: { POSTSHOT_UPSTREAM_TIMEOUT_MS: '500', POSTSHOT_RATE_LIMITS: 'pro=100000' } });
  const { apiKey, accountId } = await h.account('pro');
  const headers = { 'x-api-key': apiKey };
  // Both sources get the fault (an FxTwitter-only post would end at syndication's final 404).
  for (const id of ['1900000000000000001']) {
    for (const [label, fault, status] of FAULTS) {
      h.upstream.setFault(id, fault, '*');
      for (const url of [`/api/v1/content/${id}`, `/api/v1/screenshot/${id}?format=png`]) {
        const started = Date.now();
        const res = await h.app.inject({ url, headers });
        const took = Date.now() - started;
        assertProblem(res, status, status === 504 ? 'upstream_timeout' : 'upstream_unavailable');
        assert.equal(res.headers['x-quota-remaining'], '300', `${label}: no charge`);
        // Two sources, each bounded by the 500 ms timeout.
        assert.ok(took < 2 * 500 + 1000, `${label}: answered after ${took} ms`);
      }
      h.upstream.setFault(id, null, '*');
    }
  }
  const after = await h.app.inject({ url: '/api/v1/content/1900000000000000001', headers });
  assert.equal(after.statusCode, 200);
  assert.equal((await h.app.inject({ url: '/readyz' })).statusCode, 200);
  const usage = await h.c.quota.usage((await h.c.accounts.getAccount(accountId))!);
  assert.equal(usage.used, 1);
});
