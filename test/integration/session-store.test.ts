import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { SessionStore } from '../../src/account/interface.ts';
import { loadConfig } from '../../src/config.ts';
import { openAccountStore } from '../../src/container.ts';
import type { AccountStore } from '../../src/storage/accounts/interface.ts';
import { openPostgresSessionStore } from '../../src/storage/sessions/postgres.ts';
import { openSqliteSessionStore } from '../../src/storage/sessions/sqlite.ts';
import { makeTempDir } from '../helper.ts';
import { scaledBackends } from '../scaled.ts';

// The same contract on both databases, over real connections.
const DIALECTS = {
  sqlite: async (t: { after(fn: () => Promise<void> | void): void }) => {
    const dir = makeTempDir();
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const url = `sqlite:${path.join(dir, 'postshot.db')}`;
    return { url, open: async () => openSqliteSessionStore(url) };
  },
  postgres: async (t: { after(fn: () => Promise<void> | void): void }) => {
    const backends = await scaledBackends();
    t.after(() => backends.cleanup());
    const url = backends.env.POSTSHOT_DATABASE_URL;
    return { url, open: () => openPostgresSessionStore(url) };
  },
};

for (const [dialect, setUp] of Object.entries(DIALECTS)) {
  async function stores(t: Parameters<typeof setUp>[0]): Promise<{ accounts: AccountStore; sessions: SessionStore }> {
    const { url, open } = await setUp(t);
    const accounts = await openAccountStore(loadConfig({ POSTSHOT_DATABASE_URL: url, POSTSHOT_LOG_LEVEL: 'silent' }));
    const sessions = await open();
    // A second session store on the same data opens as well (the account store's migrations made the tables).
    await (await open()).close();
    t.after(async () => {
      await sessions.close();
      await accounts.close();
    });
    return { accounts, sessions };
  }

  test(`${dialect}: a sign-in token is consumed once, even by concurrent callers, and never after it expires`, async (t) => {
    const { sessions } = await stores(t);
    await sessions.insertSignInToken({ hash: 'h1', email: 'a@example.com', now: 1000, expiresAt: 2000 });
    const results = await Promise.all(Array.from({ length: 8 }, () => sessions.consumeSignInToken('h1', 1500)));
    assert.deepEqual(
      results.filter((r) => r !== null),
      [{ email: 'a@example.com' }],
    );
    await sessions.insertSignInToken({ hash: 'h2', email: 'a@example.com', now: 1000, expiresAt: 2000 });
    assert.equal(await sessions.consumeSignInToken('h2', 2000), null, 'expired at its deadline');
    await sessions.insertSignInToken({ hash: 'h3', email: 'a@example.com', now: 1000, expiresAt: 9000 });
    await sessions.deleteSignInTokens('a@example.com');
    assert.equal(await sessions.consumeSignInToken('h3', 1500), null, 'voided');
  });

  test(`${dialect}: sessions expire, end one by one or all at once`, async (t) => {
    const { accounts, sessions } = await stores(t);
    const a = await accounts.createAccount({ email: 'a@example.com', plan: 'free', now: 1 });
    const b = await accounts.createAccount({ email: 'b@example.com', plan: 'free', now: 1 });
    await sessions.insertSession({ id: 's1', hash: 'x1', accountId: a.id, now: 10, expiresAt: 100 });
    await sessions.insertSession({ id: 's2', hash: 'x2', accountId: a.id, now: 10, expiresAt: 100 });
    await sessions.insertSession({ id: 's3', hash: 'x3', accountId: b.id, now: 10, expiresAt: 100 });
    assert.deepEqual(await sessions.findSession('x1', 50), {
      id: 's1',
      accountId: a.id,
      createdAt: 10,
      expiresAt: 100,
    });
    assert.equal(await sessions.findSession('x1', 100), null);
    await sessions.deleteSession('x1');
    assert.equal(await sessions.findSession('x1', 50), null);
    assert.equal(await sessions.deleteSessions(a.id), 1);
    assert.equal(await sessions.findSession('x2', 50), null);
    assert.equal((await sessions.findSession('x3', 50))?.accountId, b.id, "another account's session stays");
    await sessions.deleteExpired(100);
    assert.equal(await sessions.findSession('x3', 50), null);
    await sessions.setDisplayName(a.id, 'Ada');
    await sessions.setDisplayName(a.id, 'Ada L.');
    assert.equal(await sessions.getDisplayName(a.id), 'Ada L.');
    assert.equal(await sessions.getDisplayName(b.id), null);
  });
}

test('sqlite: the session connection and the account store write the same file at once', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const url = `sqlite:${path.join(dir, 'postshot.db')}`;
  const accounts = await openAccountStore(loadConfig({ POSTSHOT_DATABASE_URL: url, POSTSHOT_LOG_LEVEL: 'silent' }));
  const sessions = openSqliteSessionStore(url);
  t.after(async () => {
    await sessions.close();
    await accounts.close();
  });
  const a = await accounts.createAccount({ email: 'a@example.com', plan: 'pro', now: 1 });
  const key = await accounts.createKey({ accountId: a.id, hash: 'h1', prefix: 'psk_a', now: 2, name: 'ci' });
  assert.equal((await accounts.findKeyByHash('h1'))?.key.revokedAt, null);
  // Group-committed charges and last-use writes interleaved with session writes on the other connection.
  const n = 100;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const charged = await accounts.charge({
        accountId: a.id,
        periodStart: 0,
        limit: 1000,
        amount: 1,
        requestId: `r${i}`,
        endpoint: 'content',
        now: 10 + i,
      });
      assert.ok(charged.ok);
      await accounts.touchKeys(new Map([[key.id, 10 + i]]));
      await sessions.insertSession({ id: `s${i}`, hash: `x${i}`, accountId: a.id, now: 10, expiresAt: 100 });
    }),
  );
  assert.equal(await accounts.getUsed(a.id, 0), n);
  assert.equal((await accounts.listKeys(a.id))[0].lastUsedAt, 10 + n - 1);
  assert.equal(await sessions.deleteSessions(a.id), n);
  // The account pages revoke through the account store: the cached key is refused at once.
  await accounts.revokeKey(key.id, 500);
  assert.equal((await accounts.findKeyByHash('h1'))?.key.revokedAt, 500);
});

test('sqlite: the session store opens only on a file the account store made', async (t) => {
  const dir = makeTempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  assert.throws(() => openSqliteSessionStore(`sqlite:${path.join(dir, 'missing.db')}`));
  assert.throws(() => openSqliteSessionStore('sqlite::memory:'), /database file/);
});
