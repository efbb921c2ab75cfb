import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClientGoneError } from '../../src/errors.ts';
import { RenderMemoryError, RenderPool, RenderTimeoutError } from '../../src/render/pool.ts';
import { readRssMb } from '../../src/render/resident-memory.ts';
import type { Post } from '../../src/sources/post.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { loadPost } from './support.ts';

const SCRIPT = () => new URL('./workers/scripted-worker.mjs', import.meta.url);

function job(pool: RenderPool, text: string, delay?: number): Promise<string> {
  const post = { text, delay } as unknown as Post;
  return pool.run(post, new Map(), { format: 'svg', theme: 'light' }).then((r) => r.bytes.toString());
}

test('a process draws one card at a time: the next waits for it', async (t) => {
  const pool = new RenderPool(1, 5000, SCRIPT);
  t.after(() => pool.close());
  const out = await Promise.all([job(pool, 'a', 200), job(pool, 'b', 200), job(pool, 'c', 20)]);
  const drawn = out.map((o) => o.split('|'));
  assert.deepEqual(
    drawn.map(([text]) => text),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(
    drawn.map(([, held]) => held),
    ['1', '1', '1'],
    'never two cards in one process',
  );
  assert.equal(new Set(drawn.map(([, , pid]) => pid)).size, 1, 'one process drew all three');
});

test('a card past the time limit fails; the next card is drawn by a new process, and the pool carries on', async (t) => {
  // The second card is queued 1 s into the hung one's 2 s: it waits for it, then for a new process.
  const pool = new RenderPool(1, 2000, SCRIPT);
  t.after(() => pool.close());
  const hung = job(pool, 'hang').catch((err: Error) => err);
  await new Promise((r) => setTimeout(r, 1000));
  const next = job(pool, 'next', 100);
  assert.ok((await hung) instanceof RenderTimeoutError);
  const [text, held, pid] = (await next).split('|');
  assert.deepEqual([text, held], ['next', '1'], 'drawn, not failed');
  assert.equal((await job(pool, 'after')).split('|')[2], pid, 'the replacement process carries on');
});

test('a queued card whose client went away is taken out and never drawn; a drawing one finishes', async (t) => {
  const pool = new RenderPool(1, 5000, SCRIPT);
  t.after(() => pool.close());
  const post = (text: string, delay: number) => ({ text, delay }) as unknown as Post;
  const gone = new AbortController();
  const options = { format: 'svg', theme: 'light' } as const;
  const drawing = pool.run(post('drawing', 400), new Map(), options, { signal: gone.signal });
  const waiting = pool.run(post('waiting', 400), new Map(), options);
  const queued = pool.run(post('queued', 20), new Map(), options, { signal: gone.signal }).catch((err: Error) => err);
  await new Promise((r) => setTimeout(r, 100));
  gone.abort();
  assert.ok((await queued) instanceof ClientGoneError, 'taken out of the queue');
  assert.equal((await drawing).bytes.toString().split('|')[0], 'drawing', 'a card being drawn finishes');
  await waiting;
  const after = (await pool.run(post('after', 20), new Map(), options)).bytes.toString().split('|');
  assert.equal(after[1], '1', 'the process held nothing else: the queued card never reached it');
  assert.ok(
    (await pool.run(post('x', 0), new Map(), options, { signal: gone.signal }).catch((e: Error) => e)) instanceof
      ClientGoneError,
  );
});

test("the queue takes turns between owners: one account's many cards do not hold up another's", async (t) => {
  const pool = new RenderPool(1, 10_000, SCRIPT);
  t.after(() => pool.close());
  const options = { format: 'svg', theme: 'light' } as const;
  const finished: string[] = [];
  const run = (text: string, delay: number, owner: string) =>
    pool.run({ text, delay } as unknown as Post, new Map(), options, { owner }).then(() => finished.push(text));
  // Six cards of one account fill the process and the queue; another account's card comes last.
  const many = Array.from({ length: 6 }, (_, i) => run(`a${i}`, 300, 'a'));
  await new Promise((r) => setTimeout(r, 50));
  await Promise.all([...many, run('b', 20, 'b')]);
  assert.ok(finished.indexOf('b') < finished.indexOf('a3'), `b is drawn at the first turn: ${finished.join(' ')}`);
  assert.deepEqual(
    finished.filter((x) => x !== 'b'),
    ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'],
    "one account's cards keep their order",
  );
});

test('three owners take turns: an owner served longer ago goes first', async (t) => {
  const pool = new RenderPool(1, 10_000, SCRIPT);
  t.after(() => pool.close());
  const options = { format: 'svg', theme: 'light' } as const;
  const finished: string[] = [];
  const run = (text: string, owner: string) =>
    pool.run({ text, delay: 50 } as unknown as Post, new Map(), options, { owner }).then(() => finished.push(text));
  // Queued in this order while a0 is drawn: every a, then both b, then both c.
  const cards = [run('a0', 'a')];
  await new Promise((r) => setTimeout(r, 20));
  for (const [text, owner] of [
    ['a1', 'a'],
    ['a2', 'a'],
    ['b0', 'b'],
    ['b1', 'b'],
    ['c0', 'c'],
    ['c1', 'c'],
  ])
    cards.push(run(text, owner));
  await Promise.all(cards);
  assert.deepEqual(finished, ['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2']);
});

test('an owner the queue forgot does not go before one waiting that was served before it', async (t) => {
  // The queue remembers 1024 owners' turns, then forgets those with no card queued. One forgotten
  // while its card was drawn (x) came back ranked as never served, before w, waiting since before.
  const pool = new RenderPool(1, 60_000, SCRIPT);
  t.after(() => pool.close());
  const options = { format: 'svg', theme: 'light' } as const;
  const finished: string[] = [];
  const run = (text: string, owner: string, delay = 0) =>
    pool.run({ text, delay } as unknown as Post, new Map(), options, { owner }).then(() => finished.push(text));
  const pause = () => new Promise((r) => setTimeout(r, 100));
  // w first, then 1022 other owners: 1023 owners' turns noted.
  await Promise.all([run('w0', 'w'), ...Array.from({ length: 1022 }, (_, i) => run(`f${i}`, `f${i}`))]);
  // x is the 1024th owner; while its card is drawn, w queues one and a new owner y one.
  const x0 = run('x0', 'x', 400);
  await pause();
  const waiting = [run('w1', 'w'), run('y0', 'y', 400)];
  await x0;
  // y, never served, went first: noting it (the 1025th owner) forgot every owner with nothing
  // queued, x among them. While y's card is drawn, x queues its next.
  await pause();
  const x1 = run('x1', 'x');
  await Promise.all([...waiting, x1]);
  assert.deepEqual(finished.slice(-4), ['x0', 'y0', 'w1', 'x1'], 'w, served long before x, goes first');
});

test('an error answer fails that card only; a crashed worker fails what it held and is replaced', async (t) => {
  const pool = new RenderPool(1, 5000, SCRIPT);
  t.after(() => pool.close());
  await assert.rejects(job(pool, 'fail'), /failed on purpose/);
  await assert.rejects(
    job(pool, 'crash'),
    (err) => err instanceof RenderTimeoutError && /exited \(code 1\): Error: worker crashed/.test(err.message),
  );
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

test('a render past its time limit is killed with its process: it uses no CPU or memory afterwards', async (t) => {
  const pool = new RenderPool(1, 1000, SCRIPT);
  t.after(() => pool.close());
  const hung = job(pool, 'hang').catch((err: Error) => err);
  await new Promise((r) => setTimeout(r, 300));
  const [pid] = pool.pids();
  assert.ok(pid && readRssMb(pid) !== null, 'the render process runs');
  assert.ok((await hung) instanceof RenderTimeoutError);
  await waitFor(() => readRssMb(pid) === null, 2000, 'the process is gone within 2 s');
  assert.deepEqual(pool.pids(), []);
});

test('a render process past its memory limit is killed and its card fails as a render past its limits', async (t) => {
  const pool = new RenderPool(1, 30_000, SCRIPT, { memoryMb: 256, recycleMb: 128 });
  t.after(() => pool.close());
  const hog = job(pool, 'hog').catch((err: Error) => err);
  await new Promise((r) => setTimeout(r, 100));
  const [pid] = pool.pids();
  const err = await hog;
  assert.ok(err instanceof RenderMemoryError, String(err));
  assert.match(err.message, /256 MB/);
  await waitFor(() => readRssMb(pid) === null, 2000, 'the process is gone within 2 s');
  assert.equal((await job(pool, 'next')).split('|')[0], 'next', 'a fresh process draws the next card');
});

test('a process whose memory peaked above recycleMb is replaced once idle, even when it gave the memory back', async (t) => {
  const pool = new RenderPool(1, 30_000, SCRIPT, { memoryMb: 1024, recycleMb: 160 });
  t.after(() => pool.close());
  const [first, , ordinaryPid] = (await job(pool, 'ordinary')).split('|');
  assert.equal(first, 'ordinary');
  assert.equal((await job(pool, 'ordinary')).split('|')[2], ordinaryPid, 'an ordinary card keeps its process');
  const [rss, , spikePid] = (await job(pool, 'spike')).split('|');
  assert.equal(spikePid, ordinaryPid);
  assert.ok(Number(rss) < 160, `the process gave the memory back (${rss} MB) before it answered`);
  await waitFor(() => readRssMb(Number(spikePid)) === null, 2000, 'the process that peaked is gone within 2 s');
  assert.notEqual((await job(pool, 'next')).split('|')[2], spikePid, 'a fresh process draws the next card');
});

test('a render process started by a large service keeps its place: its peak is its own memory', async (t) => {
  // The process is forked from this one while it holds 200 MB: getrusage's maxrss would start
  // there and recycle it after every card.
  const held = Buffer.alloc(200 << 20, 1);
  const pool = new RenderPool(1, 30_000, undefined, { memoryMb: 1024, recycleMb: 160 });
  t.after(() => pool.close());
  const post = loadPost(SAMPLES_DIR, '1900000000000000014');
  const draw = async () => {
    const out = await pool.run(post, new Map(), { format: 'svg', theme: 'light' });
    assert.match(out.bytes.toString(), /^<svg/);
    return pool.pids()[0];
  };
  const first = await draw();
  assert.ok(first, 'the process is still there after its card');
  assert.equal(await draw(), first, 'the process that drew the first card draws the second');
  assert.equal(held.length, 200 << 20);
});

test("a render process's warning (a character no font draws) is emitted by the service", async (t) => {
  const pool = new RenderPool(1, 30_000);
  t.after(() => pool.close());
  const warnings: Array<{ name: string; message: string }> = [];
  const listen = (w: Error & { code?: string }) => {
    if (w.code === 'POSTSHOT_NO_GLYPH') warnings.push({ name: w.name, message: w.message });
  };
  process.on('warning', listen);
  t.after(() => process.off('warning', listen));
  const post = { ...loadPost(SAMPLES_DIR, '1900000000000000014'), id: '1900000000000000777', text: 'Shot on \u{f8ff}' };
  await pool.run(post, new Map(), { format: 'svg', theme: 'light' });
  await waitFor(() => warnings.length > 0, 5000, 'no warning reached this process');
  assert.deepEqual(warnings, [{ name: 'Warning', message: 'no glyph for U+F8FF (post 1900000000000000777)' }]);
});

async function waitFor(ok: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(what);
    await new Promise((r) => setTimeout(r, 20));
  }
}
