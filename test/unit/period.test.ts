import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computePeriod } from '../../src/quota/period.ts';
import { thresholdsCrossed } from '../../src/quota/thresholds.ts';

const d = (s: string) => Date.parse(s);
const iso = (n: number | null) => (n === null ? null : new Date(n).toISOString().slice(0, 10));

test('monthly periods start on the anchor day', () => {
  const anchor = d('2026-01-15T10:30:00Z');
  const p = computePeriod('pro', anchor, d('2026-03-20T00:00:00Z'));
  assert.deepEqual([iso(p.start), iso(p.end)], ['2026-03-15', '2026-04-15']);
  const q = computePeriod('pro', anchor, d('2026-03-14T23:59:59Z'));
  assert.deepEqual([iso(q.start), iso(q.end)], ['2026-02-15', '2026-03-15']);
});

test('an anchor on the 31st is clamped to short months', () => {
  const anchor = d('2026-01-31T08:00:00Z');
  assert.deepEqual(
    [
      iso(computePeriod('business', anchor, d('2026-02-28T12:00:00Z')).start),
      iso(computePeriod('business', anchor, d('2026-02-28T12:00:00Z')).end),
    ],
    ['2026-02-28', '2026-03-31'],
  );
  assert.equal(iso(computePeriod('business', anchor, d('2026-02-27T12:00:00Z')).start), '2026-01-31');
  assert.equal(iso(computePeriod('business', anchor, d('2028-02-29T00:00:00Z')).start), '2028-02-29');
  assert.equal(iso(computePeriod('business', anchor, d('2026-04-30T00:00:00Z')).start), '2026-04-30');
  assert.equal(iso(computePeriod('business', anchor, d('2026-12-31T00:00:00Z')).end), '2027-01-31');
});

test('the free allowance is one period that never ends', () => {
  const anchor = d('2026-01-31T08:00:00Z');
  const p = computePeriod('free', anchor, d('2030-06-01T00:00:00Z'));
  assert.equal(p.start, anchor);
  assert.equal(p.end, null);
});

test('thresholds are crossed once, in integer arithmetic', () => {
  assert.deepEqual(thresholdsCrossed(0, 25, 50), [50]);
  assert.deepEqual(thresholdsCrossed(24, 25, 50), [50]);
  assert.deepEqual(thresholdsCrossed(25, 26, 50), []);
  assert.deepEqual(thresholdsCrossed(0, 50, 50), [50, 70, 90, 100]);
  assert.deepEqual(thresholdsCrossed(209, 210, 300), [70]);
  assert.deepEqual(thresholdsCrossed(10, 9, 50), []);
});
