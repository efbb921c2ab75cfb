import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DependencyDownError } from '../../src/errors.ts';
import { RetryingOpen } from '../../src/storage/retrying-open.ts';

const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const forGood = new Error('role "nobody" does not exist');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An open() that fails `failures` times, then yields a value; records when it was called. */
function flaky(failures: number, error: Error = refused) {
  const calls: number[] = [];
  const closed: string[] = [];
  const open = async () => {
    calls.push(Date.now());
    if (calls.length <= failures) throw error;
    return `store#${calls.length}`;
  };
  return { calls, closed, open, close: async (v: string) => void closed.push(v) };
}

test('until it opens, callers get DependencyDownError at once, and attempts back off instead of following calls', async () => {
  const f = flaky(3);
  const delays: number[] = [];
  const opening = new RetryingOpen(f.open, f.close, {
    dependency: 'database',
    isLasting: (err) => err === forGood,
    onFailure: (_err, _attempt, retryInMs) => delays.push(retryInMs),
    firstDelayMs: 40,
    maxDelayMs: 100,
  });
  await opening.start();
  assert.equal(opening.isOpen, false);
  for (let i = 0; i < 100; i++) assert.throws(() => opening.get(), DependencyDownError);
  assert.equal(f.calls.length, 1, 'calls do not trigger attempts');
  // The retry timer does not hold the process open (a server does); this test must.
  const keepAlive = setInterval(() => {}, 1000);
  assert.equal(await opening.opened, 'store#4');
  clearInterval(keepAlive);
  assert.equal(opening.get(), 'store#4');
  // 40, 80, then the cap of 100, each within the ±20 % jitter.
  assert.equal(delays.length, 3);
  for (const [i, base] of [40, 80, 100].entries())
    assert.ok(delays[i] >= base * 0.8 && delays[i] <= base * 1.2, `delay ${i}: ${delays[i]}`);
  for (let i = 1; i < f.calls.length; i++) assert.ok(f.calls[i] - f.calls[i - 1] >= delays[i - 1] - 5);
  await opening.close();
  assert.deepEqual(f.closed, ['store#4']);
  assert.throws(() => opening.get(), DependencyDownError, 'closed');
});

test('a lasting failure of the first attempt rejects start() and is not retried', async () => {
  const f = flaky(1, forGood);
  const opening = new RetryingOpen(f.open, f.close, {
    dependency: 'database',
    isLasting: (err) => err === forGood,
    firstDelayMs: 10,
  });
  await assert.rejects(opening.start(), forGood);
  await sleep(60);
  assert.equal(f.calls.length, 1);
});

test('closed while waiting for the server: no more attempts, and a store opened meanwhile is closed, not kept', async () => {
  const f = flaky(1);
  const opening = new RetryingOpen(f.open, f.close, {
    dependency: 'database',
    isLasting: () => false,
    firstDelayMs: 30,
  });
  await opening.start();
  await opening.close();
  await sleep(80);
  assert.equal(f.calls.length, 1, 'no attempt after close');

  // An attempt under way when close() is called: its store is closed once it arrives.
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const closed: string[] = [];
  let n = 0;
  const slow = new RetryingOpen(
    async () => {
      if (++n === 1) throw refused;
      await gate;
      return 'late';
    },
    async (v: string) => void closed.push(v),
    { dependency: 'database', isLasting: () => false, firstDelayMs: 5 },
  );
  await slow.start();
  await sleep(30);
  const closing = slow.close();
  release();
  await closing;
  assert.deepEqual(closed, ['late']);
  assert.equal(slow.isOpen, false);
  assert.throws(() => slow.get(), DependencyDownError);
});
