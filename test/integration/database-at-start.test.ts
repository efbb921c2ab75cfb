import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { test, type TestContext } from 'node:test';
import pg from 'pg';
import { generateSecretToken } from '../../src/account/secret-token.ts';
import { createAccountWithKey } from '../../src/auth/admin.ts';
import { generateApiKey } from '../../src/auth/api-key.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContainer, openAccountStore } from '../../src/container.ts';
import { computePeriod } from '../../src/quota/period.ts';
import { startFixtureServer } from '../../src/sources/fixture-server.ts';
import { loadMigrations } from '../../src/storage/accounts/migrations.ts';
import { SAMPLES_DIR } from '../fixtures.ts';
import { makeTempDir } from '../helper.ts';
import { PG_URL } from '../scaled.ts';
import { logLines, startServe } from '../serve-process.ts';
import { freePort } from '../free-port.ts';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy.ts';

// PostgreSQL not there when the service starts (a proxy in front of it refuses every connection
// until the test lets them through): the service starts anyway, answers 503 for what needs the
// database, charges nothing, and opens its stores (migrations included) once the server answers.

const POST = '1900000000000000001';

async function waitFor<T>(what: string, seconds: number, probe: () => Promise<T | null | undefined | false>) {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A fresh schema on the test PostgreSQL, reached directly and through a proxy that starts cut. */
async function databaseBehindProxy(t: TestContext) {
  const direct = new URL(PG_URL);
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const proxy: TcpProxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
  proxy.cut();
  const viaProxy = new URL(direct);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  // A password the logs must not show (the test server trusts local connections, so any will do).
  if (!viaProxy.password) viaProxy.password = 'not-for-logs-7c1f';
  viaProxy.searchParams.set('schema', schema);
  direct.searchParams.set('schema', schema);
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  t.after(async () => {
    await proxy.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  return {
    proxy,
    schema,
    admin,
    password: viaProxy.password,
    viaProxy: viaProxy.toString(),
    direct: direct.toString(),
  };
}

function isProblem(r: Response, status: number, code: string, body: { code?: string }): boolean {
  return r.status === status && r.headers.get('content-type')?.startsWith('application/problem+json') === true
    ? body.code === code
    : false;
}

test('serve starts without its PostgreSQL, answers 503 for what needs it, and opens the store (migrations included) when the server appears', async (t) => {
  const db = await databaseBehindProxy(t);
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const dir = makeTempDir();
  const port = await freePort();
  const serve = startServe({
    ...upstream.env,
    POSTSHOT_DATA_DIR: dir,
    PORT: String(port),
    POSTSHOT_DATABASE_URL: db.viaProxy,
  });
  t.after(async () => {
    serve.child.kill('SIGTERM');
    await serve.done;
    await upstream.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor('serve to listen', 30, async () => (await fetch(`${base}/healthz`)).ok);
  assert.equal(serve.child.exitCode, null, serve.stderr());

  const ready = await fetch(`${base}/readyz`);
  const readyBody = await ready.json();
  assert.equal(ready.status, 503);
  assert.equal(readyBody.checks.database, 'down');
  assert.match(readyBody.detail, /database unreachable/);
  // What needs no database works.
  assert.equal((await fetch(`${base}/openapi.json`)).status, 200);
  assert.equal((await fetch(`${base}/docs/`)).status, 200);

  // A key the database would have to look up: 503 problem+json, for any number of requests,
  // without a connection attempt each (the store retries on its own schedule).
  const madeUp = generateApiKey();
  const attemptsBefore = db.proxy.connections;
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      fetch(i % 2 ? `${base}/api/v1/screenshot/${POST}?format=svg` : `${base}/api/v1/usage`, {
        headers: { 'x-api-key': madeUp },
      }).then(async (r) => ({ r, body: await r.json() })),
    ),
  );
  for (const { r, body } of answers) assert.ok(isProblem(r, 503, 'service_unavailable', body), JSON.stringify(body));
  assert.ok(db.proxy.connections - attemptsBefore <= 3, `${db.proxy.connections - attemptsBefore} attempts`);

  const warning = await waitFor('the start-up warning', 10, async () =>
    logLines(serve.stdout()).find((l) => l.level === 40 && l.part === 'database'),
  );
  assert.match(
    String(warning.msg),
    new RegExp(`^database unreachable at start \\(postgres://[^ ]*:redacted@127\\.0\\.0\\.1:${db.proxy.port}/`),
  );
  const schemaExists = await db.admin.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [
    db.schema,
  ]);
  assert.equal(schemaExists.rowCount, 0, 'nothing was migrated yet');

  db.proxy.restore();
  await waitFor('/readyz to turn ready', 25, async () => (await fetch(`${base}/readyz`)).ok);
  // The service's own attempt ran the migrations, late: nobody else has touched this schema.
  const applied = await db.admin.query(`SELECT version FROM ${db.schema}.schema_migrations ORDER BY version`);
  assert.deepEqual(
    applied.rows.map((r) => r.version),
    loadMigrations('postgres').map((m) => m.version),
  );

  const store = await openAccountStore(loadConfig({ POSTSHOT_DATA_DIR: dir, POSTSHOT_DATABASE_URL: db.direct }));
  t.after(() => store.close());
  const created = await createAccountWithKey(store, { email: 'late@example.com', plan: 'pro' }, Date.now());
  assert.ok(created.ok);
  const shot = await fetch(`${base}/api/v1/screenshot/${POST}?format=svg`, {
    headers: { 'x-api-key': created.value.apiKey },
  });
  assert.equal(shot.status, 200, await shot.clone().text());
  assert.match(shot.headers.get('content-type') ?? '', /^image\/svg\+xml/);
  await shot.arrayBuffer();
  const unknown = await fetch(`${base}/api/v1/usage`, { headers: { 'x-api-key': madeUp } });
  assert.ok(isProblem(unknown, 403, 'unknown_api_key', await unknown.json()), 'the made-up key is now looked up');
  const charges = (await store.ledger(created.value.account.id)).filter((r) => r.kind === 'charge');
  assert.deepEqual(
    charges.map((r) => [r.amount, r.status]),
    [[1, 'committed']],
  );

  assert.equal(serve.child.exitCode, null);
  const log = logLines(serve.stdout());
  assert.equal(
    log.filter((l) => Number(l.level) >= 40 && l.part === 'database').length,
    1,
    'one warning, not one per retry',
  );
  assert.ok(log.some((l) => l.msg === 'database reachable; stores open'));
  assert.equal(serve.stderr(), '');
  assert.ok(!serve.stdout().includes(db.password), 'no password in the log');
});

test('while the database is away nothing is charged, and the start-up refund of abandoned charges waits for it', async (t) => {
  const db = await databaseBehindProxy(t);
  const upstream = await startFixtureServer({ roots: [SAMPLES_DIR] });
  const dir = makeTempDir();
  t.after(async () => {
    await upstream.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  // Before the service starts: an account, its key, and a charge left pending by a crash.
  const store = await openAccountStore(loadConfig({ POSTSHOT_DATA_DIR: dir, POSTSHOT_DATABASE_URL: db.direct }));
  t.after(() => store.close());
  const created = await createAccountWithKey(store, { email: 'away@example.com', plan: 'pro' }, Date.now());
  assert.ok(created.ok);
  const { account, apiKey } = created.value;
  const longAgo = Date.now() - 3600_000;
  const abandoned = await store.reserve({
    accountId: account.id,
    periodStart: computePeriod(account.plan, account.anchor, longAgo).start,
    limit: 300,
    amount: 1,
    partial: false,
    requestId: 'req_abandoned',
    endpoint: 'content',
    now: longAgo,
  });
  assert.ok(abandoned.ok);

  const lines: string[] = [];
  const config = loadConfig({
    ...upstream.env,
    POSTSHOT_DATA_DIR: dir,
    POSTSHOT_DATABASE_URL: db.viaProxy,
    POSTSHOT_LOG_LEVEL: 'info',
    POSTSHOT_RENDER_WORKERS: '1',
    POSTSHOT_RENDER_WARMUP_MS: '0',
  });
  const c = await createContainer(config, { logStream: { write: (line: string) => lines.push(line) } });
  const app = await buildApp(c);
  t.after(async () => {
    await app.close();
    await c.close();
  });
  await c.start();

  const headers = { 'x-api-key': apiKey };
  const cookie = `postshot_session=${generateSecretToken('pss')}`;
  for (const url of [`/api/v1/content/${POST}`, `/api/v1/screenshot/${POST}?format=svg`, '/api/v1/usage']) {
    const r = await app.inject({ url, headers });
    assert.equal(r.statusCode, 503, `${url}: ${r.body}`);
    assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
    assert.equal(r.json().code, 'service_unavailable');
    assert.equal(r.json().detail, 'database is unavailable; try again shortly.');
  }
  const page = await app.inject({ url: '/account', headers: { cookie } });
  assert.equal(page.statusCode, 503, 'an account page needs the database');
  assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);

  // Let the store retry a few times: the start-up work must neither run nor log meanwhile.
  await waitFor('two retries', 15, async () => db.proxy.connections >= 3);
  const rows = await store.ledger(account.id);
  assert.deepEqual(
    rows.map((r) => [r.kind, r.status]),
    [['charge', 'pending']],
    'nothing charged, nothing refunded yet',
  );
  const logged = lines.map((l) => JSON.parse(l));
  assert.deepEqual(
    logged.filter((l) => l.level >= 40 && l.part !== 'database' && !/dependency unavailable/.test(l.msg)),
    [],
    'no refund, outbox or sweep failures logged while the store is not open',
  );
  assert.equal(logged.filter((l) => l.level === 40 && l.part === 'database').length, 1);

  db.proxy.restore();
  await waitFor('the database check', 25, async () => (await c.checkReadiness()).database === 'ok');
  const refunded = await waitFor('the abandoned charge to be refunded', 10, async () => {
    const ledger = await store.ledger(account.id);
    return ledger.find((r) => r.kind === 'charge')?.status === 'refunded' && ledger;
  });
  assert.equal(refunded.length, 2, 'the pending charge and its refund');

  const served = await app.inject({ url: `/api/v1/content/${POST}`, headers });
  assert.equal(served.statusCode, 200, served.body);
  const after = await store.ledger(account.id);
  assert.equal(after.filter((r) => r.kind === 'charge' && r.status === 'committed').length, 1);
  const signIn = await app.inject({ url: '/account', headers: { cookie } });
  assert.equal(signIn.statusCode, 303, 'an unknown session is now looked up and sent to sign in');
});
