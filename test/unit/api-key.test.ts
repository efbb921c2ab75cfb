import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../src/auth/api-key.ts';

test('generated keys have the documented shape and a valid checksum', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const key = generateApiKey();
    assert.match(key, /^psk_[0-9A-Za-z]{38}$/);
    assert.ok(isWellFormedApiKey(key), key);
    seen.add(key);
  }
  assert.equal(seen.size, 200);
});

test('a single changed character breaks the checksum', () => {
  const key = generateApiKey();
  const i = 4 + 5;
  const swapped = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
  assert.equal(isWellFormedApiKey(swapped), false);
  assert.equal(isWellFormedApiKey(key.slice(0, -1)), false);
  assert.equal(isWellFormedApiKey(`${key}x`), false);
  assert.equal(isWellFormedApiKey(key.replace('psk_', 'pk_')), false);
  assert.equal(isWellFormedApiKey(''), false);
});

test('keys are stored as SHA-256 hex digests', () => {
  const key = generateApiKey();
  assert.match(hashApiKey(key), /^[0-9a-f]{64}$/);
  assert.notEqual(hashApiKey(key), hashApiKey(generateApiKey()));
});
