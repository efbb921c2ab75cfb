import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { RenderPool, RenderTimeoutError } from '../../src/render/pool.ts';
import type { Post } from '../../src/sources/post.ts';

const SCRIPT = () => new URL('./workers/scripted-worker.mjs', import.meta.url);

function job(pool: RenderPool, text: string, delay?: number): Promise<string> {
  const post = { text, delay } as unknown as Post;
  return pool.run(post, new Map(), { format: 'svg', theme: 'light' }).then((r) => r.bytes.toString());
}

test('a worker draws two cards at once and a third waits for one of them', async (t) => {
  const pool = new RenderPool(1, 5000, SCRIPT);
  t.after(() => pool.close());
  const out = await Promise.all([job(pool, 'a', 200), job(pool, 'b', 200), job(pool, 'c', 20)]);
  const [a, b, c] = out.map((o) => o.split('|'));
  assert.deepEqual([a[0], b[0], c[0]], ['a', 'b', 'c']);
  assert.equal(b[1], '2', 'the second card was given while the first was being drawn');
  assert.ok(Number(c[1]) <= 2, 'never more than two cards in one worker');
  assert.equal(new Set([a[2], b[2], c[2]]).size, 1, 'one worker did all three');
});

test('a card past the time limit fails alone: the card sharing its worker is drawn again, and the pool carries on', async (t) => {
  // Timings with seconds of slack: the second card starts 2 s after the hung one, would finish 0.5 s
  // after the hung one's 3 s limit, and then has 1.5 s for a new worker to start and redraw it.
  const pool = new RenderPool(1, 3000, SCRIPT);
  t.after(() => pool.close());
  const hung = job(pool, 'hang').catch((err: Error) => err);
  await new Promise((r) => setTimeout(r, 2000));
  const late = job(pool, 'late', 1500);
  assert.ok((await hung) instanceof RenderTimeoutError);
  const [text, , pid] = (await late).split('|');
  assert.equal(text, 'late', 'redrawn, not failed');
  assert.equal((await job(pool, 'after')).split('|')[2], pid, 'the replacement worker carries on');
});

test('an error answer fails that card only; a crashed worker fails what it held and is replaced', async (t) => {
  const pool = new RenderPool(1, 5000, SCRIPT);
  t.after(() => pool.close());
  await assert.rejects(job(pool, 'fail'), /failed on purpose/);
  await assert.rejects(job(pool, 'crash'), /worker crashed/);
  assert.equal((await job(pool, 'next')).split('|')[0], 'next');
});

test('close() fails queued and in-flight cards', async () => {
  const pool = new RenderPool(1, 5000, SCRIPT);
  const held = [job(pool, 'hang'), job(pool, 'hang'), job(pool, 'queued')].map((p) => p.catch((err: Error) => err));
  await new Promise((r) => setTimeout(r, 100));
  await pool.close();
  for (const outcome of await Promise.all(held)) assert.match(String(outcome), /render pool closed/);
  await assert.rejects(job(pool, 'after'), /render pool closed/);
});

test("render workers keep their own young generation when the process caps the main thread's (--max-semi-space-size)", () => {
  // V8 applies that flag to every isolate, over a worker's resourceLimits (pool.ts says why a
  // render worker wants a larger young generation); bin/postshot.js sets it for the event loop.
  const script = fileURLToPath(new URL('./workers/young-generation.ts', import.meta.url));
  const run = spawnSync(process.execPath, ['--max-semi-space-size=4', '--import', 'tsx', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const mb = Number(run.stdout.trim());
  assert.ok(mb > 8, `a render worker's young generation grew to ${mb} MB: capped by the main thread's flag`);
});
