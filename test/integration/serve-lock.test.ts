import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { createAccountWithKey } from '../../src/auth/admin.ts';
import { loadConfig } from '../../src/config.ts';
import { openAccountStore } from '../../src/container.ts';
import { startFixtureServer } from '../../src/sources/fixture-server.ts';
import { REPO_DIR, SAMPLES_DIR } from '../fixtures.ts';
import { makeTempDir } from '../helper.ts';
import { startInstance, stopInstance } from '../instances.ts';
import { freePort } from '../free-port.ts';

// One data dir, one serve: a second serve refuses before it touches anything, and a serve that
// cannot listen gives nothing away.

function runServe(
  env: Record<string, string>,
  port: number,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(REPO_DIR, 'bin', 'postshot.js'), 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', POSTSHOT_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr, ms: performance.now() - started });
    }),
  );
}

async function setUp(t: import('node:test').TestContext) {
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const dir = makeTempDir();
  t.after(async () => {
    await upstream.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = { POSTSHOT_DATA_DIR: dir, ...upstream.env, POSTSHOT_RATE_LIMITS: 'business=1000000' };
  const store = await openAccountStore(loadConfig(env));
  const created = await createAccountWithKey(store, { email: 'lock@example.com', plan: 'business' }, Date.now());
  assert.ok(created.ok);
  return { upstream, dir, env, store, apiKey: created.value.apiKey, accountId: created.value.account.id };
}

test('a second serve on the same data dir refuses at once, naming the dir and the holder, and refunds nothing', async (t) => {
  const { upstream, dir, env, store, apiKey, accountId } = await setUp(t);
  t.after(() => store.close());
  const first = await startInstance(env);
  t.after(() => stopInstance(first));
  // A request in flight, its credit reserved, while the second serve starts.
  const id = '1900000000000000013';
  upstream.setFault(id, { delayMs: 2500 }, 'fxtwitter');
  const inFlight = fetch(`${first.url}/api/v1/content/${id}`, { headers: { 'x-api-key': apiKey } });
  for (let i = 0; i < 50 && !(await store.ledger(accountId)).some((r) => r.status === 'pending'); i++)
    await new Promise((r) => setTimeout(r, 20));
  assert.equal((await store.ledger(accountId)).filter((r) => r.status === 'pending').length, 1);

  const second = await runServe(env, await freePort());
  assert.equal(second.code, 1);
  const lines = second.stderr.trim().split('\n');
  assert.equal(lines.length, 1, second.stderr);
  assert.match(lines[0], new RegExp(`data dir ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use`));
  assert.match(lines[0], new RegExp(`pid ${first.child.pid} `));

  const res = await inFlight;
  assert.equal(res.status, 200, await res.text());
  const ledger = await store.ledger(accountId);
  assert.deepEqual(
    ledger.map((r) => [r.kind, r.status]),
    [['charge', 'committed']],
    'the first instance charged its request; nothing was refunded by the second',
  );
});

test('a serve that cannot listen leaves pending charges alone; the next one refunds them', async (t) => {
  const { env, store, accountId, dir } = await setUp(t);
  // A charge left pending by a process that died.
  const r = await store.reserve({
    accountId,
    periodStart: Date.now(),
    limit: 10,
    amount: 3,
    partial: false,
    requestId: 'dead',
    endpoint: 'content',
    now: Date.now() - 1000,
  });
  assert.ok(r.ok);
  const busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.after(() => busy.close());
  const failed = await runServe(env, (busy.address() as net.AddressInfo).port);
  assert.notEqual(failed.code, 0, 'the port is in use');
  assert.deepEqual(
    (await store.ledger(accountId)).map((x) => x.status),
    ['pending'],
    'nothing refunded before the port was bound',
  );
  await store.close();

  const next = await startInstance(env);
  t.after(() => stopInstance(next));
  const check = await openAccountStore(loadConfig({ POSTSHOT_DATA_DIR: dir }));
  t.after(() => check.close());
  for (let i = 0; i < 50 && (await check.ledger(accountId)).some((x) => x.status === 'pending'); i++)
    await new Promise((res) => setTimeout(res, 50));
  assert.deepEqual(
    (await check.ledger(accountId)).map((x) => [x.kind, x.status]),
    [
      ['charge', 'refunded'],
      ['refund', null],
    ],
    'the charge of the dead process is refunded by the serve that holds the lock',
  );
});
