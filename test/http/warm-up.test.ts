import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { assertProblem, build } from '../helper.ts';

const POST = '1900000000000000014';

test('at start the render workers warm up: /readyz says so until they are done, and requests are served meanwhile', async (t) => {
  const h = await build(t, {
    env: { POSTSHOT_RENDER_WARMUP_MS: '1500', POSTSHOT_RATE_LIMITS: 'free=1000,pro=1000,pro_plus=1000,business=1000' },
  });
  const { apiKey } = await h.account('pro');
  assert.equal(
    (await h.app.inject({ url: '/readyz' })).statusCode,
    200,
    'a container that was not started has nothing to warm',
  );

  await h.c.start();
  const warming = await h.app.inject({ url: '/readyz' });
  assertProblem(warming, 503, 'service_unavailable');
  assert.equal(warming.json().checks.render, 'warming');
  assert.equal(warming.json().detail, 'Not ready: render warming up.');

  const shot = await h.app.inject({ url: `/api/v1/screenshot/${POST}?format=png`, headers: { 'x-api-key': apiKey } });
  assert.equal(shot.statusCode, 200);
  assert.ok(PNG.sync.read(shot.rawPayload).width > 0);

  const deadline = Date.now() + 20_000;
  while (h.c.renderer.state !== 'warm' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const ready = await h.app.inject({ url: '/readyz' });
  assert.equal(ready.statusCode, 200);
  assert.equal(ready.json().checks.render, undefined);

  const { rendered, cacheHits, warmUpRenders } = h.c.renderer.stats;
  // One card per worker at least (a slow machine may manage no more within the budget).
  assert.ok(warmUpRenders >= 1, `drew warm-up cards (${warmUpRenders})`);
  assert.deepEqual(
    { rendered, cacheHits },
    { rendered: 1, cacheHits: 0 },
    'warm-up cards are neither counted nor cached',
  );
  // The one real request was charged once; warm-up cost nobody anything.
  const usage = await h.app.inject({ url: '/api/v1/usage', headers: { 'x-api-key': apiKey } });
  const { remaining, limit } = usage.json();
  assert.equal(limit - remaining, 1);
});

test('POSTSHOT_RENDER_WARMUP_MS=0 starts ready without drawing anything', async (t) => {
  const h = await build(t, { env: { POSTSHOT_RENDER_WARMUP_MS: '0' } });
  await h.c.start();
  assert.equal((await h.app.inject({ url: '/readyz' })).statusCode, 200);
  assert.equal(h.c.renderer.stats.warmUpRenders, 0);
  assert.equal(h.c.renderer.state, 'cold');
});
