import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateBase62, generateId } from '../../src/ids.ts';

test('ids sort by creation time, then differ in 12 random characters', () => {
  const times = [0, 1, 61, 62, 1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000];
  const ids = times.map((t) => generateId('chg', t));
  for (const id of ids) assert.match(id, /^chg_[0-9A-Za-z]{20}$/);
  assert.deepEqual([...ids].sort(), ids);
  const same = new Set(Array.from({ length: 1000 }, () => generateId('chg', 5)));
  assert.equal(same.size, 1000);
});

test('random base62 characters are all used about equally often', () => {
  const counts = new Map<string, number>();
  const text = generateBase62(62 * 2000);
  assert.equal(text.length, 62 * 2000);
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  assert.equal(counts.size, 62);
  // Expected 2000 each; keeping bytes 248-255 (modulo bias) would give the first 8 ~2420 each, chi-square ~800.
  let chi2 = 0;
  for (const n of counts.values()) chi2 += (n - 2000) ** 2 / 2000;
  // 61 degrees of freedom: 110 is far beyond the 99.99th percentile (~104).
  assert.ok(chi2 < 110, `chi-square ${chi2.toFixed(1)}`);
});
