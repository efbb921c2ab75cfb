import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createAccountWithKey } from '../../src/auth/admin.ts';
import { loadConfig } from '../../src/config.ts';
import { openAccountStore } from '../../src/container.ts';
import { startFixtureServer } from '../../src/sources/fixture-server.ts';
import { REPO_DIR, SAMPLES_DIR } from '../fixtures.ts';
import { makeTempDir } from '../helper.ts';
import { freePort } from '../free-port.ts';

async function start(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), POSTSHOT_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('service did not start');
}

test('kill -9 under load: after restart the ledger and usage agree and nothing is charged without a response', async (t) => {
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const dir = makeTempDir();
  t.after(async () => {
    await upstream.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = { POSTSHOT_DATA_DIR: dir, ...upstream.env, POSTSHOT_RATE_LIMITS: 'business=1000000' };
  const store = await openAccountStore(loadConfig(env));
  const created = await createAccountWithKey(store, { email: 'crash@example.com', plan: 'business' }, Date.now());
  const small = await createAccountWithKey(store, { email: 'mail@example.com', plan: 'free' }, Date.now());
  await store.close();
  assert.ok(small.ok);
  assert.ok(created.ok);
  const { apiKey, account } = created.ok
    ? { apiKey: created.value.apiKey, account: created.value.account }
    : ({} as never);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const headers = { 'x-api-key': apiKey };

  let child = await start(env, port);
  // Before the crash: a hosted image and a crossed 50 % threshold would be lost by a careless store.
  const hosted = await (
    await fetch(`${base}/api/v1/screenshot/1900000000000000014?returnType=url&format=png`, { headers })
  ).json();
  assert.match(hosted.url, /\/images\/[0-9a-f]{64}\.png$/);
  for (let i = 0; i < 25; i++) {
    const r = await fetch(`${base}/api/v1/content/1900000000000000001`, {
      headers: { 'x-api-key': small.ok ? small.value.apiKey : '' },
    });
    await r.text();
  }

  // Slow upstream, so that many requests are in flight when the process dies.
  upstream.setFault('1900000000000000013', { delayMs: 400 }, 'fxtwitter');
  const ids = ['1900000000000000013', '1900000000000000001', '1900000000000000004', '1900000000000000002'];
  let ok = 0;
  const inflight = Array.from({ length: 120 }, (_, i) =>
    fetch(`${base}/api/v1/content/${ids[i % ids.length]}?includeStats=${i % 2 ? 'true' : 'false'}`, { headers }).then(
      async (r) => {
        await r.text();
        if (r.status === 200) ok++;
      },
      () => {},
    ),
  );
  await new Promise((r) => setTimeout(r, 200));
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await Promise.all(inflight);
  await exited;

  child = await start(env, port);
  t.after(() => {
    child.kill('SIGKILL');
  });
  const check = await openAccountStore(loadConfig(env));
  try {
    const ledger = await check.ledger(account.id);
    assert.equal(ledger.filter((r) => r.status === 'pending').length, 0, 'no charge is left pending after restart');
    assert.ok(
      ledger.some((r) => r.kind === 'refund'),
      'requests cut off by the crash were refunded at restart',
    );
    const net = ledger.reduce((s, r) => s + (r.kind === 'charge' ? r.amount : -r.amount), 0);
    const usage = await (await fetch(`${base}/api/v1/usage`, { headers })).json();
    assert.equal(usage.used, net, 'usage and ledger agree');
    // Every response the clients received was charged once (+1 for the hosted screenshot); a
    // request cut off by the crash was charged only if its work had completed (then refunded never).
    assert.ok(net >= ok + 1, `net ${net} < delivered ${ok + 1}`);
    const committed = ledger.filter((r) => r.kind === 'charge' && r.status === 'committed').length;
    assert.equal(net, committed, 'only completed work stays charged');
    const outbox = await check.listOutbox(small.ok ? small.value.account.id : '');
    assert.deepEqual(
      outbox.map((m) => m.threshold),
      [50],
      'the queued quota e-mail survived the crash',
    );
  } finally {
    await check.close();
  }
  const image = await fetch(hosted.url.replace(/^http:\/\/[^/]+/, base));
  assert.equal(image.status, 200);
  assert.equal(image.headers.get('content-type'), 'image/png');
});
