import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { authenticate } from '../../src/auth/authenticate.ts';
import { createAccountWithKey } from '../../src/auth/admin.ts';
import { openSqliteStore } from '../../src/storage/accounts/sqlite/open.ts';
import { makeTempDir } from '../helper.ts';

// The SQLite store keeps keys it has found. A change made by this store, or by any other
// connection to the same file (the CLI, another process), must show on the very next request.

function openTwo(t: import('node:test').TestContext) {
  const dir = makeTempDir();
  const url = `sqlite:${path.join(dir, 'db.sqlite')}`;
  const server = openSqliteStore(url);
  const cli = openSqliteStore(url);
  t.after(async () => {
    await server.close();
    await cli.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { server, cli };
}

test('a key revoked by another connection is refused on the next lookup', async (t) => {
  const { server, cli } = openTwo(t);
  const created = await createAccountWithKey(server, { email: 'a@example.com', plan: 'free' }, 1000);
  assert.ok(created.ok);
  const { apiKey, key } = created.value;
  const keyId = key.id;
  for (let i = 0; i < 3; i++) assert.equal((await authenticate(server, apiKey)).ok, true);
  await cli.revokeKey(keyId, 2000);
  assert.deepEqual(await authenticate(server, apiKey), { ok: false, reason: 'revoked' });
});

test('a plan changed by another connection is the plan of the next request', async (t) => {
  const { server, cli } = openTwo(t);
  const created = await createAccountWithKey(server, { email: 'a@example.com', plan: 'free' }, 1000);
  assert.ok(created.ok);
  const first = await authenticate(server, created.value.apiKey);
  assert.ok(first.ok && first.account.plan === 'free');
  await cli.setPlan(created.value.account.id, 'business', 3000);
  const next = await authenticate(server, created.value.apiKey);
  assert.ok(next.ok);
  assert.deepEqual([next.account.plan, next.account.anchor], ['business', 3000]);
});

test('changes made through the same store show at once, and what it hands out cannot be altered', async (t) => {
  const { server } = openTwo(t);
  const created = await createAccountWithKey(server, { email: 'a@example.com', plan: 'free' }, 1000);
  assert.ok(created.ok);
  const { apiKey, key, account } = created.value;
  const keyId = key.id;
  const found = await authenticate(server, apiKey);
  assert.ok(found.ok);
  assert.throws(() => {
    (found.account as { plan: string }).plan = 'business';
  }, TypeError);
  await server.setPlan(account.id, 'pro', 2000);
  const after = await authenticate(server, apiKey);
  assert.ok(after.ok && after.account.plan === 'pro');
  await server.revokeKey(keyId, 3000);
  assert.deepEqual(await authenticate(server, apiKey), { ok: false, reason: 'revoked' });
});
