import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeEmail } from '../../src/account/sign-in.ts';

test('sign-in takes an ordinary address, and none with control characters', () => {
  assert.equal(normalizeEmail('  Dana.Doe+x@Example.COM '), 'dana.doe+x@example.com');
  for (const raw of [
    '\x1bM\x1bMx\x08@example.com',
    'a\x7f@example.com',
    'a\u0085b@example.com',
    'a\u009b2J@example.com',
  ])
    assert.equal(normalizeEmail(raw), null, JSON.stringify(raw));
});
